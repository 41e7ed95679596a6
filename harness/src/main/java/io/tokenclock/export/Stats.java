package io.tokenclock.export;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import io.tokenclock.json.Json;
import io.tokenclock.results.record.Dist;

/**
 * The Benchmark Report's {@code Statistics}: {@code units}, {@code mean} (both required), {@code stddev}, {@code min},
 * the percentiles {@code p0p1} to {@code p99p9}, {@code max}. From a run's histogram (its {@code .hlog}) every slot is
 * filled, read exactly as HdrHistogram reads it; from a record's distribution, the ones it keeps (p50, p90, p95, p99,
 * p99.9). A figure that is absent or not finite is left out, never written as 0: the schema's readers take a missing
 * percentile as unknown, a 0 as measured.
 * <p>
 * For example a TTFT histogram of 1,000 requests recorded in ns (scale 1e6 to ms) gives
 * {@code {"units": "ms", "mean": 78.2, "stddev": 42.2, "min": 34.9, "p0p1": 35.0, ..., "p99p9": 187.0, "max": 187.0}}.
 */
final class Stats
{
    static final String MS = "ms";
    static final String S = "s";
    static final String MS_PER_TOKEN = "ms/token";
    static final String COUNT = "count";
    static final String TOKENS_PER_S = "tokens/s";
    static final String QUERIES_PER_S = "queries/s";
    static final String FRACTION = "fraction";
    static final String WATTS = "Watts";

    /** The schema's percentile slots and the percentile (0-100) each holds. */
    private static final String[] SLOTS = {"p0p1", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99",
        "p99p9"};
    private static final double[] PERCENTILES = {0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9};

    private Stats()
    {
    }

    /** @return the statistics of {@code d} in {@code units}, or null when it has no samples. */
    static ObjectNode of(final Dist d, final String units)
    {
        if (d == null || d.count() == 0 || !finite(d.mean()))
        {
            return null;
        }
        final ObjectNode n = mean(d.mean(), units);
        put(n, "stddev", d.stdev());
        put(n, "min", d.min());
        put(n, "p50", d.p50());
        put(n, "p90", d.p90());
        put(n, "p95", d.p95());
        put(n, "p99", d.p99());
        put(n, "p99p9", d.p999());
        put(n, "max", d.max());
        return n;
    }

    /**
     * @param h     a histogram whose values are recorded {@code scale} times finer than {@code units}.
     * @return its statistics with every percentile slot filled, or null when it is empty.
     */
    static ObjectNode of(final Histogram h, final double scale, final String units)
    {
        if (h == null || h.getTotalCount() == 0)
        {
            return null;
        }
        final ObjectNode n = mean(h.getMean() / scale, units);
        put(n, "stddev", h.getStdDeviation() / scale);
        put(n, "min", h.getMinValue() / scale);
        for (int i = 0; i < SLOTS.length; i++)
        {
            put(n, SLOTS[i], h.getValueAtPercentile(PERCENTILES[i]) / scale);
        }
        put(n, "max", h.getMaxValue() / scale);
        return n;
    }

    /**
     * @param values one value per request or session, in {@code units}.
     * @return their statistics, through a histogram of 3 significant digits as every tokenclock distribution is
     * (values recorded {@code scale} times finer than {@code units}), or null when there are none.
     */
    static ObjectNode of(final double[] values, final double scale, final String units)
    {
        if (values.length == 0)
        {
            return null;
        }
        final Histogram h = new Histogram(3);
        for (final double v : values)
        {
            h.recordValue(Math.max(0, Math.round(v * scale)));
        }
        return of(h, scale, units);
    }

    /** @return a statistic of one figure (a rate over the window), or null when it is not finite. */
    static ObjectNode mean(final double value, final String units)
    {
        if (!Double.isFinite(value))
        {
            return null;
        }
        return Json.MAPPER.createObjectNode().put("units", units).put("mean", value);
    }

    /** Puts {@code value} under {@code key} when it is a finite number. */
    static void put(final ObjectNode n, final String key, final Double value)
    {
        if (value != null && Double.isFinite(value))
        {
            n.put(key, value);
        }
    }

    private static boolean finite(final Double v)
    {
        return v != null && Double.isFinite(v);
    }
}
