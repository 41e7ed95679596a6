package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.tokenclock.api.Api;
import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.transport.kernel.KernelStamps;
import io.tokenclock.transport.kernel.LinuxNet;

/**
 * The kernel-stamped client end to end against the simulator on loopback: requests complete with every chunk, the
 * shared policy classes its failures, and a socket without timestamps falls back to user stamps, says so once and
 * counts it. Behaviour only.
 */
@Timeout(60)
final class KernelStreamClientIT
{
    private static final int TOKENS = 12;

    @BeforeAll
    static void linuxOnly()
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, "kernel stamps: " +
            KernelStamps.unavailableReason());
    }

    private static ClientSettings settings(final String url, final RequestLimits limits)
    {
        return new ClientSettings(Endpoint.parse(url, Api.CHAT), SystemNanoClock.INSTANCE,
            new ChunkRecords(1 << 20), Map.of(), 4, 1, limits, false, TlsTrust.DEFAULT, Stamping.KERNEL, null);
    }

    private static RequestSlot slot(final int index)
    {
        final RequestSlot slot = new RequestSlot(index);
        slot.body = ("{\"model\":\"m\",\"stream\":true,\"max_tokens\":" + TOKENS + ",\"ignore_eos\":true," +
            "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").getBytes(StandardCharsets.UTF_8);
        slot.bodyLength = slot.body.length;
        return slot;
    }

    /** Reads the ring until {@code ends} end records came (bounded); @return chunk records per slot index. */
    private static int[] drain(final ChunkRecords records, final int slots, final int ends) throws Exception
    {
        final int[] chunks = new int[slots];
        final int[] seen = new int[1];
        for (int i = 0; i < 2_000 && seen[0] < ends; i++)
        {
            records.ring().read((type, buffer, index, length) ->
            {
                if (type == ChunkRecords.MSG_END)
                {
                    seen[0]++;
                }
                else
                {
                    chunks[buffer.getInt(index + ChunkRecords.SLOT_OFFSET)]++;
                }
            });
            Thread.sleep(5);
        }
        assertEquals(ends, seen[0], "every request ended");
        return chunks;
    }

    @Test
    void shouldCompleteRequestsWithKernelStampsAndReuseTheConnection() throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(5).decodeBaseMs(3).jitter(0)))
        {
            final ClientSettings s = settings(server.baseUrl(), RequestLimits.DEFAULT);
            final List<String> notes = new CopyOnWriteArrayList<>();
            try (StreamClient client = StreamClients.open(s, notes::add))
            {
                assertTrue(client.transport().startsWith("recvmsg"), client.transport());
                assertEquals(1, client.preconnect(1, 5_000));
                final List<RequestSlot> slots = new ArrayList<>();
                for (int round = 0; round < 3; round++)
                {
                    final RequestSlot slot = slot(round);
                    slots.add(slot);
                    client.submit(slot);
                    drain(s.records(), 3, 1);
                }
                for (final RequestSlot slot : slots)
                {
                    assertEquals(ErrorClass.NONE, slot.errorClass, slot.errorDetail);
                    assertEquals(200, slot.httpStatus);
                    assertTrue(slot.endNs > slot.sentNs);
                    assertEquals(slots.get(0).connectionId, slot.connectionId, "one kept-alive connection");
                }
                final StampingReport stamping = client.stamping();
                assertEquals("kernel", stamping.mode());
                assertTrue(stamping.reads() >= 3, "reads counted: " + stamping);
                // Not zero: against this simulator about one read per request came without a control message
                // (3 of ~50 here, not explained yet); those take the user stamp and are counted, which is the point.
                assertTrue(stamping.fallbackReads() * 4 < stamping.reads(), "most reads kernel-stamped: " + stamping);
                assertNotNull(stamping.receiveDelay());
                assertEquals(stamping.reads() - stamping.fallbackReads(), stamping.receiveDelay().count(),
                    "a receive delay for every kernel-stamped read");
                assertEquals(stamping.fallbackReads() > 0 ? 1 : 0, notes.size(), "one line at the first fallback");
                assertTrue(stamping.offsetMaxNs() >= stamping.offsetMinNs() && stamping.offsetMinNs() > 0);
            }
        }
    }

    @Test
    void shouldStampEachRequestsSendBetweenItsUserSendStampAndItsResponsesFirstRead() throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(1).jitter(0)))
        {
            final ClientSettings s = settings(server.baseUrl(), RequestLimits.DEFAULT);
            try (StreamClient client = StreamClients.open(s, line -> {}))
            {
                final List<RequestSlot> slots = new ArrayList<>();
                for (int round = 0; round < 8; round++)
                {
                    // one kept-alive connection: each request's stamp must be its own, not the one before's
                    final RequestSlot slot = slot(round);
                    slots.add(slot);
                    client.submit(slot);
                    drain(s.records(), 8, 1);
                }
                for (final RequestSlot slot : slots)
                {
                    assertEquals(ErrorClass.NONE, slot.errorClass, slot.errorDetail);
                    assertTrue(slot.sentKernelNs > 0, "a send stamp");
                    assertTrue(slot.sentNs <= slot.sentKernelNs, "not before the user send stamp, taken before the " +
                        "write: " + slot.sentNs + " > " + slot.sentKernelNs);
                    assertTrue(slot.sentKernelNs <= slot.headersNs, "not after the response's first read: " +
                        slot.sentKernelNs + " > " + slot.headersNs);
                }
                final StampingReport.SendDelay send = client.stamping().sendDelay();
                assertEquals(8, send.requests(), send.toString());
                assertEquals(0, send.unstamped() + send.beforeUserSend() + send.socketsRefused(), send.toString());
                assertTrue(send.maxNs() >= send.p50Ns() && send.p50Ns() > 0, send.toString());
            }
        }
    }

    @Test
    void shouldRunOnWithTheUserSendStampWhenTheKernelRefusesSendStamps() throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(1).decodeBaseMs(1).jitter(0)))
        {
            final ClientSettings s = settings(server.baseUrl(), RequestLimits.DEFAULT);
            final List<String> notes = new CopyOnWriteArrayList<>();
            // a flag bit the kernel does not know: it refuses the whole option (EINVAL), as an older kernel would
            try (KernelStreamClient client = new KernelStreamClient(s, notes::add, true, true,
                LinuxNet.TX_STAMP_FLAGS | 1 << 30))
            {
                final RequestSlot first = slot(0);
                final RequestSlot second = slot(1);
                client.submit(first);
                client.submit(second);
                final int[] chunks = drain(s.records(), 2, 2);
                assertTrue(chunks[0] >= TOKENS && chunks[1] >= TOKENS, "the run goes on");
                assertEquals(ErrorClass.NONE, first.errorClass, first.errorDetail);
                assertEquals(0, first.sentKernelNs + second.sentKernelNs, "no send stamp");
                assertTrue(first.sentNs > 0 && second.sentNs > 0, "the user send stamps");
                final StampingReport stamping = client.stamping();
                assertEquals("kernel", stamping.mode(), "receive stamps stay on: " + stamping);
                assertTrue(stamping.sendDelay().socketsRefused() >= 1, stamping.sendDelay().toString());
                assertEquals(0, stamping.sendDelay().requests() + stamping.sendDelay().unstamped());
                final List<String> refused = notes.stream().filter(n -> n.contains("refused send stamps")).toList();
                assertEquals(1, refused.size(), "one line: " + notes);
            }
        }
    }

    @Test
    void shouldFallBackToUserStampsOnASocketWithoutTimestampsSayItOnceAndRecordUser() throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(1).decodeBaseMs(2).jitter(0)))
        {
            final ClientSettings s = settings(server.baseUrl(), RequestLimits.DEFAULT);
            final List<String> notes = new CopyOnWriteArrayList<>();
            try (KernelStreamClient client = new KernelStreamClient(s, notes::add, false))
            {
                client.submit(slot(0));
                client.submit(slot(1));
                final int[] chunks = drain(s.records(), 2, 2);
                assertTrue(chunks[0] >= TOKENS && chunks[1] >= TOKENS, "chunks recorded with user stamps");
                final StampingReport stamping = client.stamping();
                assertEquals("user", stamping.mode());
                assertTrue(stamping.reads() > 0);
                assertEquals(stamping.reads(), stamping.fallbackReads(), "every read fell back, and was counted");
                assertEquals(1, notes.size(), "one line: " + notes);
                assertTrue(notes.get(0).contains("no SCM_TIMESTAMPING"), notes.get(0));
            }
        }
    }

    @Test
    void shouldClassARefusedConnectionAndAnIdleTimeoutThroughTheSharedPolicy() throws Exception
    {
        final int closedPort;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
        {
            closedPort = probe.getLocalPort();
        }
        final ClientSettings refused = settings("http://127.0.0.1:" + closedPort + "/v1", RequestLimits.DEFAULT);
        try (StreamClient client = StreamClients.open(refused, line -> {}))
        {
            final RequestSlot slot = slot(0);
            client.submit(slot);
            drain(refused.records(), 1, 1);
            assertEquals(ErrorClass.CONNECT, slot.errorClass, slot.errorDetail);
        }
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(3_000).decodeBaseMs(1).jitter(0)))
        {
            // the simulator sends its head at once, then nothing for 3 s: the idle limit counts from that first read
            final ClientSettings slow = settings(server.baseUrl(), RequestLimits.of(10, 0, 0.2, 600, 1 << 20,
                16 << 20, 0));
            try (StreamClient client = StreamClients.open(slow, line -> {}))
            {
                final RequestSlot slot = slot(0);
                client.submit(slot);
                drain(slow.records(), 1, 1);
                assertEquals(ErrorClass.TIMEOUT_IDLE, slot.errorClass, slot.errorDetail);
            }
        }
    }

    /**
     * The loop looks at its connections' limits only once the earliest it knows of has passed: a limit armed after
     * that (a request's first-byte limit, its cancellation rule, both far earlier than the connect limit the loop
     * knew of when it opened the connection) must lower it, or it would fire only with the connect limit, 30 s on.
     */
    @Test
    void shouldFireAFirstByteLimitAndACancellationRuleArmedAfterTheConnectLimitOnTime() throws Exception
    {
        final List<java.net.Socket> accepted = new CopyOnWriteArrayList<>();
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 8, java.net.InetAddress.getLoopbackAddress()))
        {
            Thread.ofVirtual().start(() -> acceptSilently(silent, accepted));
            final String url = "http://127.0.0.1:" + silent.getLocalPort() + "/v1";
            assertEquals(ErrorClass.TIMEOUT_FIRST_BYTE, endOfOneRequest(url, RequestLimits.of(30, 0.3, 0, 600,
                1 << 20, 16 << 20, 0), 0));
            assertEquals(ErrorClass.CANCEL_RULE, endOfOneRequest(url, RequestLimits.of(30, 0, 0, 600, 1 << 20,
                16 << 20, 0), 300_000_000L));
        }
        finally
        {
            for (final java.net.Socket socket : accepted)
            {
                socket.close();
            }
        }
    }

    /** @return how one request to {@code url} ended, asserting that it ended within 5 s (its limits: 0.3 s). */
    private static ErrorClass endOfOneRequest(final String url, final RequestLimits limits, final long cancelAfterNs)
        throws Exception
    {
        final ClientSettings settings = settings(url, limits);
        try (StreamClient client = StreamClients.open(settings, line -> {}))
        {
            final RequestSlot slot = slot(0);
            slot.cancelAfterNs = cancelAfterNs;
            final long startNs = System.nanoTime();
            client.submit(slot);
            drain(settings.records(), 1, 1);
            final long tookMs = (System.nanoTime() - startNs) / 1_000_000;
            assertTrue(tookMs < 5_000, "a 0.3 s limit ended the request after " + tookMs + " ms: " + slot.errorDetail);
            return slot.errorClass;
        }
    }

    private static void acceptSilently(final java.net.ServerSocket server, final List<java.net.Socket> accepted)
    {
        try
        {
            while (!server.isClosed())
            {
                accepted.add(server.accept());
            }
        }
        catch (final java.io.IOException closed)
        {
            // the test closed the server: done
        }
    }
}
