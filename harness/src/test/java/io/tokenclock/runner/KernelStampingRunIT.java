package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.metrics.Metric;
import io.tokenclock.run.RunResult;
import io.tokenclock.testing.ScriptedSseServer;
import io.tokenclock.transport.Stamping;
import io.tokenclock.transport.kernel.KernelStamps;

/** A whole run with {@code --stamping kernel}: the same figures, and record.json says how the reads were stamped. */
@Timeout(120)
final class KernelStampingRunIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private RunOptionsBuilder options(final SimServer server, final Stamping stamping)
    {
        final RunOptionsBuilder o = RunOptions.builder();
        o.url(server.baseUrl());
        o.outputDir(dir);
        o.progress(false);
        o.maxTokens(20);
        o.ignoreEos(true);
        o.inputTokens(16);
        o.concurrency(2);
        o.requests(6L);
        o.warmupRequests(1);
        o.stamping(stamping);
        return o;
    }

    @Test
    void shouldMeasureTheSameRunWithKernelStampsAndRecordThem() throws Exception
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, KernelStamps.unavailableReason());
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(20).prefillPerInputTokenMs(0)
            .decodeBaseMs(5).decodePerSeqMs(0).jitter(0).roleChunk(true).tokensPerChunk(1)))
        {
            final ByteArrayOutputStream err = new ByteArrayOutputStream();
            final RunResult r = new BenchmarkRunner().run(options(server, Stamping.KERNEL).build(),
                new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(6, r.counts().ok(), err.toString(StandardCharsets.UTF_8));
            assertEquals(6 * 19, r.distributions().get(Metric.INTER_CHUNK_LATENCY).count(), "nothing lost");
            assertTrue(r.distributions().get(Metric.TTFT).min() >= 20.0, "TTFT not before the 20 ms prefill");
            final JsonNode record = JSON.readTree(dir.resolve("record.json").toFile());
            final JsonNode stamping = record.path("measurement").path("stamping");
            assertEquals("kernel", stamping.path("mode").asText(), stamping.toString());
            assertTrue(stamping.path("fallback_reads").asLong() * 4 < stamping.path("reads").asLong(),
                "most reads kernel-stamped: " + stamping);
            assertTrue(stamping.path("reads").asLong() >= 6 * 20, stamping.toString());
            assertTrue(record.path("measurement").path("transport").asText().contains("recvmsg"));
            assertEquals(10_000, record.path("measurement").path("client_jitter").path("interval_us").asLong(),
                "kernel stamps: the hiccup monitor wakes every 10 ms");
            final JsonNode delay = record.path("report").path("client_receive_delay");
            assertFalse(delay.isNull() || delay.isMissingNode(), record.path("report").toString());
            assertTrue(delay.path("p50").asDouble() >= 0);
            assertTrue(delay.path("max").asDouble() >= delay.path("p99").asDouble());
            final JsonNode send = record.path("report").path("client_send_delay");
            assertTrue(send.path("requests").asLong() >= 6, "a send stamp per request: " + send);
            assertTrue(send.path("max").asDouble() >= send.path("p50").asDouble() && send.path("p50").asDouble() > 0);
            for (final String line : Files.readAllLines(dir.resolve("requests.jsonl")))
            {
                final JsonNode request = JSON.readTree(line);
                final long sent = request.path("sent_ns").asLong();
                final long kernel = request.path("sent_kernel_ns").asLong();
                assertTrue(sent <= kernel && kernel <= request.path("headers_ns").asLong(), line);
            }
        }
    }

    @Test
    void shouldCountTheReadsThatShareOneSegmentsStamp() throws Exception
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, KernelStamps.unavailableReason());
        final StringBuilder events = new StringBuilder();
        for (int i = 0; i < 12; i++)
        {
            events.append("data: {\"choices\":[{\"delta\":{\"content\":\"t\"}}]}\n\n");
        }
        events.append("data: [DONE]\n\n");
        try (ScriptedSseServer server = new ScriptedSseServer())
        {
            // Every event in one write, so in one segment: the client reads them one event at a time (a backlog),
            // and every read after the first takes the same kernel stamp, the segment's.
            server.on("/v1/chat/completions", x -> ScriptedSseServer.stream(x, events.toString())).start();
            final RunOptionsBuilder o = RunOptions.builder();
            o.url(server.apiUrl());
            o.model("m");
            o.outputDir(dir);
            o.progress(false);
            o.preflight(false);
            o.selfWarmup(false);
            o.concurrency(1);
            o.requests(1L);
            o.stamping(Stamping.KERNEL);
            new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));
            final JsonNode stamping = JSON.readTree(dir.resolve("record.json").toFile()).path("measurement")
                .path("stamping");
            assertTrue(stamping.path("shared_stamp_reads").asLong() >= 8, "the events of one segment share its " +
                "stamp: " + stamping);
            assertTrue(stamping.path("shared_stamp_reads").asLong() < stamping.path("reads").asLong(),
                "the first read of the segment is its own: " + stamping);
        }
    }

    @Test
    void shouldRecordUserStampingByDefault() throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(5).decodeBaseMs(2).jitter(0)))
        {
            new BenchmarkRunner().run(options(server, Stamping.USER).build(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            final JsonNode record = JSON.readTree(dir.resolve("record.json").toFile());
            assertEquals("user", record.path("measurement").path("stamping").path("mode").asText());
            assertEquals(1_000, record.path("measurement").path("client_jitter").path("interval_us").asLong(),
                "user stamps: the hiccup monitor wakes every millisecond, as jHiccup does");
            assertTrue(record.path("report").path("client_receive_delay").isNull());
            assertTrue(record.path("report").path("client_send_delay").isNull());
            assertFalse(Files.readString(dir.resolve("requests.jsonl")).contains("sent_kernel_ns"));
        }
    }
}
