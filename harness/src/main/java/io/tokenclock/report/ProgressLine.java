package io.tokenclock.report;

import java.io.PrintStream;
import java.util.Locale;

import org.HdrHistogram.Histogram;

import io.tokenclock.config.RunOptions;
import io.tokenclock.load.LoadGenerator;
import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.recording.Collector;
import io.tokenclock.recording.SlotPool;

/**
 * The live progress line on stderr: done/total, in flight, achieved rate, recent TTFT p50/p99 (from the last sampling
 * interval's histogram), errors. Rewritten in place with {@code \r}. The command line decides whether to show it
 * at all (only when stderr is a terminal, so that logs and CI output stay clean); this class only draws.
 */
public final class ProgressLine
{
    private final PrintStream err;
    private final RunOptions options;
    private long startNs;
    private long lastNs;
    private long lastDone;
    private int lastWidth;

    /** A progress line written to {@code err} (the console, never a result file) for a run of {@code options}. */
    public ProgressLine(final PrintStream err, final RunOptions options)
    {
        this.err = err;
        this.options = options;
    }

    /** Called by the runner's supervising thread after each histogram sample. */
    public void update(
        final long nowNs, final LoadGenerator generator, final SlotPool pool, final Collector collector,
        final MetricRecorders recorders)
    {
        if (startNs == 0)
        {
            startNs = nowNs;
            lastNs = nowNs;
        }
        final long done = collector.counters().get(Collector.COMPLETED);
        final double rate = Formulas.rate(done - lastDone, Formulas.windowSeconds(lastNs, nowNs));
        lastNs = nowNs;
        lastDone = done;
        final long errors = collector.counters().get(Collector.MEASURED_ERROR) +
            collector.counters().get(Collector.MEASURED_CANCELLED);
        final Histogram ttft = recorders.lastInterval(Metric.TTFT);
        final String total = options.load().requests() != null ?
            String.valueOf(options.load().requests() + options.state().warmupRequests()) : "?";
        final String ttftText = ttft.getTotalCount() == 0 ? "-" : String.format(Locale.ROOT, "%.1f/%.1f ms",
            ttft.getValueAtPercentile(50) / 1e6, ttft.getValueAtPercentile(99) / 1e6);
        final String line = String.format(Locale.ROOT,
            "[%6.1fs] done %d/%s  in flight %d  %.1f req/s  TTFT p50/p99 %s  errors %d",
            (nowNs - startNs) / 1e9, done, total, pool.inUse(), rate, ttftText, errors);
        final int pad = Math.max(0, lastWidth - line.length());
        err.print("\r" + line + " ".repeat(pad));
        err.flush();
        lastWidth = line.length();
    }

    /** Ends the progress line so that the summary starts on a fresh line. */
    public void finish()
    {
        if (lastWidth > 0)
        {
            err.print("\r" + " ".repeat(lastWidth) + "\r");
            err.flush();
        }
    }
}
