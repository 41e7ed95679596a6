package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;

/** {@code tokenclock ab} against the simulator: interleaved order, one directory per run, and a verdict per figure. */
@Timeout(120)
final class AbIT
{
    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    private Path contract(final String name, final String url, final int maxTokens) throws Exception
    {
        final Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, """
            target: {url: %s}
            model: {name: m, decoding: {max_tokens: %d, ignore_eos: true}}
            workload: {input_tokens: {dist: fixed, value: 16}}
            load: {mode: closed, concurrency: 2, requests: 12}
            state: {warmup: {requests: 2}}
            """.formatted(url, maxTokens));
        return file;
    }

    @Test
    void shouldInterleaveTheVariantsAndFindADifferenceTheSimulatorMakes() throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(2).jitter(0)))
        {
            final Path a = contract("a", server.baseUrl(), 4);
            final Path b = contract("b", server.baseUrl(), 24);
            final Path out = dir.resolve("out");
            assertEquals(Main.EXIT_OK, Main.execute("ab", a.toString(), b.toString(), "--repetitions", "2",
                "--output-dir", out.toString()), console.err());
            final JsonNode ab = new ObjectMapper().readTree(out.resolve("ab.json").toFile());
            final List<String> order = new ArrayList<>();
            ab.path("order").forEach(n -> order.add(n.asText()));
            assertEquals(List.of("A", "B", "B", "A"), order);
            for (final String run : List.of("A/rep-1", "A/rep-2", "B/rep-1", "B/rep-2"))
            {
                assertTrue(Files.exists(out.resolve(run).resolve("record.json")), run);
            }
            final JsonNode e2e = ab.path("figures").path("e2e_p50_ms");
            assertEquals(2, e2e.path("a").size());
            assertTrue(e2e.path("difference").asDouble() > 20, "20 more tokens at 2 ms each: " + e2e);
            assertTrue(e2e.path("ci95").get(0).asDouble() > 0, e2e.toString());
            assertTrue(e2e.path("exceeds_noise").asBoolean(), e2e.toString());
            assertTrue(console.out().contains("differs"), console.out());
            assertTrue(console.out().contains("exactly one variable changed (M model.decoding)"), console.out());
            final JsonNode index = new ObjectMapper().readTree(out.resolve("index.json").toFile());
            assertEquals("ab", index.path("kind").asText());
            assertEquals("A/rep-1", index.path("members").path(0).path("path").asText());
        }
    }

    @Test
    void shouldRefuseVariantsWithAnotherWarmUpAfterTheirFirstRuns() throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(1).decodeBaseMs(1).jitter(0)))
        {
            final Path a = contract("a", server.baseUrl(), 4);
            final Path b = dir.resolve("b.yaml");
            Files.writeString(b, Files.readString(a).replace("warmup: {requests: 2}", "warmup: {requests: 0}"));
            final Path out = dir.resolve("out");
            assertEquals(Main.EXIT_INCOMPARABLE, Main.execute("ab", a.toString(), b.toString(), "--repetitions", "3",
                "--output-dir", out.toString()), console.err());
            assertTrue(console.err().contains("S load.warmup_requests: 2 -> 0 [warm-up]"), console.err());
            assertTrue(console.err().strip().endsWith("their figures would not measure the same thing"),
                console.err());
            assertFalse(Files.exists(out.resolve("A").resolve("rep-2")), "no run after the first pair");
        }
    }

    @Test
    void shouldReplaceTheRunsOfAnEarlierComparisonOnlyWithForce() throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(1).decodeBaseMs(1).jitter(0)))
        {
            final Path a = contract("a", server.baseUrl(), 2);
            final Path out = dir.resolve("out");
            Files.createDirectories(out.resolve("A").resolve("rep-1"));
            Files.writeString(out.resolve("A").resolve("rep-1").resolve("record.json"), "{}");
            assertEquals(Main.EXIT_USAGE, Main.execute("ab", a.toString(), a.toString(), "--repetitions", "2",
                "--output-dir", out.toString()));
            assertTrue(console.err().contains("--force"), console.err());
            console.resetErr();
            assertEquals(Main.EXIT_OK, Main.execute("ab", a.toString(), a.toString(), "--repetitions", "2",
                "--output-dir", out.toString(), "--force"), console.err());
            assertTrue(Files.readString(out.resolve("A").resolve("rep-1").resolve("record.json")).length() > 2);
        }
    }

    @Test
    void shouldRefuseVariantsJudgedByDifferentQualityRules() throws Exception
    {
        final Path a = contract("a", "http://127.0.0.1:9/v1", 4);
        final Path b = dir.resolve("b.yaml");
        Files.writeString(b, Files.readString(a) + "quality: {slo: {ttft_ms: 500}}\n");
        assertEquals(Main.EXIT_USAGE, Main.execute("ab", a.toString(), b.toString(), "--repetitions", "2"));
        final String err = console.err().strip();
        assertTrue(err.startsWith("tokenclock: the variants must declare the same quality section"), err);
        assertFalse(err.contains("\n"), err);
    }

    @Test
    void shouldRefuseFewerThanTwoRepetitionsWithOneLine() throws Exception
    {
        final Path a = contract("a", "http://127.0.0.1:9/v1", 4);
        assertEquals(Main.EXIT_USAGE, Main.execute("ab", a.toString(), a.toString(), "--repetitions", "1"));
        final String err = console.err().strip();
        assertTrue(err.startsWith("tokenclock: --repetitions must be in [2, 100]"), err);
        assertFalse(err.contains("\n"), err);
    }
}
