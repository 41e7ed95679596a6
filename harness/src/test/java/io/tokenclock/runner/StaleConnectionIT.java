package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.FaultKind;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.json.Json;
import io.tokenclock.metrics.Counter;
import io.tokenclock.run.RunResult;
import io.tokenclock.testing.SimServerExtension;
import io.tokenclock.transport.Stamping;
import io.tokenclock.transport.kernel.KernelStamps;

/**
 * A server that closes every connection after its response although the head said keep-alive, as llama.cpp's server
 * does after each stream (the simulator's {@code close_after}): a request sent on such a connection before the client
 * saw the close is sent once more, on a new connection, counted, and never becomes a measured error. Before this, 9 of
 * 30 requests against llama.cpp's server (and here 10-15 of 30) ended {@code stream_cut}. With the close 100 ms late,
 * nearly every reuse sends into the closing connection.
 */
@Timeout(120)
final class StaleConnectionIT
{
    private static final int REQUESTS = 30;

    @RegisterExtension
    final SimServerExtension sim = new SimServerExtension();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} client, close {1} ms after the response")
    @CsvSource({"KERNEL, 100", "USER, 100", "KERNEL, 0", "USER, 0"})
    void shouldResendOnceOnANewConnectionWhenTheServerClosedTheReusedOneUnanswered(
        final Stamping stamping, final double closeDelayMs) throws Exception
    {
        if (stamping == Stamping.KERNEL)
        {
            Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, KernelStamps.unavailableReason());
        }
        final SimServer server = sim.start(new SimConfig().prefillBaseMs(1).prefillPerInputTokenMs(0).decodeBaseMs(1)
            .decodePerSeqMs(0).faultRate(1.0).faultKinds(FaultKind.CLOSE_AFTER).closeDelayMs(closeDelayMs));
        final RunOptionsBuilder o = sim.options(dir).concurrency(1).requests((long)REQUESTS).warmupRequests(0);
        o.stamping(stamping);
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final RunResult r = new BenchmarkRunner().run(o.build(), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertEquals(REQUESTS, r.counts().ok(), r.counts().errorsByClass() + "\n" + err);
        final long resends = r.counts().get(Counter.STALE_CONNECTION_RESENDS);
        final List<JsonNode> lines = new ArrayList<>();
        for (final String line : Files.readAllLines(dir.resolve("requests.jsonl")))
        {
            lines.add(Json.MAPPER.readTree(line));
        }
        assertEquals(resends, lines.stream().mapToLong(l -> l.get("stale_connection_resends").asLong()).sum(),
            "each resend is on its request's line");
        assertTrue(lines.stream().allMatch(l -> l.get("stale_connection_resends").asLong() <= 1), "once at most");
        assertTrue(resends <= REQUESTS - 1, "only a reused connection is resent on: " + resends);
        if (closeDelayMs > 0)
        {
            // Every request the server dropped unanswered was sent again. A resend may also follow a request that came
            // after the close (the kernel's reset, never read by the server): a late client on a loaded machine.
            assertTrue(server.engine().droppedTotal() >= 1, "the reuse raced the close at least once");
            assertTrue(resends >= server.engine().droppedTotal(),
                "resends " + resends + " >= requests the server dropped " + server.engine().droppedTotal());
        }
    }
}
