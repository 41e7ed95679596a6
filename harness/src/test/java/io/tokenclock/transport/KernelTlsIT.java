package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLEngine;

import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.api.Api;
import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.testing.StampingStall;
import io.tokenclock.transport.kernel.ClockBridge;
import io.tokenclock.transport.kernel.ControlMessages;
import io.tokenclock.transport.kernel.KernelStamps;
import io.tokenclock.transport.kernel.LinuxNet;
import io.tokenclock.transport.kernel.PacketTap;
import io.tokenclock.transport.kernel.StampedSocket;

/**
 * TLS on the kernel-stamped read path, against an https server on loopback whose chunks carry their send stamps
 * ({@link TlsSseServer}). End to end: requests complete over one kept-alive TLS connection with kernel stamps, each
 * chunk's stamp after its send; an untrusted certificate and a host name that does not match are refused with exactly
 * the class and line that Netty's client gives, and {@code --insecure} accepts both. Read by hand on the test thread
 * (the stamping thread): each read completes at most one record, the plaintext comes only from the read that ends
 * its record, the stamps lie between send and user stamp, and through a 50 ms stall each queued record keeps its own
 * arrival. Order only, never speed.
 */
@Timeout(90)
final class KernelTlsIT
{
    private static final Pattern SENT = Pattern.compile("\"tc_sent_ns\":(\\d+)");
    /** The conversion's own uncertainty (KernelStampsIT's): half the realtime readings' gap, and NTP slew. */
    private static final long CONVERSION_SLACK_NS = 2_000;
    private static final int TOKENS = 30;
    private static final double ITL_MS = 4;

    @TempDir
    static Path dir;

    private static TlsSseServer server;

    /**
     * One read by hand: its stamps, what it decrypted, and whether it ended a record; with a packet tap, the tap's
     * stamp of the segment that carried its last byte of ciphertext ({@code tapRaw}, or a negative {@code TapFlows}
     * code; {@code tapNs} converted).
     */
    private record Read(long kernelNs, long userNs, long rawStamp, List<Long> sentNs, int records, boolean backlog,
        boolean atBoundary, long tapRaw, long tapNs)
    {
    }

