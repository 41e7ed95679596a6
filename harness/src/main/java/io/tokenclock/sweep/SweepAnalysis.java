package io.tokenclock.sweep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What a sweep's points say about the server: the knee two ways ({@link LatencyKnee} on the TTFT p99,
 * {@link TwoSegmentFit} of achieved requests/s against offered load) and the point of maximum goodput. The points
 * are taken in increasing offered load whatever order they ran in. Immutable and thread-safe.
 *
 * @param latencyKnee    the knee by latency factor, on the TTFT p99.
 * @param throughputFit  the knee by two-segment fit, or null with fewer than {@link TwoSegmentFit#MIN_POINTS} points.
 * @param maxGoodput     the point of highest goodput (the lowest load among equals), or null when there is no point.
 */
public record SweepAnalysis(LatencyKnee latencyKnee, TwoSegmentFit throughputFit, SweepPoint maxGoodput)
{
    /**
     * @param points     the sweep's points, all of one loop kind, with distinct offered loads.
     * @param kneeFactor the latency factor, &gt; 1.
     */
    public static SweepAnalysis of(final List<SweepPoint> points, final double kneeFactor)
    {
        final List<SweepPoint> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparingDouble(SweepPoint::offered));
        final double[] x = new double[sorted.size()];
        final double[] ttftP99 = new double[sorted.size()];
        final double[] achieved = new double[sorted.size()];
        SweepPoint best = null;
        for (int i = 0; i < x.length; i++)
        {
            final SweepPoint p = sorted.get(i);
            x[i] = p.offered();
            ttftP99[i] = p.ttftP99Ms();
            achieved[i] = p.achievedRps();
            best = best == null || p.goodputRps() > best.goodputRps() ? p : best;
        }
        return new SweepAnalysis(LatencyKnee.find(x, ttftP99, kneeFactor), TwoSegmentFit.fit(x, achieved), best);
    }
}
