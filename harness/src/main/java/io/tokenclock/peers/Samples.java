package io.tokenclock.peers;

import java.util.LinkedHashMap;
import java.util.Map;

import org.HdrHistogram.Histogram;

import io.tokenclock.metrics.Distribution;
import io.tokenclock.results.record.Dist;

/**
 * A peer's per-request samples, recomputed under tokenclock's definitions and method (docs/METRICS.md) as they are
 * read: each value recorded in nanoseconds into an HdrHistogram of 3 significant digits, percentiles without
 * interpolation, so that memory is the histograms' whatever the file's size. TPOT is {@code (last chunk - first
 * chunk) / (n_out - 1)}: the caller gives a request's span, the sum of its chunk gaps when the file has them (so a
 * latency that ends at {@code [DONE]} does not leak in), else its first-to-last token time, else {@code e2e - ttft}.
 * Beside the histograms, the requests one by one for report.html, in bounded memory too ({@link KeptRequests}: all of
 * them, or an evenly spread sample of a large file). Not thread-safe: one per run read.
 */
final class Samples
{
    private static final double NS_PER_MS = 1e6;

    private final Histogram ttft = new Histogram(3);
    private final Histogram tpot = new Histogram(3);
    private final Histogram gaps = new Histogram(3);
    private final Histogram e2e = new Histogram(3);
    private final Histogram tokens = new Histogram(3);
    private boolean withGaps;
    private boolean withE2e;
    private boolean withTokens;
    private long requests;
    private double ttftSumMs;
    private double gapSumMs;
    private final KeptRequests kept = new KeptRequests();

    /** Says that the file gives chunk gaps, so that an empty gap distribution is still shown. */
    Samples withGaps()
    {
        withGaps = true;
        return this;
    }

    /**
     * One successful request; NaN where the file does not give a figure.
     *
     * @param ttftMs       its TTFT, ms.
     * @param e2eMs        its end-to-end latency, ms.
     * @param outputTokens its output tokens.
     * @param spanMs       its first-to-last token time, ms.
     */
    void request(final double ttftMs, final double e2eMs, final double outputTokens, final double spanMs)
    {
        request(Double.NaN, ttftMs, e2eMs, outputTokens, spanMs);
    }

    /**
     * One successful request with its start; NaN where the file does not give a figure.
     *
     * @param startS       its start, s, on the peer's own clock.
     * @param ttftMs       its TTFT, ms.
     * @param e2eMs        its end-to-end latency, ms.
     * @param outputTokens its output tokens.
     * @param spanMs       its first-to-last token time, ms.
     */
    void request(final double startS, final double ttftMs, final double e2eMs, final double outputTokens,
        final double spanMs)
    {
        requests++;
        kept.request(startS, ttftMs, e2eMs, outputTokens);
        if (!Double.isNaN(ttftMs))
        {
            record(ttft, ttftMs);
            ttftSumMs += ttftMs;
        }
        if (!Double.isNaN(e2eMs))
        {
            withE2e = true;
            record(e2e, e2eMs);
        }
        if (!Double.isNaN(outputTokens))
        {
            withTokens = true;
            tokens.recordValue(Math.round(outputTokens));
            if (outputTokens >= 2 && !Double.isNaN(spanMs))
            {
                record(tpot, spanMs / (outputTokens - 1));
            }
        }
    }

    /** One gap between chunks of a successful request, ms. */
    void gap(final double ms)
    {
        withGaps = true;
        record(gaps, ms);
        gapSumMs += ms;
        kept.gap(ms);
    }

    /** @return the requests one by one (or an evenly spread sample of them), for report.html; null for none. */
    PerRequest perRequest()
    {
        return kept.build();
    }

    /** @return the successful requests recorded. */
    long requests()
    {
        return requests;
    }

    /** @return the mean TTFT recorded, ms, or null when none was. */
    Double ttftMeanMs()
    {
        return ttft.getTotalCount() == 0 ? null : ttftSumMs / ttft.getTotalCount();
    }

    /** @return the mean gap recorded, ms, or null when none was. */
    Double gapMeanMs()
    {
        return gaps.getTotalCount() == 0 ? null : gapSumMs / gaps.getTotalCount();
    }

    /** @return the distributions under tokenclock's keys: {@code ttft}, {@code tpot}, {@code e2e} ... */
    Map<String, Dist> distributions()
    {
        final Map<String, Dist> d = new LinkedHashMap<>();
        if (ttft.getTotalCount() > 0)
        {
            d.put("ttft", ms(ttft));
        }
        if (withGaps)
        {
            d.put("inter_chunk_latency", ms(gaps));
        }
        if (withTokens)
        {
            d.put("tpot", ms(tpot));
        }
        if (withE2e)
        {
            d.put("e2e", ms(e2e));
        }
        if (withTokens)
        {
            d.put("output_tokens", Dist.of(Distribution.of(tokens, "tokens", 1)));
        }
        return d;
    }

    private static Dist ms(final Histogram h)
    {
        return Dist.of(Distribution.of(h, "ms", NS_PER_MS));
    }

    private static void record(final Histogram h, final double ms)
    {
        h.recordValue(Math.round(ms * NS_PER_MS));
    }
}
