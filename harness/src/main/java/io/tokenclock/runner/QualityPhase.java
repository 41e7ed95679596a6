package io.tokenclock.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.tokenclock.config.RunOptions;
import io.tokenclock.goodput.GoodputBook;
import io.tokenclock.goodput.GoodputCounts;
import io.tokenclock.quality.QualityEvaluator;
import io.tokenclock.quality.QualityReport;
import io.tokenclock.quality.QualityRule;
import io.tokenclock.quality.QualityVerdict;
import io.tokenclock.quality.Sample;
import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.report.RequestsJsonlWriter;
import io.tokenclock.report.RequestsJsonlVerdicts;
import io.tokenclock.run.AnswerText;
import io.tokenclock.workload.Workload;

/**
 * The phase after the window that judges quality: keeps what the quality rule needs of each measured request that
 * ended ok (its answer text only when a check or the judge reads it, its finish reason) while the run goes on, then,
 * once the request stage has stopped, judges them all off the run's clock, gives the verdicts to goodput, and adds
 * {@code success} and {@code quality} to every line of {@code requests.jsonl}.
 * <p>
 * Thread-safety: {@link #onRequestComplete} on the request stage's thread; {@link #judge} on the run's thread after
 * that stage was joined.
 */
final class QualityPhase
{
    /** What is kept of one measured request until it is judged. */
    private record Kept(long id, String output, String finishReason)
    {
    }

    private final RunOptions options;
    private final Workload workload;
    private final QualityRule rule;
    private final boolean keepText;
    private final List<Kept> kept = new ArrayList<>();
    private final Map<Long, QualityVerdict> verdicts = new ConcurrentHashMap<>();

    QualityPhase(final RunOptions options, final Workload workload)
    {
        this.options = options;
        this.workload = workload;
        this.rule = options.quality().rule();
        this.keepText = rule.needsText();
    }

    /**
     * Keeps what the rule needs of a measured request that ended ok; on the request stage's thread. Of an agent's
     * steps only a task's final answer is kept: a tool-call step is no answer, and is never judged as one.
     */
    void onRequestComplete(final RequestSlot slot, final RequestMetrics m)
    {
        if (rule.judgesOutputs() && slot.phase == RequestSlot.PHASE_MEASURE &&
            slot.status == RequestSlot.STATUS_OK && (slot.task < 0 || RequestsJsonlWriter.finalStep(slot)))
        {
            final String text = keepText ? AnswerText.decode(slot.text.array(), slot.text.length()) : "";
            kept.add(new Kept(slot.requestId, text, RequestsJsonlWriter.finishReason(slot.finishReason)));
        }
    }

    /**
     * Judges the kept outputs, settles goodput, and writes the verdicts into requests.jsonl.
     *
     * @param goodput the run's goodput, or null when it reports none.
     * @return the quality report, or null when the rule judges no output.
     */
    QualityReport judge(final GoodputBook goodput, final Path requestsJsonl, final Interruption interruption,
        final PrintStream err) throws IOException, InterruptedException
    {
        QualityReport report = null;
        if (rule.judgesOutputs())
        {
            final long startNs = System.nanoTime();
            final List<Sample> samples = new ArrayList<>(kept.size());
            for (final Kept k : kept)
            {
                samples.add(new Sample(k.id(), workload.promptText(k.id()), k.output(), workload.reference(k.id()),
                    k.finishReason()));
            }
            kept.clear();
            final QualityEvaluator.Result result = QualityEvaluator.evaluate(rule, samples,
                bounds(interruption, startNs));
            verdicts.putAll(result.verdicts());
            samples.forEach(sample -> verdicts.putIfAbsent(sample.id(), QualityVerdict.unjudged()));
            report = result.report();
            err.printf(Locale.ROOT, "tokenclock: quality judged %d outputs after the window in %.1f s%s%n",
                samples.size() - report.unjudged(), (System.nanoTime() - startNs) / 1e9, report.unjudged() == 0 ?
                    "" : "; " + report.unjudged() + " left unjudged (the grace period after " +
                    interruption.signalName() + " ran out)");
        }
        if (goodput != null)
        {
            goodput.settle(this::goodputVerdict);
        }
        RequestsJsonlVerdicts.annotate(requestsJsonl, verdicts::get);
        return report;
    }

    /**
     * Checks run on up to {@link #checkParallelism()} outputs at once; after a signal, judging has the grace
     * period, counted from the signal or from the start of judging, whichever is later.
     */
    private QualityEvaluator.Bounds bounds(final Interruption interruption, final long startNs)
    {
        final long graceNs = Math.round(options.load().graceS() * 1e9);
        return new QualityEvaluator.Bounds(checkParallelism(), () -> interruption.requested() ?
            Math.max(interruption.signalledAtNs(), startNs) + graceNs : Long.MAX_VALUE);
    }

    /**
     * @return how many outputs are checked at once: {@code -Dtokenclock.checkParallelism=N}, by default the
     * processors the JVM sees (a command check is one process per output).
     */
    static int checkParallelism()
    {
        return Math.max(1, Integer.getInteger("tokenclock.checkParallelism",
            Runtime.getRuntime().availableProcessors()));
    }

    /**
     * @return an agent task's final answer's verdict by its request id: 0 passed (or nothing judges outputs), 1 failed
     * the rule, 2 left out (excluded, or not reached).
     */
    int answerVerdict(final long id)
    {
        final QualityVerdict v = verdicts.get(id);
        if (v == null || v.pass())
        {
            return 0;
        }
        return v.excluded() ? 2 : 1;
    }

    private int goodputVerdict(final long id)
    {
        final QualityVerdict v = verdicts.get(id);
        if (v == null || v.pass())
        {
            return 0;
        }
        return v.excluded() ? GoodputCounts.EXCLUDED : GoodputCounts.MISS_QUALITY;
    }
}
