package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.testing.SimServerExtension;

/** The harness is ready before t0: warmed on its own loopback stream, connections open, and the record says so. */
@Timeout(120)
@Tag("slow") // runs the self-warm-up, seconds per run: skipped by -Pfast
final class ReadinessIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @RegisterExtension
    final SimServerExtension sim = new SimServerExtension();

    @Test
    void shouldWarmItselfAndOpenEveryConnectionBeforeTheFirstRequest() throws Exception
    {
        final RunOptionsBuilder o = RunOptions.builder();
        final SimServer server = sim.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(1));
        o.url(server.baseUrl());
        o.outputDir(dir);
        o.progress(false);
        o.concurrency(4);
        o.requests(12L);
        o.maxTokens(8);
        o.ignoreEos(true); // copied into the warm-up: its long streams are then exactly as long as the phase says
        o.selfWarmup(true);
        o.busyPoll(true);
        final RunOptions options = o.build();
        new BenchmarkRunner().run(options, new PrintStream(new ByteArrayOutputStream()));
        final JsonNode m = JSON.readTree(dir.resolve("record.json").toFile()).path("measurement");
        final JsonNode ready = m.path("readiness");
        final int[] longPhase = Readiness.longPhase(options);
        final long perRound = Readiness.WARMUP_SHORT_REQUESTS + longPhase[0];
        // At least MIN_ROUNDS rounds, unless the time cap ended it first (a loaded machine: under stress-ng --cpu 2
        // one round took 12 s), which holds inside a round too: then it rehearsed, but maybe not a whole round.
        final boolean capped = ready.path("self_warmup_s").asDouble() * 1e9 >= Readiness.MAX_WARMUP_NS;
        if (!capped)
        {
            assertTrue(ready.path("self_warmup_requests").asLong() >= Readiness.MIN_ROUNDS * perRound +
                Readiness.settleSweepRequests(), "the rounds and at least one settling sweep: " + ready);
            assertTrue(ready.path("self_warmup_chunks").asLong() > Readiness.MIN_ROUNDS * longPhase[0] * longPhase[1],
                ready.toString());
        }
        assertTrue(ready.path("self_warmup_chunks").asLong() > ready.path("self_warmup_requests").asLong(),
            "it rehearsed: " + ready);
        assertEquals(4, ready.path("preconnected").asInt(), ready.toString());
        final JsonNode jit = m.path("client_jit");
        assertTrue(jit.path("compilation_ms_in_window").isIntegralNumber(), "the window opened: " + jit);
        assertTrue(jit.path("compilation_ms_in_window").asLong() <= jit.path("compilation_ms_during_load").asLong(),
            "the window is inside the load: " + jit);
        assertTrue(m.path("transport").asText().contains("busy-poll"), m.path("transport").asText());
        assertTrue(ready.path("compiler_drain_ms").asDouble() * 1e6 >= Readiness.LAST_DRAIN_QUIET_NS,
            "the last drain waited at least for its quiet period: " + ready);
        if (Files.isExecutable(Path.of("/usr/bin/chrt")))
        {
            assertTrue(ready.path("compiler_threads_idle").asInt() >= 1, "after the warm-up the JIT threads are " +
                "moved to the idle class: " + ready);
        }
        final String stagePriority = m.path("client_threads").path("request_stage_priority").asText();
        assertTrue(List.of(BackgroundPriority.IDLE, BackgroundPriority.NICE, BackgroundPriority.NORMAL)
            .contains(stagePriority), "the request stage's priority is recorded: " + stagePriority);
        for (final String line : Files.readAllLines(dir.resolve("requests.jsonl")))
        {
            assertEquals("false", JSON.readTree(line).path("new_connection").asText(),
                "every request found a connection opened before t0: " + line);
        }
    }
}
