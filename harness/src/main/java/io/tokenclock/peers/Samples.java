package io.tokenclock.peers;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

import io.tokenclock.metrics.Distribution;
import io.tokenclock.record.Dist;

/**
 * A peer's per-request samples, recomputed under tokenclock's definitions and method (docs/METRICS.md): each value
 * recorded in nanoseconds into an HdrHistogram of 3 significant digits, percentiles without interpolation. TPOT is
 * {@code (last chunk - first chunk) / (n_out - 1)}: the sum of a request's chunk gaps when the file has them (so a
 * latency that ends at {@code [DONE]} does not leak in), else {@code (e2e - ttft)}, over {@code n_out - 1}.
 *
 * @param ttftMs       TTFT per successful request, ms.
 * @param e2eMs        end-to-end latency per request, ms (or null when the file has none).
 * @param outputTokens output tokens per request (or null).
 * @param gapsMs       each request's chunk gaps, ms (or null).
 * @param spanMs       each request's first-to-last token span, ms, when the file gives it without the gaps (or null).
 * @param startS       each request's start, s, on the peer's clock, when the file gives it (or null).
 */
record Samples(double[] ttftMs, double[] e2eMs, double[] outputTokens, List<double[]> gapsMs, double[] spanMs,
    double[] startS)
{
    private static final double NS_PER_MS = 1e6;

    /** Samples without start times. */
    Samples(final double[] ttftMs, final double[] e2eMs, final double[] outputTokens, final List<double[]> gapsMs,
        final double[] spanMs)
    {
        this(ttftMs, e2eMs, outputTokens, gapsMs, spanMs, null);
    }

    /** @return the requests one by one, for report.html. */
    PerRequest perRequest()
    {
        return new PerRequest(startS, ttftMs, gapsMs, e2eMs, outputTokens);
    }

    /** @return the distributions under tokenclock's keys: {@code ttft}, {@code tpot}, {@code e2e} ... */
    Map<String, Dist> distributions()
    {
        final Map<String, Dist> d = new LinkedHashMap<>();
        d.put("ttft", ms(ttftMs));
        final Histogram tpot = new Histogram(3);
        final Histogram gaps = new Histogram(3);
        final int n = ttftMs.length;
        for (int i = 0; i < n; i++)
        {
            final double[] g = gapsMs == null || i >= gapsMs.size() ? null : gapsMs.get(i);
            if (g != null)
            {
                for (final double x : g)
                {
                    record(gaps, x);
                }
            }
            final double out = outputTokens == null || i >= outputTokens.length ? 0 : outputTokens[i];
            if (out >= 2)
            {
                final double span = spanMs != null ? spanMs[i] : g != null ? sum(g) :
                    e2eMs != null && i < e2eMs.length ? e2eMs[i] - ttftMs[i] : Double.NaN;
                if (!Double.isNaN(span))
                {
                    record(tpot, span / (out - 1));
                }
            }
        }
        if (gapsMs != null)
        {
            d.put("inter_chunk_latency", Dist.of(Distribution.of(gaps, "ms", NS_PER_MS)));
        }
        d.put("tpot", Dist.of(Distribution.of(tpot, "ms", NS_PER_MS)));
        if (e2eMs != null)
        {
            d.put("e2e", ms(e2eMs));
        }
        if (outputTokens != null)
        {
            final Histogram tokens = new Histogram(3);
            for (final double t : outputTokens)
            {
                tokens.recordValue(Math.max(0, Math.round(t)));
            }
            d.put("output_tokens", Dist.of(Distribution.of(tokens, "tokens", 1)));
        }
        return d;
    }

    private static Dist ms(final double[] values)
    {
        final Histogram h = new Histogram(3);
        for (final double v : values)
        {
            record(h, v);
        }
        return Dist.of(Distribution.of(h, "ms", NS_PER_MS));
    }

    private static void record(final Histogram h, final double ms)
    {
        h.recordValue(Math.max(0, Math.round(ms * NS_PER_MS)));
    }

    private static double sum(final double[] values)
    {
        double s = 0;
        for (final double v : values)
        {
            s += v;
        }
        return s;
    }
}
