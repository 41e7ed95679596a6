package io.tokenclock.metrics;

import org.HdrHistogram.Histogram;

/**
 * A summary of one recorded distribution, in the metric's reporting unit: count, min, mean, population standard
 * deviation, p50/p90/p95/p99/p99.9 and max. Percentiles are HdrHistogram's: the smallest recorded value (at the
 * histogram's resolution) that at least that fraction of samples do not exceed; no interpolation.
 */
public record Distribution(
    String unit, long count, double min, double mean, double stdev,
    double p50, double p90, double p95, double p99, double p999, double max)
{
    /** Summarises {@code histogram}, dividing recorded values by {@code scale}. */
    public static Distribution of(final Histogram histogram, final String unit, final double scale)
    {
        final long n = histogram.getTotalCount();
        if (n == 0)
        {
            return new Distribution(unit, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN);
        }
        return new Distribution(unit, n,
            histogram.getMinValue() / scale,
            histogram.getMean() / scale,
            histogram.getStdDeviation() / scale,
            histogram.getValueAtPercentile(50) / scale,
            histogram.getValueAtPercentile(90) / scale,
            histogram.getValueAtPercentile(95) / scale,
            histogram.getValueAtPercentile(99) / scale,
            histogram.getValueAtPercentile(99.9) / scale,
            histogram.getMaxValue() / scale);
    }

    public static Distribution of(final Histogram histogram, final Metric metric)
    {
        return of(histogram, metric.unit(), metric.scale());
    }
}
