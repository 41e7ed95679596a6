package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.metrics.Metric;
import io.tokenclock.report.HistogramLogs;

/** {@code record} on every kind of result, and {@code compare}'s refusal, force and compare.json, end to end. */
final class ResultCommandsTest
{
    private static final Path GOLDEN = Path.of("src", "test", "resources", "io", "tokenclock", "report", "golden",
        "full-record.json");
    private static final Path PEERS = Path.of("src", "test", "resources", "io", "tokenclock", "peers");

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    private Path run(final Path at) throws IOException
    {
        Files.createDirectories(at);
        Files.copy(GOLDEN, at.resolve("record.json"));
        return at;
    }

    @Test
    void shouldPrintARunsRecordBlock() throws IOException
    {
        assertEquals(Main.EXIT_OK, Main.execute("record", run(dir.resolve("one")).toString()), console.err());
        assertTrue(console.out().contains("GRADE: "), console.out());
    }

    @Test
    void shouldReprintARepetitionSetsTable() throws IOException
    {
        run(dir.resolve("rep-1"));
        run(dir.resolve("rep-2"));
        Files.writeString(dir.resolve("repetitions.json"), "{\"repetitions\": 2, \"figures\": {\"ttft_p99_ms\": " +
            "{\"values\": [1, 3], \"mean\": 2.0, \"stdev\": 1.4, \"ci95\": [1.0, 3.0], " +
            "\"excluded_repetitions\": []}}}");
        assertEquals(Main.EXIT_OK, Main.execute("record", dir.toString()), console.err());
        assertTrue(console.out().contains("repetitions: " + dir + ", 2 runs"), console.out());
        assertTrue(console.out().contains("ttft_p99_ms"), console.out());
    }

    @Test
    void shouldPrintARepetitionSetsPooledFiguresBesideItsSpread() throws IOException
    {
        for (int k = 1; k <= 2; k++)
        {
            final Path rep = Files.createDirectories(dir.resolve("rep-" + k));
            Files.writeString(rep.resolve("record.json"), Files.readString(GOLDEN)
                .replace("\"partial\" : true", "\"partial\" : false"));
            final Histogram ttft = new Histogram(1, 3_600_000_000_000L, 3);
            for (int i = 1; i <= 100; i++)
            {
                ttft.recordValue(i * 1_000_000L * k); // rep-1: 1..100 ms, rep-2: 2..200 ms
            }
            HistogramLogs.write(rep, Map.of(Metric.TTFT, ttft), 0, 1, "test");
        }
        Files.writeString(dir.resolve("repetitions.json"), "{\"repetitions\": 2, \"figures\": {}}");
        assertEquals(Main.EXIT_OK, Main.execute("record", dir.toString()), console.err());
        final String out = console.out();
        assertTrue(out.contains("pooled (2 of 2 repetitions; partial, left out: none)"), out);
        // 200 values pooled: the 198th is 196 ms (rep-2's 98th), at HdrHistogram's 3 digits.
        assertTrue(Pattern.compile("(?m)^ttft \\(ms\\) +200 +[0-9.]+ +[0-9.]+ +196\\.\\d+ ").matcher(out).find(), out);
        assertTrue(out.indexOf("pooled (") < out.indexOf("run to run"), out);
    }

    @Test
    void shouldReprintAnAbsTable() throws IOException
    {
        run(dir.resolve("A").resolve("rep-1"));
        run(dir.resolve("B").resolve("rep-1"));
        Files.writeString(dir.resolve("ab.json"), "{\"variants\": {\"A\": \"a.yaml\", \"B\": \"b.yaml\"}, \"order\": " +
            "[\"A\", \"B\"], \"figures\": {\"e2e_p50_ms\": {\"mean_a\": 10, \"mean_b\": 30, \"difference\": 20, " +
            "\"relative\": 2.0, \"ci95\": [15, 25], \"exceeds_noise\": true}}}");
        assertEquals(Main.EXIT_OK, Main.execute("record", dir.toString()), console.err());
        assertTrue(console.out().contains("A = a.yaml, B = b.yaml"), console.out());
        assertTrue(console.out().contains("differs"), console.out());
    }

    @Test
    void shouldReprintASweepsTable() throws IOException
    {
        run(dir.resolve("points").resolve("01-rate-2"));
        Files.writeString(dir.resolve("sweep.json"), "{\"format\": \"tokenclock-sweep/1\", \"mode\": \"rates\", " +
            "\"point_duration_s\": 10, \"points\": [{\"offered\": 2, \"achieved_rps\": 1.98, \"ttft_p99_ms\": 41.5, " +
            "\"errors\": 0, \"cancelled\": 0, \"run_dir\": \"points/01-rate-2\"}], \"knee\": {}}");
        assertEquals(Main.EXIT_OK, Main.execute("record", dir.toString()), console.err());
        assertTrue(console.out().contains("41.5"), console.out());
        assertTrue(console.out().contains("1.98"), console.out());
    }

