package io.tokenclock.report;

import org.HdrHistogram.Histogram;

import io.tokenclock.metrics.Distribution;
import io.tokenclock.stats.OrderStatistics;

/**
 * The distribution-free 95% interval of any quantile of a histogram, from order statistics, as record.json's
 * {@code p99_ci95} is of the p99: for report.html's cards, which give the p50 its interval too. With n = 232 TTFTs
 * the p50's interval is the 102nd to the 131st smallest; the p99's has no upper end below 368 samples.
 * Stateless and thread-safe.
 */
public final class QuantileBounds
{
    private QuantileBounds()
    {
    }

    /**
     * @param h     the histogram.
     * @param p     the quantile, in (0, 1).
     * @param scale what a recorded value is divided by (1e6: ns to ms).
     * @return {low, high}; a side the samples cannot bound is NaN, both NaN for an empty histogram.
     */
    public static double[] of(final Histogram h, final double p, final double scale)
    {
        final long n = h.getTotalCount();
        if (n == 0)
        {
            return new double[] {Double.NaN, Double.NaN};
        }
        final OrderStatistics.Ranks r = OrderStatistics.interval(n, p, Distribution.TAIL_LEVEL);
        return new double[] {r.hasLower() ? h.getValueAtPercentile(100.0 * r.lower() / n) / scale : Double.NaN,
            r.hasUpper() ? h.getValueAtPercentile(100.0 * r.upper() / n) / scale : Double.NaN};
    }
}
