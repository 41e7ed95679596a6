package io.tokenclock.results.record;

import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.tokenclock.metrics.Distribution;

/**
 * One distribution as the record writes it: its unit and count, then (only when it has samples) min, mean, stdev,
 * the percentiles and max, and the 95% intervals of p99 and p99.9 as {@code [low, high]}, a side the samples cannot
 * bound being null. Percentiles are HdrHistogram's (docs/METRICS.md).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Dist(String unit, long count, Double min, Double mean, Double stdev, Double p50, Double p90,
    Double p95, Double p99, @JsonProperty("p99_9") Double p999, Double max,
    @JsonProperty("p99_ci95") List<Double> p99Ci95, @JsonProperty("p99_9_ci95") List<Double> p999Ci95,
    @JsonProperty("sized_for") SizedFor sizedFor)
{
    /**
     * The percentile the run was sized for ({@code --min-samples-for}), with its own 95% interval, so that the
     * figure the user asked to bound is reported with its bound (docs/RESULTS.md).
     */
    public record SizedFor(String percentile, double value, List<Double> ci95)
    {
    }

    /** @return {@code d} as the record writes it: the figures only when it has samples. */
    public static Dist of(final Distribution d)
    {
        if (d.count() == 0)
        {
            return empty(d.unit());
        }
        return new Dist(d.unit(), d.count(), d.min(), d.mean(), d.stdev(), d.p50(), d.p90(), d.p95(), d.p99(),
            d.p999(), d.max(), interval(d.p99Low(), d.p99High()), interval(d.p999Low(), d.p999High()),
            d.sized() == null ? null : new SizedFor(d.sized().label(), d.sized().value(),
                interval(d.sized().low(), d.sized().high())));
    }

    /** @return an empty distribution of {@code unit}. */
    public static Dist empty(final String unit)
    {
        return new Dist(unit, 0, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /** @return {@code [low, high]} with null for a side that is NaN (unbounded). */
    public static List<Double> interval(final double low, final double high)
    {
        return Arrays.asList(Double.isNaN(low) ? null : low, Double.isNaN(high) ? null : high);
    }

    /**
     * @param name one of {@code p50, p90, p95, p99, p99_9, mean, min, max}.
     * @return that figure, or NaN when the distribution has none.
     */
    public double figure(final String name)
    {
        final Double v = switch (name)
        {
            case "p50" -> p50;
            case "p90" -> p90;
            case "p95" -> p95;
            case "p99" -> p99;
            case "p99_9" -> p999;
            case "mean" -> mean;
            case "min" -> min;
            case "max" -> max;
            default -> throw new IllegalArgumentException("no figure " + name);
        };
        return v == null ? Double.NaN : v;
    }
}
