package io.tokenclock.sweep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import io.tokenclock.api.Api;
import io.tokenclock.metrics.Distribution;

/**
 * What a sweep's points say about the server: the knee two ways ({@link LatencyKnee} on the TTFT p99, or on the e2e
 * p99 for an API that answers whole (embeddings, rerank: no TTFT), {@link TwoSegmentFit} of achieved requests/s
 * against offered load) and the point of maximum goodput. The points are taken in increasing offered load whatever
 * order they ran in. Immutable and thread-safe.
 *
 * @param latencyKnee    the knee by latency factor, on {@link #kneeMetric()}.
 * @param throughputFit  the knee by two-segment fit, or null with fewer than {@link TwoSegmentFit#MIN_POINTS} points.
 * @param maxGoodput     the point of highest goodput (the lowest load among equals), or null when there is no point.
 * @param baselineSamples the requests the latency knee's baseline p99 rests on (those that ended ok at the lowest
 *                       load with a p99), 0 when there is none.
 * @param points         the points measured.
 * @param shortPoints    the points whose window was shorter than {@value SweepPoint#MIN_WINDOW_E2E} e2e p50s, in
 *                       increasing load.
 * @param api            the API the sweep measured: whether it streams decides the knee's latency and the columns.
 */
public record SweepAnalysis(LatencyKnee latencyKnee, TwoSegmentFit throughputFit, SweepPoint maxGoodput,
    long baselineSamples, int points, List<SweepPoint> shortPoints, Api api)
{
    public SweepAnalysis
    {
        shortPoints = List.copyOf(shortPoints);
    }

    /** @return the latency the knee is on, in words: {@code TTFT p99}, or {@code e2e p99} for an answer read whole. */
    public String kneeMetric()
    {
        return api.streamed() ? "TTFT p99" : "e2e p99";
    }

    /** @return the key of {@link #kneeMetric()} in sweep.json's points: {@code ttft_p99_ms} or {@code e2e_p99_ms}. */
    public String kneeMetricKey()
    {
        return api.streamed() ? "ttft_p99_ms" : "e2e_p99_ms";
    }

    /**
     * @return what makes the knees less trustworthy than they look, one line each: a baseline p99 from fewer samples
     * than its 95% interval needs for an upper end (368) sets the threshold from a figure that may be far too low.
     */
    public List<String> warnings()
    {
        final List<String> warnings = new ArrayList<>();
        if (!shortPoints.isEmpty())
        {
            warnings.add(shortWindows(shortPoints));
        }
        final long needed = Distribution.samplesForUpperEnd(0.99);
        if (!Double.isNaN(latencyKnee.baselineMs()) && baselineSamples < needed)
        {
            warnings.add(String.format(Locale.ROOT, "the low-load baseline %s (%.1f ms) rests on %d samples, " +
                "fewer than the %d a p99 needs for its 95%% interval to have an upper end: the latency knee's " +
                "threshold (%s x it) is uncertain; lengthen --point-duration or raise the lowest rate",
                kneeMetric(), latencyKnee.baselineMs(), baselineSamples, needed,
                StopRule.format(latencyKnee.factor())));
        }
        return warnings;
    }

    /**
     * @return one line naming the points whose window was shorter than {@value SweepPoint#MIN_WINDOW_E2E} e2e p50s,
     * and the window that would do.
     */
    public static String shortWindows(final List<SweepPoint> shortPoints)
    {
        final StringBuilder loads = new StringBuilder();
        double longestE2eMs = 0;
        for (final SweepPoint p : shortPoints)
        {
            loads.append(loads.isEmpty() ? "" : ", ").append(StopRule.format(p.offered()));
            longestE2eMs = Math.max(longestE2eMs, p.e2eP50Ms());
        }
        final SweepPoint first = shortPoints.get(0);
        return String.format(Locale.ROOT, "%d point%s (offered %s) ran a %s s window, under %s times the e2e p50 " +
            "(up to %.2f s): the rates and knees there rest on the first requests, not on a steady load; " +
            "--point-duration %s or more", shortPoints.size(), shortPoints.size() == 1 ? "" : "s", loads,
            StopRule.format(first.windowS()), StopRule.format(SweepPoint.MIN_WINDOW_E2E), longestE2eMs / 1e3,
            StopRule.format(Math.ceil(SweepPoint.MIN_WINDOW_E2E * longestE2eMs / 1e3)));
    }

    /**
     * @return one plain sentence saying which knee to believe and why. The throughput fit measures capacity, where
     * achieved requests/s stop following the load, but only once the sweep has reached the plateau (saturated); the
     * latency knee measures where the TTFT p99 leaves its low-load level by the factor, a latency budget that can
     * fall well below capacity.
     */
    public String advice()
    {
        if (points == 0)
        {
            return "No point was measured, so there is no knee to trust.";
        }
        final boolean latency = !Double.isNaN(latencyKnee.offered());
        if (throughputFit != null && throughputFit.saturated())
        {
            return "Trust the throughput fit's knee (" + StopRule.format(throughputFit.breakpoint()) + ") as the " +
                "server's capacity: past it the achieved throughput stopped following the offered load" +
                (latency ? "; the latency knee (" + StopRule.format(latencyKnee.offered()) + ") is where the " +
                    kneeMetric() + " passed " + StopRule.format(latencyKnee.factor()) + " x its low-load level, a " +
                    "latency budget, not capacity." : ".");
        }
        if (latency)
        {
            return "The throughput fit saw no saturation (the sweep did not reach the plateau), so its breakpoint is " +
                "no knee: trust the latency knee (" + StopRule.format(latencyKnee.offered()) + ") only as where the " +
                kneeMetric() + " passed " + StopRule.format(latencyKnee.factor()) + " x its low-load level, and " +
                "sweep higher loads to find capacity.";
        }
        return "Neither knee was found: the throughput kept following the load and the " + kneeMetric() +
            " stayed within " + StopRule.format(latencyKnee.factor()) + " x its low-load level; sweep higher loads.";
    }

    /**
     * @param reason the stop rule's reason after the last point, or null.
     * @param done   the points measured so far.
     * @return {@code reason} when the sweep should stop now: only once the throughput fit sees saturation, since a
     * sweep stopped before the plateau cannot place the capacity knee; the planned points bound how long it goes on.
     */
    public static String stopNow(final String reason, final List<SweepPoint> done, final double kneeFactor)
    {
        if (reason == null)
        {
            return null;
        }
        final TwoSegmentFit fit = of(done, kneeFactor).throughputFit();
        return fit != null && fit.saturated() ? reason : null;
    }

    /** @return the analysis of a streamed API's points ({@link Api#CHAT}'s knee: on the TTFT p99). */
    public static SweepAnalysis of(final List<SweepPoint> points, final double kneeFactor)
    {
        return of(points, kneeFactor, Api.CHAT);
    }

    /**
     * @param points     the sweep's points, all of one loop kind, with distinct offered loads.
     * @param kneeFactor the latency factor, &gt; 1.
     * @param api        the API they measured: the knee is on the TTFT p99 if it streams, else on the e2e p99.
     */
    public static SweepAnalysis of(final List<SweepPoint> points, final double kneeFactor, final Api api)
    {
        final List<SweepPoint> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparingDouble(SweepPoint::offered));
        final double[] x = new double[sorted.size()];
        final double[] p99 = new double[sorted.size()];
        final boolean streamed = api.streamed();
        final double[] achieved = new double[sorted.size()];
        SweepPoint best = null;
        long baselineSamples = 0;
        final List<SweepPoint> shortPoints = new ArrayList<>();
        for (int i = 0; i < x.length; i++)
        {
            final SweepPoint p = sorted.get(i);
            p99[i] = streamed ? p.ttftP99Ms() : p.e2eP99Ms();
            if (baselineSamples == 0 && !Double.isNaN(p99[i]))
            {
                baselineSamples = p.ok();
            }
            x[i] = p.offered();
            achieved[i] = p.achievedRps();
            best = best == null || p.goodputRps() > best.goodputRps() ? p : best;
            if (p.shortWindow())
            {
                shortPoints.add(p);
            }
        }
        return new SweepAnalysis(LatencyKnee.find(x, p99, kneeFactor), TwoSegmentFit.fit(x, achieved), best,
            baselineSamples, x.length, shortPoints, api);
    }
}
