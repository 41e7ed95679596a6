package io.tokenclock.sweep;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The sweep's summary on the terminal: one line per point, then the knee both ways, the maximum goodput and the
 * highest rate that meets the SLO. A streamed API's row has TTFT and TPOT; an API that answers whole (embeddings,
 * rerank) has neither, and its row has the e2e p50 and p99, inputs/s and input tokens/s instead. Thread-safe:
 * stateless.
 */
public final class SweepTable
{
    private static final String ROW = "%10s %9s %9s %9s %9s %9s %10s %9s %6s %6s %8s %8s %9s%n";
    /** The row of an API that answers whole: e2e p50 and p99, inputs/s and input tokens/s for TTFT and TPOT. */
    private static final String WHOLE_ROW = "%10s %9s %9s %9s %9s %10s %9s %6s %6s %8s %8s %9s%n";

    private SweepTable()
    {
    }

    /**
     * Prints the table and the findings of {@code r}. The achieved rate is the point's own ({@link SweepPoint}:
     * requests that ended ok inside its window, over the window), said in the heading.
     */
    public static void print(final SweepReport r, final PrintStream out)
    {
        final SweepPoint.Loop loop = r.plan().loop();
        out.println();
        out.printf(Locale.ROOT, "tokenclock sweep: %s, %d points of %s s%s%n", loop == SweepPoint.Loop.RATE ?
            "open loop (offered = req/s)" : "closed loop (offered = concurrency)", r.points().size(),
            StopRule.format(r.plan().pointDurationS()), r.slo() == null ? "" : ", SLO " + r.slo());
        if (r.ceiling() != null)
        {
            out.printf(Locale.ROOT, "ceiling: closed loop at concurrency %d: %.2f req/s%n",
                (int)r.ceiling().offered(), r.ceiling().achievedRps());
        }
        out.println("req/s: requests that ended ok inside each point's window, over the window (docs/RESULTS.md)");
        if (r.analysis().api().streamed())
        {
            streamedRows(r, out);
        }
        else
        {
            wholeRows(r, out);
        }
        if (r.stoppedEarly() != null)
        {
            out.println("stopped early: " + r.stoppedEarly());
        }
        if (r.partialReason() != null)
        {
            out.println("PARTIAL: " + r.partialReason());
        }
        findings(r, loop, out);
    }

    private static void streamedRows(final SweepReport r, final PrintStream out)
    {
        out.printf(Locale.ROOT, ROW, "offered", "req/s", "ttft p50", "ttft p99", "tpot p50", "tpot p99", "out tok/s",
            "goodput", "errors", "cancel", "running", "waiting", "in flight");
        for (final SweepPoint p : r.points())
        {
            out.printf(Locale.ROOT, ROW, StopRule.format(p.offered()), fixed(p.achievedRps(), 2),
                fixed(p.ttftP50Ms(), 1), fixed(p.ttftP99Ms(), 1), fixed(p.tpotP50Ms(), 2), fixed(p.tpotP99Ms(), 2),
                fixed(p.outputTokensPerS(), 1), fixed(p.goodputRps(), 2), p.errors(), p.cancelled(),
                fixed(p.queue().running(), 1), fixed(p.queue().waiting(), 1), fixed(p.queue().inFlight(), 1));
        }
    }

    private static void wholeRows(final SweepReport r, final PrintStream out)
    {
        out.printf(Locale.ROOT, WHOLE_ROW, "offered", "req/s", "e2e p50", "e2e p99", "inputs/s", "in tok/s",
            "goodput", "errors", "cancel", "running", "waiting", "in flight");
        for (final SweepPoint p : r.points())
        {
            out.printf(Locale.ROOT, WHOLE_ROW, StopRule.format(p.offered()), fixed(p.achievedRps(), 2),
                fixed(p.e2eP50Ms(), 1), fixed(p.e2eP99Ms(), 1), fixed(p.inputsPerS(), 1),
                fixed(p.inputTokensPerS(), 1), fixed(p.goodputRps(), 2), p.errors(), p.cancelled(),
                fixed(p.queue().running(), 1), fixed(p.queue().waiting(), 1), fixed(p.queue().inFlight(), 1));
        }
    }

    private static void findings(final SweepReport r, final SweepPoint.Loop loop, final PrintStream out)
    {
        if (r.analysis().points() == 0)
        {
            // A sweep that measured nothing (the server refused the first point) has no knee to place or judge.
            out.println("which knee: " + r.analysis().advice());
            return;
        }
        final String unit = loop.unit();
        final LatencyKnee k = r.analysis().latencyKnee();
        out.printf(Locale.ROOT, "knee (%s > %s x its %s ms at the lowest load): %s%n", r.analysis().kneeMetric(),
            StopRule.format(k.factor()), fixed(k.baselineMs(), 1), Double.isNaN(k.offered()) ?
            "not reached" : StopRule.format(k.offered()) + " " + unit + " (between " +
            StopRule.format(k.lastWithin()) + " and " + StopRule.format(k.firstAbove()) + ")");
        final TwoSegmentFit f = r.analysis().throughputFit();
        out.println("knee (two-segment fit of achieved req/s): " + (f == null ? "needs " + TwoSegmentFit.MIN_POINTS +
            " points" : String.format(Locale.ROOT, "%s %s, slope %.3f below, %.3f above%s",
            StopRule.format(f.breakpoint()), unit, f.slopeBelow(), f.slopeAbove(), f.saturated() ? "" :
            " (not saturated: the slope hardly changes)")));
        for (final String warning : r.analysis().warnings())
        {
            out.println("warning: " + warning);
        }
        out.println("which knee: " + r.analysis().advice());
        final SweepPoint best = r.analysis().maxGoodput();
        if (best != null)
        {
            out.printf(Locale.ROOT, "max goodput: %.2f req/s at %s %s%n", best.goodputRps(),
                StopRule.format(best.offered()), unit);
        }
        final SweepReport.Search s = r.search();
        if (s == null)
        {
            out.println("max rate meeting the SLO: " + (r.slo() == null ? "no SLO given (" +
                (r.analysis().api().streamed() ? "--slo-ttft-ms" : "--slo-e2e-ms") + " ...)" : "not searched"));
            return;
        }
        out.printf(Locale.ROOT, "max rate meeting the SLO (%s of requests): %s req/s (%d runs, %s)%n",
            StopRule.format(r.plan().sloAttainment() * 100) + "%", Double.isNaN(s.result().maxRate()) ? "none" :
            StopRule.format(s.result().maxRate()), s.result().runs(), s.result().reason());
    }

    private static String fixed(final double v, final int decimals)
    {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