    @Test
    void shouldReprintAndReportAnEmbeddingsSweepOnItsEndToEndWithNoTtftColumn() throws IOException
    {
        run(dir.resolve("points").resolve("01-rate-2"));
        Files.writeString(dir.resolve("sweep.json"), "{\"format\": \"tokenclock-sweep/1\", \"api\": \"embeddings\", " +
            "\"mode\": \"rates\", \"loop\": \"rate\", \"point_duration_s\": 10, \"points\": [{\"offered\": 2, " +
            "\"achieved_rps\": 1.98, \"e2e_p50_ms\": 12.25, \"e2e_p99_ms\": 41.5, \"inputs_per_s\": 7.92, " +
            "\"input_tokens_per_s\": 633.6, \"errors\": 0, \"cancelled\": 0, \"run_dir\": \"points/01-rate-2\"}], " +
            "\"knee\": {\"latency_factor\": {\"metric\": \"e2e_p99_ms\", \"factor\": 2, \"offered\": null}}}");
        assertEquals(Main.EXIT_OK, Main.execute("record", dir.toString()), console.err());
        final String out = console.out();
        assertTrue(out.contains("e2e p99") && out.contains("inputs/s") && out.contains("7.9") &&
            out.contains("633.6") && out.contains("knee (e2e p99 factor): not reached"), out);
        assertFalse(out.contains("ttft") || out.contains("TTFT"), out);

        assertEquals(Main.EXIT_OK, Main.execute("report", dir.toString()), console.err());
        final String page = Files.readString(dir.resolve("report.html"));
        assertTrue(page.contains("End-to-end latency against load") && page.contains("Inputs per second"), page);
        assertFalse(page.contains("TTFT against load"), "no empty TTFT chart");
        assertFalse(page.contains("Pareto: throughput against per-user speed"), "no Pareto plot of output tokens");
    }

    @Test
    void shouldPrintAPeersFiguresBesideTokenclocksRecomputation() throws IOException
    {
        assertEquals(Main.EXIT_OK, Main.execute("record", PEERS.resolve("vllm-save-result.json").toString()),
            console.err());
        assertTrue(console.out().contains("vllm bench serve --save-result"), console.out());
        assertTrue(console.out().contains("298.000"), "vLLM's own p99 TTFT: " + console.out());
    }

    @Test
    void shouldExitTwoWithOneLineForAPeerFileThatIsNotWhatItClaims() throws IOException
    {
        final Path bad = dir.resolve("bad.json");
        Files.writeString(bad, Files.readString(PEERS.resolve("vllm-save-result.json"))
            .replace("\"duration\": 2.0", "\"duration\": \"long\""));
        assertEquals(Main.EXIT_USAGE, Main.execute("record", bad.toString()));
        assertEquals("tokenclock: " + bad + ": field duration: expected a number, got \"long\"",
            console.err().strip());
    }

    @Test
    void shouldRefuseToCompareATokenclockRunWithAVllmResultAndNameWhy() throws IOException
    {
        final Path out = dir.resolve("compare.json");
        assertEquals(Main.EXIT_INCOMPARABLE, Main.execute("compare", run(dir.resolve("one")).toString(),
            PEERS.resolve("vllm-save-result.json").toString(), "--output", out.toString()));
        final String err = console.err().strip();
        assertTrue(err.startsWith("tokenclock: refused: the results differ in timing endpoints"), err);
        assertFalse(err.contains("\n"), err);
        assertTrue(console.out().contains("E measurement.first_token_rule"), console.out());
        final JsonNode c = new ObjectMapper().readTree(out.toFile());
        assertEquals("tokenclock-compare/1", c.path("format").asText());
        assertTrue(c.path("refused").asBoolean());
        assertTrue(c.path("comparisons").path(0).path("figures").isEmpty());
    }

    @Test
    void shouldCompareThemWhenForcedWithTheDifferencesAboveTheTable() throws IOException
    {
        final Path out = dir.resolve("compare.json");
        assertEquals(Main.EXIT_OK, Main.execute("compare", run(dir.resolve("one")).toString(),
            PEERS.resolve("vllm-save-result.json").toString(), "--force", "--output", out.toString()),
            console.err());
        final String text = console.out();
        assertTrue(text.indexOf("FORCED past refusal") < text.indexOf("ttft_p50_ms"), text);
        assertTrue(new ObjectMapper().readTree(out.toFile()).path("forced").asBoolean());
    }

    @Test
    void shouldCompareTwoRunsOfTheSameContract() throws IOException
    {
        assertEquals(Main.EXIT_OK, Main.execute("compare", run(dir.resolve("a")).toString(),
            run(dir.resolve("b")).toString(), "--output", dir.resolve("c.json").toString()), console.err());
        assertTrue(console.out().contains("contract: the same contract"), console.out());
    }
}
