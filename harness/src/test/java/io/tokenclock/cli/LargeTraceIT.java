package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.json.Json;

/**
 * A session trace larger than the heap (issue 36: "a trace larger than memory is read streaming: one session's rows
 * at a time"): {@code run} in a child JVM of 128 MiB of heap replays a generated 258 MB AIPerf-style trace of 100,000
 * sessions of 3 turns, 300,000 rows, against the simulator. The whole file is read once to index it (a few bytes a
 * row are kept), and a session's rows are read again only when it opens; the run stops at its 20th request. Read
 * whole, the rows' text alone would be some 400 MB of the child's heap. (A run needs more than 64 MiB whatever its
 * trace: 64 MiB ran out on a 300-row trace too.)
 */
@Tag("slow")
final class LargeTraceIT
{
    private static final int SESSIONS = 100_000;
    private static final int IDS_PER_ROW = 100;

    @TempDir
    Path dir;

    @Test
    void shouldReplayATraceLargerThanTheHeapReadingASessionAtATime() throws Exception
    {
        final Path trace = dir.resolve("trace.jsonl");
        write(trace);
        assertTrue(Files.size(trace) > 250_000_000L, "larger than the child's heap: " + Files.size(trace));
        try (SimServer server = SimServer.start(new SimConfig().outputTokens(2).prefixCacheBlockTokens(1)))
        {
            // block_size 1: each hash id is one token, so that a row of 100 ids is a short prompt
            Files.writeString(dir.resolve("large.yaml"), "name: large-trace\nseed: 1\ntarget:\n  url: " +
                server.baseUrl() + "\nmodel:\n  name: tokenclock-sim\nworkload:\n  dataset: {path: trace.jsonl, " +
                "format: mooncake, block_size: 1}\nload:\n  fixed_schedule: true\n  trace_speedup: 10\n" +
                "  requests: 20\nstate:\n  warmup: {requests: 0}\n");
            final Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                System.getProperty("tokenclock.jvmFlags"), "-Xmx128m", "-jar", Path.of("target", "tokenclock.jar")
                .toString(), "run", "--config", dir.resolve("large.yaml").toString(), "--output-dir",
                dir.resolve("out").toString(), "--no-progress")
                .redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).start();
            assertTrue(p.waitFor(300, TimeUnit.SECONDS), "ended");
            final String out = Files.readString(dir.resolve("out.txt"));
            assertEquals(0, p.exitValue(), out);
            assertFalse(out.contains("OutOfMemoryError"), out);
        }
        final JsonNode report = Json.MAPPER.readTree(dir.resolve("out/record.json").toFile()).path("report");
        assertEquals(20, report.path("counts").path("ok").asLong());
        assertEquals(20, report.path("sessions").path("turns").asLong(), "only what was sent");
        final JsonNode cache = report.path("cache");
        assertTrue(cache.path("ideal_cached_tokens").asLong() > 0, "the sessions share their first blocks: " + cache);
    }

    /**
     * Writes {@link #SESSIONS} sessions, each a first turn at its timestamp and two later turns by their delay; every
     * first turn opens with the same 50 blocks, the rest of the ids its own.
     */
    private static void write(final Path file) throws IOException
    {
        long id = 1_000_000;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            for (int s = 0; s < SESSIONS; s++)
            {
                for (int t = 0; t < 3; t++)
                {
                    final StringBuilder ids = new StringBuilder();
                    for (int b = 0; b < IDS_PER_ROW; b++)
                    {
                        ids.append(b == 0 ? "" : ",").append(t == 0 && b < 50 ? b : id++);
                    }
                    w.write("{\"session_id\":\"session-" + s + "\"," + (t == 0 ? "\"timestamp\":" + s * 10 :
                        "\"delay\":5") + ",\"input_length\":" + IDS_PER_ROW + ",\"output_length\":2,\"hash_ids\":[" +
                        ids + "]}\n");
                }
            }
        }
    }
}
