package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

/**
 * {@code ab.json} of an A/B a signal cut short: the run it cut is no sample (listed, left out of the figures), and a
 * variant left with one whole run gets no interval and no verdict, where a 20.4 against 0.0 once read "differs".
 */
final class AbReportPartialTest
{
    private static final RunOptions OPTIONS = RunOptions.builder().url("http://127.0.0.1:8000/v1").rate(4.0)
        .durationS(10.0).build();

    @TempDir
    Path dir;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    private JsonNode write(final List<RunResult> a, final List<RunResult> b) throws IOException
    {
        final Path file = dir.resolve("ab.json");
        try (PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8))
        {
            AbReport.write(Path.of("a.yaml"), Path.of("b.yaml"), List.of("A", "B", "B", "A"), a, b, file, out);
        }
        return new ObjectMapper().readTree(file.toFile());
    }

    @Test
    void shouldLeaveARunCutShortOutOfTheFiguresAndGiveNoVerdictOnOneWholeRunASide() throws IOException
    {
        // A: 204 and 210 ok over 10 s; B: 100 ok, then a run the signal cut at its start (0 ok, partial)
        final RunResult cut = MinimalRuns.of(OPTIONS, 0, 0, "interrupted by SIGINT", null);
        final JsonNode ab = write(List.of(MinimalRuns.of(OPTIONS, 204, 2_040), MinimalRuns.of(OPTIONS, 210, 2_100)),
            List.of(MinimalRuns.of(OPTIONS, 100, 1_000), cut));
        final JsonNode rps = ab.path("figures").path("requests_per_s");
        assertEquals(1, rps.path("b").size(), "the cut run is no sample: " + rps);
        assertEquals(10.0, rps.path("mean_b").asDouble(), 1e-9);
        assertTrue(rps.path("ci95").isNull() && rps.path("exceeds_noise").isNull(), "no verdict on one run: " + rps);
        assertEquals("[\"b 2\"]", ab.path("partial_runs").toString());
        final String printed = console.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("PARTIAL") && printed.contains("b 2"), printed);
        assertFalse(printed.contains("differs"), printed);
        assertTrue(printed.contains("no verdict"), printed);
    }

    @Test
    void shouldStillGiveAVerdictOnTwoWholeRunsASide() throws IOException
    {
        final JsonNode ab = write(List.of(MinimalRuns.of(OPTIONS, 204, 2_040), MinimalRuns.of(OPTIONS, 210, 2_100)),
            List.of(MinimalRuns.of(OPTIONS, 100, 1_000), MinimalRuns.of(OPTIONS, 104, 1_040)));
        final JsonNode rps = ab.path("figures").path("requests_per_s");
        assertTrue(rps.path("exceeds_noise").asBoolean(), rps.toString());
        assertTrue(ab.path("partial").isNull() && ab.path("partial_runs").isEmpty(), ab.toString());
    }
}
