package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOptions;
import io.tokenclock.run.MinimalRuns;
import io.tokenclock.run.RunResult;
import io.tokenclock.stats.Bootstrap;

/** {@code repetitions.json}: what an interval over few repetitions can say, and a set cut short by a signal. */
final class RepetitionsTest
{
    private static final RunOptions OPTIONS = RunOptions.builder().url("http://127.0.0.1:8000/v1").rate(4.0)
        .durationS(10.0).repetitions(3).build();

    @TempDir
    Path dir;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    private JsonNode write(final List<RunResult> runs, final String partialReason) throws IOException
    {
        final Path file = dir.resolve("repetitions.json");
        try (PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8))
        {
            Repetitions.write(runs, partialReason, file, out);
        }
        return new ObjectMapper().readTree(file.toFile());
    }

    @Test
    void shouldSayThatThreeRepetitionsGiveAnIntervalThatIsOnlyTheirRange() throws IOException
    {
        // 10, 11 and 12 req/s over a 10 s window: a percentile bootstrap of 3 values is always [min, max].
        final JsonNode n = write(List.of(MinimalRuns.of(OPTIONS, 100, 1_000), MinimalRuns.of(OPTIONS, 110, 1_100),
            MinimalRuns.of(OPTIONS, 120, 1_200)), null);
        final JsonNode rps = n.path("figures").path("requests_per_s");
        assertEquals(10.0, rps.path("ci95").get(0).asDouble(), 1e-9);
        assertEquals(12.0, rps.path("ci95").get(1).asDouble(), 1e-9);
        assertTrue(rps.path("ci95_is_range").asBoolean(), rps.toString());
        assertEquals(Bootstrap.MIN_N_NARROWER_THAN_RANGE, n.path("ci_min_repetitions").asInt());
        assertEquals(4, Bootstrap.MIN_N_NARROWER_THAN_RANGE);
        final String printed = console.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("[min, max]") && printed.contains("at least 4"), printed);
        assertTrue(n.path("partial").isNull());
    }

    @Test
    void shouldMarkASetCutShortBySignalPartialAndGiveNoZeroWidthInterval() throws IOException
    {
        final RunResult first = MinimalRuns.of(OPTIONS, 40, 400, "interrupted (SIGINT) after 4 s", null);
        final JsonNode n = write(List.of(first), "interrupted by SIGINT during repetition 1 of 3");

        assertEquals("interrupted by SIGINT during repetition 1 of 3", n.path("partial").asText());
        assertEquals(1, n.path("partial_repetitions").get(0).asInt(), n.toString());
        final JsonNode rps = n.path("figures").path("requests_per_s");
        assertTrue(rps.path("ci95").isNull(), "a partial repetition is no sample of the run: " + rps);
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("PARTIAL"), console.toString());
    }

    @Test
    void shouldGiveAnEmbeddingsSetNoOutputTokenRateButItsInputsPerSecond() throws IOException
    {
        final RunOptions embeddings = RunOptions.builder().url("http://127.0.0.1:8000/v1")
            .api(io.tokenclock.api.Api.EMBEDDINGS).rate(4.0).durationS(10.0).repetitions(2).build();
        final JsonNode n = write(List.of(MinimalRuns.of(embeddings, 100, 0), MinimalRuns.of(embeddings, 120, 0)),
            null);

        final JsonNode figures = n.path("figures");
        assertTrue(!figures.has("output_tokens_per_s") && !figures.has("ttft_p99_ms"), "absent, never 0: " + figures);
        assertTrue(figures.has("inputs_per_s"), figures.toString());
        final JsonNode chat = write(List.of(MinimalRuns.of(OPTIONS, 100, 1_000), MinimalRuns.of(OPTIONS, 120, 1_200)),
            null).path("figures");
        assertTrue(chat.has("output_tokens_per_s") && !chat.has("inputs_per_s"), chat.toString());
    }
}
