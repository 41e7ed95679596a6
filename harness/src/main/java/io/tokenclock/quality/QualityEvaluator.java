package io.tokenclock.quality;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * Judges stored outputs under a {@link QualityRule}, after the window: every check on every sample (so that each
 * failed check is counted), then the judge on the samples that passed them all. Samples are checked on a bounded
 * pool ({@link Bounds#parallelism}: a command check is one process per output, and 210 outputs checked one after
 * the other took 262 s), and judging stops at a deadline ({@link Bounds#deadlineNs}: the grace period after a
 * signal); what was not judged by then is counted unjudged, with no verdict.
 */
public final class QualityEvaluator
{
    /**
     * @param verdicts each sample's verdict, by request id.
     * @param report   the totals.
     */
    public record Result(Map<Long, QualityVerdict> verdicts, QualityReport report)
    {
    }

    /**
     * How judging may run: checks on up to {@code parallelism} outputs at once, and nothing judged after
     * {@code deadlineNs} (System.nanoTime; read again as judging goes, since a signal may set it midway).
     *
     * @param parallelism the most outputs checked at once (a command check is one process each).
     * @param deadlineNs  when judging must stop; {@link Long#MAX_VALUE} while it need not.
     */
    public record Bounds(int parallelism, LongSupplier deadlineNs)
    {
        /** One output at a time, no deadline. */
        public static final Bounds SERIAL = new Bounds(1, () -> Long.MAX_VALUE);

        public Bounds
        {
            if (parallelism < 1)
            {
                throw new IllegalArgumentException("quality check parallelism must be >= 1: " + parallelism);
            }
        }
    }

    /** Between two looks at the deadline while waiting for checks, ns. */
    private static final long POLL_NS = 50_000_000L;

    private QualityEvaluator()
    {
    }

    /** @return every sample's verdict under {@code rule}, and the totals; one output at a time. */
    public static Result evaluate(final QualityRule rule, final List<Sample> samples) throws InterruptedException
    {
        return evaluate(rule, samples, Bounds.SERIAL);
    }

    /**
     * @return the verdicts of the samples judged within {@code bounds}, and the totals; a sample whose checks or
     * judge had not finished by the deadline has no verdict and is counted {@code unjudged}, never passed or failed.
     */
    public static Result evaluate(final QualityRule rule, final List<Sample> samples, final Bounds bounds)
        throws InterruptedException
    {
        final Map<Long, List<Outcome>> failures = check(rule.effectiveChecks(), samples, bounds);
        final List<Sample> toJudge = new ArrayList<>();
        for (final Sample s : samples)
        {
            if (rule.judge() != null && failures.containsKey(s.id()) && failures.get(s.id()).isEmpty())
            {
                toJudge.add(s);
            }
        }
        final Map<Long, Judge.Verdict> judged = rule.judge() == null || toJudge.isEmpty() ? Map.of() :
            judgeWithin(new Judge(rule.judge()), toJudge, bounds);
        final List<Sample> judgedSamples = new ArrayList<>();
        for (final Sample s : samples)
        {
            final boolean checked = failures.containsKey(s.id());
            final boolean needsJudge = checked && rule.judge() != null && failures.get(s.id()).isEmpty();
            if (checked && (!needsJudge || judged.containsKey(s.id())))
            {
                judgedSamples.add(s);
            }
        }
        return combine(rule, judgedSamples, failures, judged, samples.size() - judgedSamples.size());
    }

    /** @return each sample's failed checks, for the samples whose checks all finished before the deadline. */
    private static Map<Long, List<Outcome>> check(final List<Check> checks, final List<Sample> samples,
        final Bounds bounds) throws InterruptedException
    {
        final Map<Long, List<Outcome>> failures = new ConcurrentHashMap<>();
        final ExecutorService pool = Executors.newFixedThreadPool(bounds.parallelism(), r ->
        {
            final Thread t = new Thread(r, "tokenclock-quality-check");
            t.setDaemon(true);
            return t;
        });
        try
        {
            final List<Future<?>> pending = new ArrayList<>();
            for (final Sample s : samples)
            {
                pending.add(pool.submit(() ->
                {
                    final List<Outcome> failed = new ArrayList<>();
                    for (final Check c : checks)
                    {
                        final Outcome o = c.check(s);
                        if (!o.pass())
                        {
                            failed.add(o);
                        }
                    }
                    // A check cut short by the deadline (interrupted) has no verdict: the sample stays unjudged.
                    if (!Thread.currentThread().isInterrupted() && System.nanoTime() - bounds.deadlineNs()
                        .getAsLong() < 0)
                    {
                        failures.put(s.id(), failed);
                    }
                }));
            }
            awaitWithin(pending, bounds);
        }
        finally
        {
            pool.shutdownNow();
        }
        return failures;
    }

    /** Waits for every task, or until the deadline passes (the tasks left are then abandoned). */
    private static void awaitWithin(final List<? extends Future<?>> pending, final Bounds bounds)
        throws InterruptedException
    {
        for (final Future<?> f : pending)
        {
            while (!f.isDone())
            {
                final long leftNs = bounds.deadlineNs().getAsLong() - System.nanoTime();
                if (leftNs <= 0)
                {
                    return;
                }
                try
                {
                    f.get(Math.min(leftNs, POLL_NS), TimeUnit.NANOSECONDS);
                }
                catch (final TimeoutException ex)
                {
                    // look at the deadline again: a signal may have moved it
                }
                catch (final ExecutionException ex)
                {
                    throw new IllegalStateException("a quality check failed: " + ex.getCause(), ex.getCause());
                }
            }
        }
    }

    /** @return the judge's verdicts, or none when the deadline passed before it finished. */
    private static Map<Long, Judge.Verdict> judgeWithin(final Judge judge, final List<Sample> toJudge,
        final Bounds bounds) throws InterruptedException
    {
        final ExecutorService one = Executors.newSingleThreadExecutor(r ->
        {
            final Thread t = new Thread(r, "tokenclock-quality-judge");
            t.setDaemon(true);
            return t;
        });
        try
        {
            final Future<Map<Long, Judge.Verdict>> f = one.submit(() -> judge.judge(toJudge));
            awaitWithin(List.of(f), bounds);
            return f.isDone() && !f.isCancelled() ? f.resultNow() : Map.of();
        }
        finally
        {
            one.shutdownNow();
        }
    }

    private static Result combine(
        final QualityRule rule, final List<Sample> samples, final Map<Long, List<Outcome>> failures,
        final Map<Long, Judge.Verdict> judged, final long unjudged)
    {
        final Map<Long, QualityVerdict> verdicts = new HashMap<>();
        final Map<String, Long> byReason = new HashMap<>();
        long checked = 0;
        long success = 0;
        long excluded = 0;
        for (final Sample s : samples)
        {
            final List<String> reasons = new ArrayList<>();
            final List<String> details = new ArrayList<>();
            for (final Outcome o : failures.get(s.id()))
            {
                reasons.add(o.reason());
                details.add(o.detail() == null ? "" : o.detail());
            }
            final Judge.Verdict j = judged.get(s.id());
            boolean exclude = false;
            if (j != null && j.vote() != Judge.Vote.PASS)
            {
                final String treatment = j.vote() == Judge.Vote.ERROR ? rule.judge().onError() :
                    j.vote() == Judge.Vote.ABSTAIN ? rule.judge().abstain() : "fail";
                exclude = treatment.equals("exclude");
                reasons.add(judgeReason(j.vote()));
                details.add(j.error() == null ? "judge: " + j.replies() : "judge: " + j.error());
            }
            final boolean pass = reasons.isEmpty();
            verdicts.put(s.id(), new QualityVerdict(pass, exclude, reasons, details, j));
            if (exclude)
            {
                excluded++;
                continue;
            }
            checked++;
            success += pass ? 1 : 0;
            reasons.forEach(r -> byReason.merge(r, 1L, Long::sum));
        }
        return new Result(verdicts, new QualityReport(rule.describe(), checked, success, excluded, byReason,
            unjudged));
    }

    private static String judgeReason(final Judge.Vote vote)
    {
        return switch (vote)
        {
            case ERROR -> "judge_error";
            case ABSTAIN -> "judge_abstain";
            default -> "judge";
        };
    }
}
