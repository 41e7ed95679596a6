package io.tokenclock.sweep;

/**
 * The knee by latency factor: the load at which a tail latency leaves its low-load level by a set factor. With the
 * points in increasing offered load {@code x_0 < x_1 < ...} and their p99 latencies {@code y_i}, the baseline is
 * {@code b = y_0} (the lowest load swept) and the threshold {@code F * b}; the first point with {@code y_i > F * b}
 * is the first above it, and the knee is where the straight line between points {@code i - 1} and {@code i} crosses
 * the threshold: {@code x_k = x_(i-1) + (F * b - y_(i-1)) * (x_i - x_(i-1)) / (y_i - y_(i-1))}. Points with no
 * latency (NaN: no request ended ok) are skipped. Immutable and thread-safe.
 *
 * @param factor         F, the factor over the baseline.
 * @param baselineMs     b, the p99 at the lowest load swept, ms (NaN when no point has one).
 * @param thresholdMs    F * b, ms.
 * @param offered        x_k, the interpolated load at the knee; NaN when no point rises above the threshold.
 * @param lastWithin     the highest load at or below the threshold before the first above it, or NaN.
 * @param firstAbove     the first load above the threshold, or NaN when none is.
 */
public record LatencyKnee(double factor, double baselineMs, double thresholdMs, double offered, double lastWithin,
    double firstAbove)
{
    /**
     * @param offered the offered loads, strictly increasing.
     * @param p99Ms   the p99 latency at each, ms (NaN: none).
     * @param factor  F, greater than 1.
     * @return the knee; {@link #offered()} NaN when the latency never leaves the baseline by the factor.
     */
    public static LatencyKnee find(final double[] offered, final double[] p99Ms, final double factor)
    {
        if (!(factor > 1))
        {
            throw new IllegalArgumentException("the knee factor must be > 1: " + factor);
        }
        int previous = -1;
        for (int i = 0; i < offered.length; i++)
        {
            if (Double.isNaN(p99Ms[i]))
            {
                continue;
            }
            if (previous < 0)
            {
                previous = i;
                continue;
            }
            final double threshold = factor * p99Ms[firstWith(p99Ms)];
            if (p99Ms[i] > threshold)
            {
                final double x = offered[previous] + (threshold - p99Ms[previous]) *
                    (offered[i] - offered[previous]) / (p99Ms[i] - p99Ms[previous]);
                return new LatencyKnee(factor, threshold / factor, threshold, x, offered[previous], offered[i]);
            }
            previous = i;
        }
        final int first = firstWith(p99Ms);
        final double baseline = first < 0 ? Double.NaN : p99Ms[first];
        return new LatencyKnee(factor, baseline, factor * baseline, Double.NaN,
            previous < 0 ? Double.NaN : offered[previous], Double.NaN);
    }

    private static int firstWith(final double[] values)
    {
        for (int i = 0; i < values.length; i++)
        {
            if (!Double.isNaN(values[i]))
            {
                return i;
            }
        }
        return -1;
    }
}
