package io.tokenclock.metrics;

import org.HdrHistogram.Histogram;

import io.tokenclock.stats.OrderStatistics;

/**
 * A summary of one recorded distribution, in the metric's reporting unit: count, min, mean, population standard
 * deviation, p50/p90/p95/p99/p99.9 and max. Percentiles are HdrHistogram's: the smallest recorded value (at the
 * histogram's resolution) that at least that fraction of samples do not exceed; no interpolation.
 * <p>
 * The tail percentiles carry how far they can be trusted: {@code p99Low..p99High} and {@code p999Low..p999High} are
 * distribution-free 95% intervals from order statistics ({@link OrderStatistics}), read from the same histogram. A
 * side that would need a sample beyond the data is NaN: a p99 from fewer than 368 samples has no upper end.
 */
public record Distribution(
    String unit, long count, double min, double mean, double stdev,
    double p50, double p90, double p95, double p99, double p999, double max,
    double p99Low, double p99High, double p999Low, double p999High, Sized sized)
{
    /**
     * The percentile the run's request count was sized for ({@code --min-samples-for}), with its 95% interval from
     * order statistics like the p99's: the figure the run was made long enough to bound.
     *
     * @param label    the percentile as the user wrote it, e.g. {@code p90}.
     * @param quantile the quantile, e.g. 0.9.
     * @param value    the percentile, in the metric's unit.
     * @param low      the interval's lower end, NaN when the samples cannot bound it.
     * @param high     the interval's upper end, NaN when the samples cannot bound it.
     */
    public record Sized(String label, double quantile, double value, double low, double high)
    {
    }

    /** A distribution of a run not sized for a percentile of its own. */
    public Distribution(final String unit, final long count, final double min, final double mean, final double stdev,
        final double p50, final double p90, final double p95, final double p99, final double p999, final double max,
        final double p99Low, final double p99High, final double p999Low, final double p999High)
    {
        this(unit, count, min, mean, stdev, p50, p90, p95, p99, p999, max, p99Low, p99High, p999Low, p999High,
            null);
    }

    /**
     * @return {@link #of(Histogram, Metric)}, plus the 95% interval of the percentile the run was sized for (null
     * {@code label}: none).
     */
    public static Distribution of(final Histogram histogram, final Metric metric, final String label,
        final double quantile)
    {
        final Distribution d = of(histogram, metric);
        if (label == null || d.count() == 0)
        {
            return d;
        }
        final OrderStatistics.Ranks ranks = OrderStatistics.interval(d.count(), quantile, TAIL_LEVEL);
        final double scale = metric.scale();
        final Sized sized = new Sized(label, quantile, histogram.getValueAtPercentile(100 * quantile) / scale,
            atRank(histogram, ranks.lower(), ranks.hasLower(), scale),
            atRank(histogram, ranks.upper(), ranks.hasUpper(), scale));
        return new Distribution(d.unit(), d.count(), d.min(), d.mean(), d.stdev(), d.p50(), d.p90(), d.p95(),
            d.p99(), d.p999(), d.max(), d.p99Low(), d.p99High(), d.p999Low(), d.p999High(), sized);
    }

    /** The coverage of the tail intervals. */
    public static final double TAIL_LEVEL = 0.95;

    /**
     * @param quantile in (0, 1), e.g. 0.99.
     * @return the fewest samples for which the quantile's two-sided {@link #TAIL_LEVEL} interval has an upper end (the
     * largest sample is then a 97.5% upper bound): 36 for p90, 368 for p99, 3,688 for p99.9.
     */
    public static long samplesForUpperEnd(final double quantile)
    {
        return OrderStatistics.minSamplesForUpperBound(quantile, 1 - (1 - TAIL_LEVEL) / 2);
    }

    /** @return whether the p99's 95% interval has an upper end: enough samples (368) to say how high it can be. */
    public boolean p99Bounded()
    {
        return !Double.isNaN(p99High);
    }

    /** Summarises {@code histogram}, dividing recorded values by {@code scale}. */
    public static Distribution of(final Histogram histogram, final String unit, final double scale)
    {
        final long n = histogram.getTotalCount();
        if (n == 0)
        {
            return new Distribution(unit, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        final OrderStatistics.Ranks p99 = OrderStatistics.interval(n, 0.99, TAIL_LEVEL);
        final OrderStatistics.Ranks p999 = OrderStatistics.interval(n, 0.999, TAIL_LEVEL);
        return new Distribution(unit, n,
            histogram.getMinValue() / scale,
            histogram.getMean() / scale,
            histogram.getStdDeviation() / scale,
            histogram.getValueAtPercentile(50) / scale,
            histogram.getValueAtPercentile(90) / scale,
            histogram.getValueAtPercentile(95) / scale,
            histogram.getValueAtPercentile(99) / scale,
            histogram.getValueAtPercentile(99.9) / scale,
            histogram.getMaxValue() / scale,
            atRank(histogram, p99.lower(), p99.hasLower(), scale),
            atRank(histogram, p99.upper(), p99.hasUpper(), scale),
            atRank(histogram, p999.lower(), p999.hasLower(), scale),
            atRank(histogram, p999.upper(), p999.hasUpper(), scale));
    }

    /** @return the {@code rank}-th smallest value (1-based) at the histogram's resolution; NaN when there is none. */
    private static double atRank(final Histogram histogram, final long rank, final boolean exists, final double scale)
    {
        return exists ? histogram.getValueAtPercentile(100.0 * rank / histogram.getTotalCount()) / scale : Double.NaN;
    }

    public static Distribution of(final Histogram histogram, final Metric metric)
    {
        return of(histogram, metric.unit(), metric.scale());
    }
}
