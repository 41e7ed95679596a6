package io.tokenclock.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The text format parser on expositions written the way each engine writes them (the samples in this package's test
 * resources were written for these tests after the engines' documentation), and on each rule of the format.
 */
final class ExpositionTest
{
    static String resource(final String name) throws IOException
    {
        try (InputStream in = ExpositionTest.class.getResourceAsStream(name))
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void shouldReadVllmExpositionWithoutAnError() throws IOException
    {
        final Scrape s = Exposition.parse(resource("vllm.prom"));

        assertEquals(0, s.errorCount(), s.errors().toString());
        assertEquals(MetricType.GAUGE, s.types().get("vllm:num_requests_running"));
        assertEquals(MetricType.HISTOGRAM, s.typeOf("vllm:time_to_first_token_seconds_bucket"));
        assertEquals(MetricType.COUNTER, s.typeOf("vllm:generation_tokens_total"));
        assertEquals("Number of requests waiting to be processed.", s.help().get("vllm:num_requests_waiting"));
        final List<Sample> running = s.named("vllm:num_requests_running");
        assertEquals(2, running.size());
        assertEquals(Map.of("engine", "1", "model_name", "meta-llama/Llama-3.1-8B-Instruct"), running.get(1).labels());
        assertEquals(10.0, running.get(1).value());
        assertEquals(7_557_572.0, s.named("vllm:generation_tokens_total").get(0).value());
        assertEquals(4, s.named("vllm:cache_config_info").get(0).labels().size());
    }

    @Test
    void shouldReadSglangTgiAndLlamaCppExpositionsWithoutAnError() throws IOException
    {
        for (final String name : new String[] {"sglang.prom", "tgi.prom", "llamacpp.prom"})
        {
            final Scrape s = Exposition.parse(resource(name));
            assertEquals(0, s.errorCount(), name + ": " + s.errors());
            assertTrue(s.samples().size() >= 7, name);
        }
        assertEquals(8_128_902.0, Exposition.parse(resource("sglang.prom")).named("sglang:prompt_tokens_total")
            .get(0).value());
        assertEquals(1041.0, Exposition.parse(resource("tgi.prom")).named("tgi_request_count").get(0).value());
        assertEquals(0.63, Exposition.parse(resource("llamacpp.prom")).named("llamacpp:kv_cache_usage_ratio")
            .get(0).value());
    }

    @Test
    void shouldUnescapeLabelValuesAndWriteThemBackEscaped()
    {
        final Scrape s = Exposition.parse("a{b=\"x\\\\y\\\"z\\nw\",c=\"\"} 1\n");

        assertEquals(0, s.errorCount(), s.errors().toString());
        final Sample sample = s.samples().get(0);
        assertEquals("x\\y\"z\nw", sample.labels().get("b"));
        assertEquals("", sample.labels().get("c"));
        assertEquals("a{b=\"x\\\\y\\\"z\\nw\",c=\"\"}", sample.series());
    }

    @Test
    void shouldReadNanAndInfinitiesAsGoDoes()
    {
        final Scrape s = Exposition.parse("a NaN\nb +Inf\nc -Inf\nd inf\ne -1.5e-3\nf .5\n");

        assertEquals(0, s.errorCount(), s.errors().toString());
        assertTrue(Double.isNaN(s.samples().get(0).value()));
        assertEquals(Double.POSITIVE_INFINITY, s.samples().get(1).value());
        assertEquals(Double.NEGATIVE_INFINITY, s.samples().get(2).value());
        assertEquals(Double.POSITIVE_INFINITY, s.samples().get(3).value());
        assertEquals(-0.0015, s.samples().get(4).value());
        assertEquals(0.5, s.samples().get(5).value());
    }

    @Test
    void shouldEscapeC1ControlsAndNulOfAMalformedLineInItsError()
    {
        // U+009B is a C1 CSI: a terminal reads it as ESC [
        final Scrape s = Exposition.parse("a 1 \u009b2J\0x\n");

        assertEquals(1, s.errorCount(), s.errors().toString());
        final String message = s.errors().get(0).message();
        assertTrue(message.chars().noneMatch(c -> c < 0x20 || c >= 0x7f && c <= 0x9f), message);
        assertTrue(message.contains("\\u009b2J\\u0000x"), message);
    }

    @Test
    void shouldRejectNumbersOnlyJavaWouldRead()
    {
        final Scrape s = Exposition.parse("a 1d\nb 0x10\nc 1f\nd 1_000\ne\nf 1e\n");

        assertEquals(0, s.samples().size());
        assertEquals(6, s.errorCount(), s.errors().toString());
    }

    @Test
    void shouldReadMillisecondAndOpenMetricsTimestamps()
    {
        final Scrape s = Exposition.parse("a 1 1712345678901\nb{x=\"y\"} 2 1712345678.5\nc 3 NaN\n");

        assertEquals(1_712_345_678_901.0, s.samples().get(0).timestamp());
        assertEquals(1_712_345_678.5, s.samples().get(1).timestamp());
        assertEquals(2, s.samples().size());
        assertEquals(1, s.errorCount(), "a timestamp must be finite");
        assertEquals(3, s.errors().get(0).line());
    }

    @Test
    void shouldHaveNoTimestampWhenTheLineGivesNone()
    {
        assertTrue(Double.isNaN(Exposition.parse("a 1\n").samples().get(0).timestamp()));
    }

    @Test
    void shouldUnescapeHelpAndRefuseSecondHelpOrType()
    {
        final Scrape s = Exposition.parse("# HELP a one\\\\two\\nthree \\t kept\n# HELP a again\n# TYPE a gauge\n" +
            "# TYPE a counter\n# TYPE b histogrammm\n# TYPE c\n# just a comment\na 1\n");

        assertEquals("one\\two\nthree \\t kept", s.help().get("a"));
        assertEquals(MetricType.GAUGE, s.types().get("a"));
        assertEquals(4, s.errorCount(), s.errors().toString());
        assertEquals(List.of(2, 4, 5, 6), s.errors().stream().map(Scrape.ParseError::line).toList());
        assertEquals(1, s.samples().size());
    }

    @Test
    void shouldReadOpenMetricsEofExemplarsAndCreatedSamples()
    {
        final Scrape s = Exposition.parse("# TYPE r counter\n# UNIT r seconds\nr_total 3 # {trace_id=\"ab\"} 1 1.5\n" +
            "r_created 1.7e9\n# TYPE h histogram\nh_bucket{le=\"1\"} 2 # {id=\"x\"} 0.4\nh_bucket{le=\"+Inf\"} 2\n" +
            "h_count 2\nh_sum 0.7\n# EOF\n");

        assertEquals(0, s.errorCount(), s.errors().toString());
        assertTrue(s.eof());
        assertEquals(3.0, s.named("r_total").get(0).value());
        assertEquals(MetricType.COUNTER, s.typeOf("r_created"));
        assertEquals(2.0, s.named("h_bucket").get(0).value());
    }

    @Test
    void shouldCountEveryLineAfterEofAsAnError()
    {
        final Scrape s = Exposition.parse("a 1\n# EOF\nb 2\n# EOF trailing\n");

        assertEquals(1, s.samples().size());
        assertEquals(2, s.errorCount());
        assertEquals(3, s.errors().get(0).line());
    }

    @Test
    void shouldSkipMalformedLinesAndKeepTheRest()
    {
        final String text = String.join("\n", "good 1", "bad{", "bad{a=\"unterminated} 1", "bad{a=b} 1",
            "bad{a=\"x\" b=\"y\"} 1", "bad{a=\"x\",a=\"y\"} 1", "bad{1a=\"x\"} 1", "bad{a=\"\\q\"} 1", "9bad 1",
            "bad 1 2 3", "bad", "good{a=\"x\",} 2", "  \tgood{ a = \"y\" } 3 \t\r", "");
        final Scrape s = Exposition.parse(text);

        assertEquals(List.of(1.0, 2.0, 3.0), s.samples().stream().map(Sample::value).toList());
        assertEquals(10, s.errorCount(), s.errors().toString());
        assertEquals(List.of(2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
            s.errors().stream().map(Scrape.ParseError::line).toList());
        for (final Scrape.ParseError e : s.errors())
        {
            assertFalse(e.message().contains("\n"), e.message());
        }
    }

    @Test
    void shouldKeepOnlyTheFirstErrorsButCountThemAll()
    {
        final Scrape s = Exposition.parse("x\n".repeat(100));

        assertEquals(100, s.errorCount());
        assertEquals(Exposition.MAX_ERRORS_KEPT, s.errors().size());
    }

    @Test
    void shouldTakeCrlfLineEndsAndAByteOrderMark()
    {
        final Scrape s = Exposition.parse("\uFEFF# TYPE a gauge\r\na 1\r\n");

        assertEquals(0, s.errorCount(), s.errors().toString());
        assertEquals(MetricType.GAUGE, s.typeOf("a"));
        assertEquals(1.0, s.samples().get(0).value());
    }

    @Test
    void shouldTakeAnEmptyExposition()
    {
        final Scrape s = Exposition.parse("");

        assertEquals(0, s.samples().size());
        assertEquals(0, s.errorCount());
        assertEquals(MetricType.UNTYPED, s.typeOf("anything"));
    }
}
