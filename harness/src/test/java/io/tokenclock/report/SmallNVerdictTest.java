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
 * {@code ab} and {@code run --repetitions} at small n: no "differs" where Welch's t interval at the same n holds 0,
 * and what a bootstrap interval covers said beside it (issue 38: ab --repetitions 3 said "differs" on [-3.6, -0.2]).
 */
final class SmallNVerdictTest
{
    private static final RunOptions OPTIONS = RunOptions.builder().url("http://127.0.0.1:8000/v1").rate(4.0)
        .durationS(10.0).build();

    @TempDir
    Path dir;

    /** @return runs whose requests/s (ok over the 10 s window) are {@code rps}. */
    private static List<RunResult> runs(final double... rps)
    {
        return java.util.Arrays.stream(rps).mapToObj(r -> MinimalRuns.of(OPTIONS, Math.round(r * 10),
            Math.round(r * 100))).toList();
    }

    @Test
    void shouldSayNTooSmallToTellWhereTheBootstrapAloneWouldSayDiffers() throws IOException
    {
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8))
        {
            AbReport.write(Path.of("a.yaml"), Path.of("b.yaml"), List.of("A", "B", "B", "A", "A", "B"),
                runs(10.1, 12.3, 11.0), runs(9.2, 9.6, 8.1), dir.resolve("ab.json"), out);
        }
        final String printed = console.toString(StandardCharsets.UTF_8);
        final String line = printed.lines().filter(l -> l.startsWith("requests_per_s")).findFirst().orElseThrow();
        assertTrue(line.contains("n too small to tell"), line);
        assertFalse(line.contains("differs"), line);
        assertTrue(line.contains("[-3.400, -0.933]") && line.contains("[-4.435, 0.102]"), line);
        assertTrue(printed.contains("note: with 3 runs a side the bootstrap interval covers about 82%"), printed);
        final JsonNode f = new ObjectMapper().readTree(dir.resolve("ab.json").toFile()).path("figures")
            .path("requests_per_s");
        assertEquals("n too small to tell", f.path("verdict").asText(), f.toString());
        assertFalse(f.path("exceeds_noise").asBoolean(), f.toString());
        assertEquals(2, f.path("ci95_t").size(), f.toString());
    }

    @Test
    void shouldSayDiffersWhenBothIntervalsExcludeZero() throws IOException
    {
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8))
        {
            AbReport.write(Path.of("a.yaml"), Path.of("b.yaml"), List.of("A", "B"), runs(10.0, 10.1, 10.2, 10.1),
                runs(12.0, 12.1, 12.2, 12.1), dir.resolve("ab.json"), out);
        }
        final String line = console.toString(StandardCharsets.UTF_8).lines()
            .filter(l -> l.startsWith("requests_per_s")).findFirst().orElseThrow();
        assertTrue(line.endsWith("differs"), line);
    }

    @Test
    void shouldSayWhatTheIntervalOfFiveRepetitionsCoversBesideIt() throws IOException
    {
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8))
        {
            Repetitions.write(runs(10.0, 10.5, 11.0, 10.2, 10.8), dir.resolve("repetitions.json"), out);
        }
        final String printed = console.toString(StandardCharsets.UTF_8);
        final String line = printed.lines().filter(l -> l.startsWith("requests_per_s")).findFirst().orElseThrow();
        assertTrue(line.contains("covers ~84%"), line);
        assertTrue(printed.contains("the t interval beside it is the one to quote"), printed);
        final JsonNode f = new ObjectMapper().readTree(dir.resolve("repetitions.json").toFile()).path("figures")
            .path("requests_per_s");
        assertEquals("covers ~84%", f.path("ci95_caveat").asText(), f.toString());
        assertEquals(2, f.path("ci95_t").size(), f.toString());
    }
}
