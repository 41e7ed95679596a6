package io.tokenclock.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.tokenclock.cli.Main;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;

/**
 * Contract files end to end: every shipped example runs against the simulated server (shortened by flags, which is
 * also what proves that flags override single fields), the record carries the contract and the grade, and the same
 * contract and seed reproduce the workload byte for byte.
 */
@Timeout(180)
final class ContractRunIT
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static SimServer server;

    @TempDir
    Path dir;

    @BeforeAll
    static void start()
    {
        server = SimServer.start(new SimConfig().prefillBaseMs(2).prefillPerInputTokenMs(0.001).decodeBaseMs(1)
            .decodePerSeqMs(0.01).batchSlots(64));
    }

    @AfterAll
    static void stop()
    {
        server.close();
    }

    static Stream<Path> examples() throws IOException
    {
        return Files.list(Path.of("../examples")).filter(p -> p.toString().endsWith(".yaml")).sorted();
    }

    private int run(final Path out, final String... extra)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--url", server.baseUrl(), "--output-dir",
            out.toString(), "--no-progress"));
        args.addAll(List.of(extra));
        final PrintStream savedOut = System.out;
        System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try
        {
            return Main.execute(args.toArray(String[]::new));
        }
        finally
        {
            System.setOut(savedOut);
        }
    }

    private static JsonNode record(final Path out) throws IOException
    {
        return JSON.readTree(out.resolve("record.json").toFile());
    }

    @ParameterizedTest
    @MethodSource("examples")
    void shouldRunEveryExampleAgainstTheSimulator(final Path example) throws IOException
    {
        final Path out = dir.resolve(example.getFileName().toString());
        assertEquals(Main.EXIT_OK, run(out, "--config", example.toString(), "--requests", "6", "--duration", "3",
            "--warmup-requests", "1", "--repetitions", "1"), example.toString());
        final JsonNode r = record(out);
        assertEquals(example.toString(), r.path("contract").path("file").asText());
        assertTrue(r.path("contract").path("declared").isObject());
        assertTrue(r.path("report").path("counts").path("ok").asLong() >= 1);
        assertEquals(0, r.path("workload").path("prompt_token_residuals").asLong(), "prompts have exact lengths");
        // Every section is declared; what one short run of an example still lacks for a comparison claim is
        // repetitions (one run here), for the examples that measure speed alone a quality rule, and for the one
        // whose power comes from the shipped synthetic meter file, measured power.
        assertEquals("local-debugging", r.path("grade").path("grade").asText());
        final boolean syntheticPower = r.path("report").path("energy").path("synthetic").size() > 0;
        for (final JsonNode missing : r.path("grade").path("missing"))
        {
            assertTrue(missing.asText().startsWith("report.repetitions:") ||
                missing.asText().startsWith("report.quality.rule:") ||
                syntheticPower && missing.asText().startsWith("report.energy: the power readings are synthetic"),
                example + " lacks " + missing);
        }
        assertEquals((r.path("report").path("quality").isObject() ? 1 : 2) + (syntheticPower ? 1 : 0),
            r.path("grade").path("missing").size(), example + ": " + r.path("grade").path("missing"));
        assertEquals(example.endsWith("task-economics.yaml"), syntheticPower, "only its meter file is synthetic");
    }

    @Test
    void shouldRecordTheScenarioAndTheRequestCountItSizedForItsPercentile() throws IOException
    {
        final Path contract = dir.resolve("single-stream.yaml");
        Files.writeString(contract, """
            target: {url: http://127.0.0.1:1/v1}
            load: {scenario: single-stream}
            """);
        final Path out = dir.resolve("single-stream");

        assertEquals(Main.EXIT_OK, run(out, "--config", contract.toString(), "--max-tokens", "4"));

        final JsonNode load = record(out).path("load");
        assertEquals("single-stream", load.path("scenario").asText());
        assertEquals("p90", load.path("min_samples_for").asText());
        assertEquals(36, load.path("requests").asLong(), "the fewest requests that bound a p90 at 95%");
        assertEquals(1, load.path("concurrency").asInt());
        assertEquals(36, record(out).path("report").path("counts").path("ok").asLong());
    }

    @Test
    void shouldReproduceTheWorkloadAndScheduleForTheSameSeed() throws IOException
    {
        final String contract = "../examples/chat-slo.yaml";
        final Path a = dir.resolve("a");
        final Path b = dir.resolve("b");
        final Path c = dir.resolve("c");
        assertEquals(Main.EXIT_OK, run(a, "--config", contract, "--requests", "12", "--rate", "50"));
        assertEquals(Main.EXIT_OK, run(b, "--config", contract, "--requests", "12", "--rate", "50"));
        assertEquals(Main.EXIT_OK, run(c, "--config", contract, "--requests", "12", "--rate", "50", "--seed", "43"));
        final JsonNode ra = record(a);
        final JsonNode rb = record(b);
        final JsonNode rc = record(c);
        assertNotNull(ra.path("workload").path("hash").textValue());
        assertEquals(20, ra.path("workload").path("hash_requests").asLong(), "8 warmup + 12 measured");
        assertEquals(ra.path("workload").path("hash"), rb.path("workload").path("hash"));
        assertEquals(ra.path("load").path("schedule_hash"), rb.path("load").path("schedule_hash"));
        assertNotEquals(ra.path("workload").path("hash"), rc.path("workload").path("hash"));
        assertNotEquals(ra.path("load").path("schedule_hash"), rc.path("load").path("schedule_hash"));
    }

    @Test
    void shouldReplayARecordedRunAndCatchATamperedHash() throws IOException
    {
        final Path a = dir.resolve("recorded");
        assertEquals(Main.EXIT_OK, run(a, "--config", "../examples/chat-slo.yaml", "--requests", "10", "--rate", "40"));
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final PrintStream savedOut = System.out;
        System.setOut(new PrintStream(text, true, StandardCharsets.UTF_8));
        try
        {
            assertEquals(Main.EXIT_OK, Main.execute("replay", a.toString(), "--url", server.baseUrl()));
            final String said = text.toString(StandardCharsets.UTF_8);
            assertTrue(said.contains("workload  identical over 18 requests"), said);
            assertTrue(said.contains("schedule  identical over 18 requests"), said);
            assertEquals(record(a).path("workload").path("hash"), record(a.resolve("replay")).path("workload")
                .path("hash"), "the re-run sent the same bytes");

            final Path recordFile = a.resolve("record.json");
            Files.writeString(recordFile, Files.readString(recordFile).replace(
                record(a).path("workload").path("hash").asText(), "0".repeat(64)));
            assertEquals(Main.EXIT_FAILED, Main.execute("replay", a.toString(), "--check-only"));
            assertTrue(text.toString(StandardCharsets.UTF_8).contains("workload  DIFFERENT"));
        }
        finally
        {
            System.setOut(savedOut);
        }
    }

    @Test
    void shouldReplayATraceOnItsOwnTimestamps() throws IOException
    {
        final Path out = dir.resolve("trace");
        final Path trace = Path.of("../examples/data/mini-mooncake-trace.jsonl");
        assertEquals(Main.EXIT_OK, run(out, "--dataset", trace.toString(), "--dataset-format", "mooncake",
            "--fixed-schedule", "--requests", "8", "--tokenizer", "words"));
        final List<String> traceLines = Files.readAllLines(trace);
        final long t0 = JSON.readTree(traceLines.get(0)).get("timestamp").asLong();
        final List<JsonNode> lines = new ArrayList<>();
        for (final String line : Files.readAllLines(out.resolve("requests.jsonl")))
        {
            lines.add(JSON.readTree(line));
        }
        lines.sort(Comparator.comparingLong(l -> l.get("id").asLong()));
        assertEquals(8, lines.size());
        final long s0 = lines.get(0).get("scheduled_ns").asLong();
        for (int i = 0; i < lines.size(); i++)
        {
            final long expected = (JSON.readTree(traceLines.get(i)).get("timestamp").asLong() - t0) * 1_000_000L;
            assertEquals(expected, lines.get(i).get("scheduled_ns").asLong() - s0, "request " + i);
            assertEquals(JSON.readTree(traceLines.get(i)).get("input_length").asLong(),
                lines.get(i).get("input_tokens").asLong(), "the simulator counts words: exact under 'words'");
        }
    }

    @Test
    void shouldReportEverySegmentOnItsOwn() throws IOException
    {
        final Path out = dir.resolve("segments");
        assertEquals(Main.EXIT_OK, run(out, "--config", "../examples/mixed-segments.yaml", "--requests", "40",
            "--rate", "80", "--arrival", "poisson", "--burstiness", "1"));
        final JsonNode segments = record(out).path("report").path("segments");
        final long chat = segments.path("chat").path("ok").asLong() + segments.path("chat").path("cancelled").asLong();
        final long extract = segments.path("extract").path("ok").asLong() +
            segments.path("extract").path("cancelled").asLong();
        assertEquals(40, chat + extract, segments.toString());
        assertTrue(chat > extract && extract > 0, "weights 0.7 / 0.3: " + chat + " / " + extract);
        assertTrue(segments.path("extract").path("distributions").path("ttft").path("count").asLong() > 0);
    }

    @Test
    void shouldGradeAFlagsOnlyRunLocalDebuggingAndSayWhy() throws IOException
    {
        final Path out = dir.resolve("flags");
        assertEquals(Main.EXIT_OK, run(out, "--concurrency", "2", "--requests", "4", "--max-tokens", "8"));
        final JsonNode grade = record(out).path("grade");
        assertEquals("local-debugging", grade.path("grade").asText());
        assertTrue(grade.path("missing").toString().contains("runtime.declared"), grade.toString());
    }

    @Test
    void shouldPrintTheRecordBlock() throws IOException
    {
        final Path out = dir.resolve("block");
        assertEquals(Main.EXIT_OK, run(out, "--config", "../examples/arithmetic-quality.yaml", "--requests", "4",
            "--concurrency", "2", "--warmup-requests", "0", "--repetitions", "2"));
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final PrintStream savedOut = System.out;
        System.setOut(new PrintStream(text, true, StandardCharsets.UTF_8));
        try
        {
            assertEquals(Main.EXIT_OK, Main.execute("record", out.resolve("rep-1").toString()));
        }
        finally
        {
            System.setOut(savedOut);
        }
        final String block = text.toString(StandardCharsets.UTF_8);
        for (final String section : List.of("MODEL", "RUNTIME", "HARDWARE", "WORKLOAD", "LOAD", "MEASUREMENT",
            "REPORT", "GOODPUT", "QUALITY", "GRADE: comparison-grade"))
        {
            assertTrue(block.contains(section), section + " in\n" + block);
        }
    }

    @Test
    void shouldRejectABadContractAtTheCommandLine() throws IOException
    {
        final Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "target: {url: http://127.0.0.1:1/v1}\nload: {mode: open, rate: -1}\n");
        final PrintStream savedErr = System.err;
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try
        {
            assertEquals(Main.EXIT_USAGE, Main.execute("validate", bad.toString()));
            assertEquals(Main.EXIT_USAGE, Main.execute("run", "--config", bad.toString()));
        }
        finally
        {
            System.setErr(savedErr);
        }
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("load.rate: must be > 0, got -1"));
    }
}
