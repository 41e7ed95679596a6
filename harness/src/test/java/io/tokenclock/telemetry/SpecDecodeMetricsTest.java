package io.tokenclock.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.tokenclock.telemetry.EngineNames.Field;

/**
 * Speculative decoding and the prefix cache read from the server's counters over the window: vLLM's names as its
 * {@code vllm/v1/spec_decode/metrics.py} and {@code vllm/v1/metrics/loggers.py} declare them (prometheus_client adds
 * {@code _total} to a counter's name on the page), SGLang's as its metrics collector does.
 */
final class SpecDecodeMetricsTest
{
    private static final String LABELS = "{engine=\"0\",model_name=\"m\"}";

    private static String vllm(final long drafts, final long draftTokens, final long accepted, final long queries,
        final long hits)
    {
        return "# TYPE vllm:spec_decode_num_drafts_total counter\n" +
            "vllm:spec_decode_num_drafts_total" + LABELS + " " + drafts + ".0\n" +
            "# TYPE vllm:spec_decode_num_draft_tokens_total counter\n" +
            "vllm:spec_decode_num_draft_tokens_total" + LABELS + " " + draftTokens + ".0\n" +
            "# TYPE vllm:spec_decode_num_accepted_tokens_total counter\n" +
            "vllm:spec_decode_num_accepted_tokens_total" + LABELS + " " + accepted + ".0\n" +
            "vllm:spec_decode_num_accepted_tokens_per_pos_total{engine=\"0\",model_name=\"m\",position=\"0\"} 9.0\n" +
            "# TYPE vllm:prefix_cache_queries_total counter\n" +
            "vllm:prefix_cache_queries_total" + LABELS + " " + queries + ".0\n" +
            "# TYPE vllm:prefix_cache_hits_total counter\n" +
            "vllm:prefix_cache_hits_total" + LABELS + " " + hits + ".0\n";
    }

    private static ServerMetricsSummary.Point point(final long endNs, final String page)
    {
        return new ServerMetricsSummary.Point(endNs, EngineNames.map(Exposition.parse(page)));
    }

    /** The window is [10, 20]; the first point opens the bracket and the last closes it. */
    private static ServerMetricsSummary summary(final ServerMetricsSummary.Point... points)
    {
        return ServerMetricsSummary.of(new ServerMetricsScraper.Counts("http://127.0.0.1/metrics", 1000,
            points.length, 0, 0, 0, 0, null), List.of(points), points[0], points[points.length - 1], 10, 20);
    }

    @Test
    void shouldComputeAcceptanceAndMeanAcceptedLengthFromVllmCountersOverTheWindow()
    {
        final ServerMetricsSummary s = summary(point(5, vllm(100, 400, 250, 1_000, 200)),
            point(25, vllm(160, 640, 370, 5_000, 3_200)));

        assertEquals(120.0 / 240.0, s.specAcceptanceRate(), 1e-12, "accepted / draft tokens over the bracket");
        assertEquals(1 + 120.0 / 60.0, s.specMeanAcceptedLength(), 1e-12, "1 + accepted / drafts");
        assertEquals(3_000.0 / 4_000.0, s.prefixCacheHitRate(), 1e-12);
        assertEquals("vllm:spec_decode_num_drafts_total", s.sources().get(Field.SPEC_DRAFTS));
    }

    @Test
    void shouldSayNothingOfSpeculationWhenNothingWasDrafted()
    {
        final ServerMetricsSummary s = summary(point(5, vllm(100, 400, 250, 10, 0)),
            point(25, vllm(100, 400, 250, 10, 0)));

        assertTrue(Double.isNaN(s.specAcceptanceRate()));
        assertTrue(Double.isNaN(s.specMeanAcceptedLength()));
        assertTrue(Double.isNaN(s.prefixCacheHitRate()));
    }

    @Test
    void shouldReadSglangsCachedTokensAgainstItsPromptTokensAndItsOwnSpeculationGauges()
    {
        final String labels = "{model_name=\"m\"}";
        final String before = "sglang:prompt_tokens_total" + labels + " 1000.0\n" +
            "sglang:cached_tokens_total{cache_source=\"device\",model_name=\"m\"} 100.0\n" +
            "sglang:cached_tokens_total{cache_source=\"host\",model_name=\"m\"} 0.0\n" +
            "sglang:spec_accept_length" + labels + " 2.5\nsglang:spec_accept_rate" + labels + " 0.5\n";
        final String after = "sglang:prompt_tokens_total" + labels + " 3000.0\n" +
            "sglang:cached_tokens_total{cache_source=\"device\",model_name=\"m\"} 1300.0\n" +
            "sglang:cached_tokens_total{cache_source=\"host\",model_name=\"m\"} 300.0\n" +
            "sglang:spec_accept_length" + labels + " 3.5\nsglang:spec_accept_rate" + labels + " 0.7\n";
        final ServerMetricsSummary s = summary(point(5, before), point(15, after), point(25, after));

        assertEquals(1_500.0 / 2_000.0, s.prefixCacheHitRate(), 1e-12,
            "cached tokens of every source over prompt tokens");
        assertEquals("sglang:cached_tokens_total", s.sources().get(Field.PREFIX_CACHE_HITS));
        assertEquals(3.5, s.gauges().get(Field.SPEC_ACCEPT_LENGTH).mean(), 1e-12, "the scrape inside the window");
        assertEquals(0.7, s.gauges().get(Field.SPEC_ACCEPT_RATE).mean(), 1e-12);
    }

    @Test
    void shouldGiveNoRatioOverABracketThatMissesPartOfTheWindow()
    {
        // the opening scrape ended at 12, inside the window [10, 20]: requests before it are not in its differences
        final ServerMetricsSummary late = summary(point(12, vllm(100, 400, 250, 1_000, 200)),
            point(25, vllm(160, 640, 370, 5_000, 3_200)));
        assertTrue(!late.coversWindow());
        assertTrue(Double.isNaN(late.prefixCacheHitRate()), "not the window's hit rate");
        assertTrue(Double.isNaN(late.specAcceptanceRate()));
        assertEquals(4_000.0, late.deltas().get(Field.PREFIX_CACHE_QUERIES), 1e-12, "the differences stay");
        // the closing scrape ended at 18, before the window closed
        final ServerMetricsSummary early = summary(point(5, vllm(100, 400, 250, 1_000, 200)),
            point(18, vllm(160, 640, 370, 5_000, 3_200)));
        assertTrue(Double.isNaN(early.prefixCacheHitRate()));
    }
}