    @BeforeAll
    static void start() throws Exception
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, "kernel stamps: " +
            KernelStamps.unavailableReason());
        server = TlsSseServer.start(Files.createDirectories(dir.resolve("good")), "ip:127.0.0.1,dns:localhost",
            TOKENS, ITL_MS);
    }

    @AfterAll
    static void stop() throws Exception
    {
        if (server != null)
        {
            server.close();
        }
    }

    private static ClientSettings settings(final String url, final TlsTrust trust, final Stamping stamping)
    {
        return new ClientSettings(Endpoint.parse(url, Api.CHAT), SystemNanoClock.INSTANCE,
            new ChunkRecords(1 << 20), Map.of(), 4, 1, RequestLimits.DEFAULT, false, trust, stamping, null);
    }

    private static RequestSlot slot(final int index)
    {
        final RequestSlot slot = new RequestSlot(index);
        slot.body = ("{\"model\":\"m\",\"stream\":true,\"max_tokens\":" + TOKENS + ",\"messages\":[{\"role\":" +
            "\"user\",\"content\":\"hi\"}]}").getBytes(StandardCharsets.UTF_8);
        slot.bodyLength = slot.body.length;
        return slot;
    }

    /** Reads the ring until {@code ends} end records came (bounded); @return each slot's chunk stamps, in order. */
    private static List<List<Long>> drain(final ChunkRecords records, final int slots, final int ends)
        throws Exception
    {
        final List<List<Long>> stamps = new ArrayList<>();
        for (int i = 0; i < slots; i++)
        {
            stamps.add(new ArrayList<>());
        }
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
                    stamps.get(buffer.getInt(index + ChunkRecords.SLOT_OFFSET))
                        .add(buffer.getLong(index + ChunkRecords.NS_OFFSET));
                }
            });
            Thread.sleep(5);
        }
        assertEquals(ends, seen[0], "every request ended");
        return stamps;
    }

    @Test
    void shouldStreamOverHttpsWithKernelStampsEachAfterItsChunksSend() throws Exception
    {
        final ClientSettings s = settings(server.url(), new TlsTrust(server.pem(), false), Stamping.KERNEL);
        final List<String> notes = new CopyOnWriteArrayList<>();
        final int before = server.sentNs().size();
        try (StreamClient client = StreamClients.open(s, notes::add))
        {
            assertTrue(client instanceof KernelStreamClient && client.transport().contains("SSLEngine"),
                client.transport());
            assertEquals(1, client.preconnect(1, 10_000), "the handshake done before the first request");
            final List<RequestSlot> slots = new ArrayList<>();
            final List<List<Long>> stamps = new ArrayList<>();
            for (int round = 0; round < 3; round++)
            {
                final RequestSlot slot = slot(round);
                slots.add(slot);
                client.submit(slot);
                stamps.add(drain(s.records(), 3, 1).get(round));
            }
            final List<Long> sent = server.sentNs().subList(before, before + 3 * TOKENS);
            for (int round = 0; round < 3; round++)
            {
                final RequestSlot slot = slots.get(round);
                assertEquals(ErrorClass.NONE, slot.errorClass, slot.errorDetail);
                assertEquals(200, slot.httpStatus);
                assertEquals(slots.get(0).connectionId, slot.connectionId, "one kept-alive TLS connection");
                assertEquals(TOKENS, stamps.get(round).size(), "every chunk recorded");
                assertTrue(slot.sentNs <= slot.sentKernelNs && slot.sentKernelNs <= slot.headersNs,
                    "the send stamp of the request's last ciphertext byte, between the user send stamp and the " +
                    "response's first read: " + slot.sentNs + " " + slot.sentKernelNs + " " + slot.headersNs);
                long previous = slot.sentNs;
                for (int i = 0; i < TOKENS; i++)
                {
                    final long stampNs = stamps.get(round).get(i);
                    assertTrue(stampNs >= sent.get(round * TOKENS + i) - CONVERSION_SLACK_NS,
                        "chunk " + i + " stamped before the server wrote it");
                    assertTrue(stampNs >= previous && stampNs <= slot.endNs, "stamps in order, within the request");
                    previous = stampNs;
                }
            }
            final StampingReport stamping = client.stamping();
            assertEquals("kernel", stamping.mode());
            assertTrue(stamping.reads() - stamping.fallbackReads() >= 3 * TOKENS, "reads with kernel stamps: " +
                stamping);
            assertNotNull(stamping.receiveDelay());
            assertEquals(stamping.reads() - stamping.fallbackReads(), stamping.receiveDelay().count());
            assertEquals(3, stamping.sendDelay().requests(), "a send stamp per request: " + stamping.sendDelay());
            assertEquals(0, stamping.sendDelay().beforeUserSend());
            assertEquals(stamping.fallbackReads() > 0 ? 1 : 0, notes.size(), "quiet unless a read fell back");
        }
    }

    @Test
    void shouldRefuseAnUntrustedCertificateWithTheClassAndLineOfTheNettyClient() throws Exception
    {
        final RequestSlot netty = failOn(server.url(), TlsTrust.DEFAULT, Stamping.USER);
        final RequestSlot kernel = failOn(server.url(), TlsTrust.DEFAULT, Stamping.KERNEL);
        assertEquals(ErrorClass.TLS, netty.errorClass, netty.errorDetail);
        assertEquals(netty.errorClass, kernel.errorClass, kernel.errorDetail);
        assertEquals(netty.errorDetail, kernel.errorDetail, "the same line");
        assertTrue(kernel.errorDetail.contains("not trusted") && kernel.errorDetail.contains("--ca-cert"),
            kernel.errorDetail);
    }

    @Test
    void shouldVerifyTheHostNameAsNettyDoesAndSkipItWhenInsecure() throws Exception
    {
        try (TlsSseServer other = TlsSseServer.start(Files.createDirectories(dir.resolve("other")),
            "dns:elsewhere.test", 2, 1))
        {
            final TlsTrust trusted = new TlsTrust(other.pem(), false);
            final RequestSlot netty = failOn(other.url(), trusted, Stamping.USER);
            final RequestSlot kernel = failOn(other.url(), trusted, Stamping.KERNEL);
            assertEquals(ErrorClass.TLS, netty.errorClass, netty.errorDetail);
            assertEquals(netty.errorClass, kernel.errorClass, kernel.errorDetail);
            assertEquals(netty.errorDetail, kernel.errorDetail, "the same line");
            final RequestSlot insecure = failOn(other.url(), new TlsTrust(null, true), Stamping.KERNEL);
            assertEquals(ErrorClass.NONE, insecure.errorClass, "--insecure: " + insecure.errorDetail);
        }
    }

    @Test
    void shouldClassARequestWhoseHandshakeTheServerCutAsTheNettyClientDoes() throws Exception
    {
        try (java.net.ServerSocket cutter = new java.net.ServerSocket(0, 8, InetAddress.getByName("127.0.0.1")))
        {
            final Thread t = new Thread(() ->
            {
                for (int i = 0; i < 2; i++)
                {
                    try (java.net.Socket c = cutter.accept())
                    {
                        c.getInputStream().read(new byte[512]); // the ClientHello, or its start; then close
                    }
                    catch (final java.io.IOException e)
                    {
                        return;
                    }
                }
            }, "handshake-cutter");
            t.setDaemon(true);
            t.start();
            final String url = "https://127.0.0.1:" + cutter.getLocalPort() + "/v1";
            final RequestSlot netty = failOn(url, TlsTrust.DEFAULT, Stamping.USER);
            final RequestSlot kernel = failOn(url, TlsTrust.DEFAULT, Stamping.KERNEL);
            assertEquals(ErrorClass.STREAM_CUT, netty.errorClass, netty.errorDetail);
            assertEquals(netty.errorClass, kernel.errorClass, kernel.errorDetail);
            // the class is the same; the words are each client's (Netty's: its SslHandler failing the queued write,
            // "write failed: StacklessClosedChannelException"; the kernel client's request was never written)
            assertEquals("connection closed before the response ended", kernel.errorDetail);
        }
    }

    /** One request on a fresh client of that stamping; @return its slot once ended. */
    private static RequestSlot failOn(final String url, final TlsTrust trust, final Stamping stamping)
        throws Exception
    {
        final ClientSettings s = settings(url, trust, stamping);
        try (StreamClient client = StreamClients.open(s, line -> {}))
        {
            assertEquals(stamping == Stamping.KERNEL, client instanceof KernelStreamClient);
            final RequestSlot slot = slot(0);
            client.submit(slot);
            drain(s.records(), 1, 1);
            return slot;
        }
    }

    @Test
    void shouldDecryptEachRecordInTheReadThatEndsItStampedBetweenSendAndUserStamp() throws Exception
    {
        final List<Read> reads = streamByHand(0, new long[1]);
        int chunks = 0;
        for (final Read r : reads)
        {
            assertTrue(r.rawStamp() >= 0, "every read carries a kernel stamp: " +
                ControlMessages.describe(r.rawStamp()));
            assertTrue(r.kernelNs() <= r.userNs() + CONVERSION_SLACK_NS, "kernel stamp not after the user stamp: " + r);
            assertTrue(r.records() <= 1, "one record per read at most: " + r);
            assertTrue(r.records() == 0 || r.atBoundary(), "plaintext only from the read that ends its record: " + r);
            for (final long sent : r.sentNs())
            {
                assertTrue(r.kernelNs() >= sent - CONVERSION_SLACK_NS, "kernel stamp not before the send: " + r);
                chunks++;
            }
        }
        assertEquals(TOKENS, chunks, "every chunk decrypted once");
    }

    @Test
    void shouldReadEachRecordQueuedByAStallOnItsOwnWithAStampBetweenItsSendAndItsRead() throws Exception
    {
        final long[] stallEnd = new long[1];
        final List<Read> reads = streamByHand(5, stallEnd);
        final List<Read> during = new ArrayList<>();
        for (final Read r : reads)
        {
            // sent before the stall's end, read after it (KernelStampsIT's rule: the socket's stamp is the last
            // merged segment's, which can be one that came after the stall, so not "stamped before its end")
            if (!r.sentNs().isEmpty() && r.userNs() >= stallEnd[0] && r.sentNs().get(0) < stallEnd[0] &&
                r.rawStamp() >= 0)
            {
                assertEquals(1, r.sentNs().size(), "the backlog was read one record at a time: " + r);
                during.add(r);
            }
        }
        assertTrue(during.size() >= 2, "records queued during the stall: " + during.size() + " of " + reads.size() +
            " reads: " + reads);
        long previous = Long.MIN_VALUE;
        int distinct = 0;
        for (final Read r : during)
        {
            assertTrue(r.kernelNs() >= r.sentNs().get(0) - CONVERSION_SLACK_NS, "stamped after it was sent: " + r);
            assertTrue(r.kernelNs() <= r.userNs() + CONVERSION_SLACK_NS, "and not after it was read: " + r);
            assertTrue(r.rawStamp() >= previous, "arrivals in order: " + r);
            distinct += r.rawStamp() != previous ? 1 : 0;
            previous = r.rawStamp();
        }
        assertTrue(during.stream().filter(Read::backlog).count() >= 2, "reads cut at a record's end: the stall " +
            "ended with " + StampingStall.EVENTS + " records queued");
        System.out.printf("tls stall: %d records queued, %d distinct kernel stamps%n", during.size(), distinct);
    }

    @Test
    void shouldKeepEachRecordsOwnArrivalThroughAStallWithAPacketTap() throws Exception
    {
        final String why = PacketTap.unavailableReason("lo");
        Assumptions.assumeTrue(why == null, "skipped: " + why);
        final long[] stallEnd = new long[1];
        final List<Read> reads = streamByHand(5, stallEnd, true);
        final List<Read> during = new ArrayList<>();
        for (final Read r : reads)
        {
            assertTrue(r.tapRaw() >= 0, "every read of ciphertext carries a tap stamp: " + r);
            assertTrue(r.rawStamp() < 0 || r.tapRaw() <= r.rawStamp(), "not after the socket's: " + r);
            for (final long sent : r.sentNs())
            {
                assertTrue(r.tapNs() >= sent - CONVERSION_SLACK_NS, "not before the send: " + r);
            }
            if (r.sentNs().size() == 1 && r.userNs() >= stallEnd[0] && r.tapNs() < stallEnd[0])
            {
                during.add(r);
            }
        }
        long previousTap = Long.MIN_VALUE;
        long previousSocket = Long.MIN_VALUE;
        int tapArrivals = 0;
        int socketArrivals = 0;
        for (final Read r : during)
        {
            assertTrue(r.tapRaw() >= previousTap, "arrivals in order: " + r);
            tapArrivals += r.tapRaw() != previousTap ? 1 : 0;
            socketArrivals += r.rawStamp() != previousSocket ? 1 : 0;
            previousTap = r.tapRaw();
            previousSocket = r.rawStamp();
        }
        final int tap = tapArrivals;
        final int socket = socketArrivals;
        assertTrue(during.size() >= 2 && tap >= 2 && tap >= socket, () -> "records the tap saw arrive during the " +
            "stall: " + during.size() + ", " + tap + " distinct arrivals against the socket's " + socket + ": " +
            reads);
        System.out.printf("tls stall with a tap: %d records queued, %d distinct tap stamps (socket: %d)%n",
            during.size(), tap, socket);
    }

    @Test
    void shouldAllocateNothingPerRecordBeyondWhatTheJdksEngineDoes() throws Exception
    {
        final io.netty.handler.ssl.SslContext context = new TlsTrust(server.pem(), false).nettyContext();
        final byte[] event = ("c\r\ndata: {\"choices\":[{\"delta\":{\"content\":\" token\"}}]}\n\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
        final int records = 20_000;
        final int warm = records / 2;
        // through KernelTls, each record copied into a read buffer first as the socket fills it
        final KernelTls client = new KernelTls(context.newEngine(ByteBufAllocator.DEFAULT, "127.0.0.1",
            server.port()));
        final SSLEngine peer = serverEngine();
        InMemoryTls.handshake(client, peer);
        final InMemoryTls.Records wire = InMemoryTls.records(peer, records, event);
        final long[] plaintext = new long[1];
        final KernelTls.Plaintext sink = (src, length) -> plaintext[0] += length;
        final MemorySegment read = Arena.ofAuto().allocate(StampedSocket.READ_BYTES);
        wire.deliver(client, sink, read, 0, warm);
        final long before = allocatedBytes();
        wire.deliver(client, sink, read, warm, records);
        final double kernelTls = (double)(allocatedBytes() - before) / (records - warm);
        assertEquals((long)records * event.length, plaintext[0], "every record decrypted");
        // the same records through a bare engine of the same context: what the JDK's SSLEngine allocates itself
        final SSLEngine bare = context.newEngine(ByteBufAllocator.DEFAULT, "127.0.0.1", server.port());
        final SSLEngine barePeer = serverEngine();
        InMemoryTls.handshake(bare, barePeer);
        final InMemoryTls.Records bareWire = InMemoryTls.records(barePeer, records, event);
        final java.nio.ByteBuffer netIn = java.nio.ByteBuffer.allocate(bare.getSession().getPacketBufferSize());
        final java.nio.ByteBuffer appIn = java.nio.ByteBuffer.allocate(bare.getSession().getApplicationBufferSize());
        bareWire.unwrapBare(bare, netIn, appIn, 0, warm);
        final long bareBefore = allocatedBytes();
        bareWire.unwrapBare(bare, netIn, appIn, warm, records);
        final double engine = (double)(allocatedBytes() - bareBefore) / (records - warm);
        // KernelTls once more, now that the bare engine's run has warmed the engine's code as much: the first count
        // ran before it, and the JIT's escape analysis had taken fewer of the engine's own objects away by then
        // (1,624 against 1,512 B per record once, at load ~2 in a clean-clone suite).
        final InMemoryTls.Records again = InMemoryTls.records(peer, records - warm, event);
        final long againBefore = allocatedBytes();
        again.deliver(client, sink, read, 0, records - warm);
        final double kernelTlsWarm = (double)(allocatedBytes() - againBefore) / (records - warm);
        assertEquals((long)(2 * records - warm) * event.length, plaintext[0], "every record decrypted");
        System.out.printf("tls unwrap, bytes allocated per record: %.1f then %.1f through KernelTls, %.1f by a bare " +
            "SSLEngine (%s)%n", kernelTls, kernelTlsWarm, engine, bare.getSession().getProtocol());
        // Any buffer of KernelTls's own per record would be 16 KiB or more; the slack is the JIT's own noise.
        assertTrue(kernelTlsWarm <= engine + 64, "KernelTls allocates beyond the engine: " + kernelTlsWarm +
            " against " + engine);
    }

    private static SSLEngine serverEngine() throws Exception
    {
        final SSLEngine peer = server.serverContext().createSSLEngine();
        peer.setUseClientMode(false);
        return peer;
    }

    private static long allocatedBytes()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        return threads.getThreadAllocatedBytes(Thread.currentThread().threadId());
    }

    /**
     * Streams one response over TLS, read and decrypted on this thread; stalls once, after the read that brought
     * chunk {@code stallAfter} (0: never; chunks, not reads, since the reads before the first chunk vary: session
     * tickets, the head).
     */
    private static List<Read> streamByHand(final int stallAfter, final long[] stallEndNs) throws Exception
    {
        return streamByHand(stallAfter, stallEndNs, false);
    }

    /** As above; {@code tapped}: with a packet tap on {@code lo}, each read also stamped by the tap. */
    private static List<Read> streamByHand(final int stallAfter, final long[] stallEndNs, final boolean tapped)
        throws Exception
    {
        final KernelTls tls = new KernelTls(new TlsTrust(server.pem(), false).nettyContext()
            .newEngine(ByteBufAllocator.DEFAULT, "127.0.0.1", server.port()));
        try (PacketTap tap = tapped ? PacketTap.open("lo", server.port()) : null;
            StampedSocket socket = StampedSocket.connect(InetAddress.getByName("127.0.0.1"), server.port(), true,
                tap);
            Arena arena = Arena.ofConfined())
        {
            final MemorySegment errno = LinuxNet.newErrno(arena);
            final MemorySegment event = arena.allocate(LinuxNet.EPOLL_EVENT_BYTES, 8);
            final int epfd = LinuxNet.epollCreate(errno);
            LinuxNet.epollCtl(errno, epfd, LinuxNet.EPOLL_CTL_ADD, socket.fd(), LinuxNet.EPOLLOUT, 0, event);
            assertEquals(1, LinuxNet.epollWait(errno, epfd, event, 1, 5_000), "connected");
            assertEquals(0, socket.finishConnect());
            LinuxNet.epollCtl(errno, epfd, LinuxNet.EPOLL_CTL_MOD, socket.fd(), LinuxNet.EPOLLIN, 0, event);
            handshake(tls, socket, errno, epfd, event);
            final byte[] request = request();
            tls.wrapRequest(arena.allocateFrom(ValueLayout.JAVA_BYTE, request), request.length);
            sendAll(tls, socket);
            try
            {
                return readAll(tls, socket, tap, new int[] {epfd, stallAfter}, stallEndNs, errno, event);
            }
            finally
            {
                LinuxNet.close(errno, epfd);
            }
        }
    }

    private static void handshake(final KernelTls tls, final StampedSocket socket, final MemorySegment errno,
        final int epfd, final MemorySegment event) throws Exception
    {
        tls.begin();
        sendAll(tls, socket);
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (!tls.handshaken() && System.nanoTime() < deadline)
        {
            LinuxNet.epollWait(errno, epfd, event, 1, 1_000);
            int n;
            while (!tls.handshaken() && (n = socket.readRecord()) > 0)
            {
                tls.receive(socket.data(), n);
                tls.handshake();
                sendAll(tls, socket);
            }
        }
        assertTrue(tls.handshaken(), "handshake done");
    }

    /** @param epfdAndStallAfter the epoll set, and the chunk after which to stall (0: never). */
    private static List<Read> readAll(final KernelTls tls, final StampedSocket socket, final PacketTap tap,
        final int[] epfdAndStallAfter, final long[] stallEndNs, final MemorySegment errno, final MemorySegment event)
        throws Exception
    {
        final int epfd = epfdAndStallAfter[0];
        final int stallAfter = epfdAndStallAfter[1];
        final ClockBridge bridge = new ClockBridge(ClockBridge.systemClocks(), 1_000_000);
        final MemorySegment scratch = Arena.ofAuto().allocate(ValueLayout.JAVA_INT);
        final List<Read> reads = new ArrayList<>();
        final StringBuilder all = new StringBuilder();
        final long deadline = System.nanoTime() + 20_000_000_000L;
        int chunks = 0;
        while (!all.toString().contains("[DONE]") && System.nanoTime() < deadline)
        {
            LinuxNet.epollWait(errno, epfd, event, 1, 1_000);
            int n;
            while ((n = socket.readRecord()) > 0)
            {
                final long userNs = bridge.sample();
                final long raw = socket.lastStampNs();
                final StringBuilder text = new StringBuilder();
                final int[] records = new int[1];
                tls.receive(socket.data(), n);
                tls.unwrap((src, length) ->
                {
                    records[0]++;
                    text.append(new String(src, 0, length, StandardCharsets.ISO_8859_1));
                });
                sendAll(tls, socket);
                all.append(text);
                final List<Long> sent = new ArrayList<>();
                final Matcher m = SENT.matcher(text);
                while (m.find())
                {
                    sent.add(Long.parseLong(m.group(1)));
                }
                final long tapRaw = tap == null ? -1 : tap.stampOf(socket.localPort(), socket.receivedBytes());
                reads.add(new Read(raw >= 0 ? bridge.toMonotonicNs(raw) : -1, userNs, raw, sent, records[0],
                    socket.lastReadWasBacklog(), socket.atRecordBoundary(), tapRaw,
                    tapRaw >= 0 ? bridge.toMonotonicNs(tapRaw) : -1));
                chunks += sent.size();
                if (stallEndNs[0] == 0 && stallAfter > 0 && chunks >= stallAfter)
                {
                    stallEndNs[0] = StampingStall.stall(socket.fd(), errno, scratch, n);
                }
            }
        }
        assertTrue(all.toString().contains("[DONE]"), "the whole stream was read");
        return reads;
    }

    private static void sendAll(final KernelTls tls, final StampedSocket socket)
    {
        while (tls.outputBytes() > 0)
        {
            final long n = socket.send(tls.output(), tls.outputBytes());
            assertTrue(n > 0, "loopback takes a handshake flight or a request at once: " + n);
            tls.sent(n);
        }
    }

    private static byte[] request()
    {
        final String body = new String(slot(0).body, StandardCharsets.UTF_8);
        return ("POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n" +
            "accept: text/event-stream\r\ncontent-length: " + body.length() + "\r\n\r\n" + body)
            .getBytes(StandardCharsets.US_ASCII);
    }
}
