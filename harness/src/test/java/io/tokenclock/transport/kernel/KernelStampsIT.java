package io.tokenclock.transport.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.tokenclock.accuracy.TruthScript;
import io.tokenclock.accuracy.TruthServer;
import io.tokenclock.testing.StampingStall;

/**
 * Kernel receive stamps against the ground truth: the truth server writes its send stamp ({@code System.nanoTime()},
 * CLOCK_MONOTONIC, the same clock as ours on one machine) into each chunk, and this test reads the stream with
 * {@link StampedSocket} on its own thread, which is the stamping thread. Asserts order only (send before kernel
 * stamp before user stamp; during a deliberate stall the kernel stamps stay before the stall's end while the user
 * stamps come after it, one event per read), never speed.
 */
@Timeout(60)
final class KernelStampsIT
{
    private static final Pattern SENT = Pattern.compile("\"tc_sent_ns\":(\\d+)");
    /** The conversion's own uncertainty: half of the two realtime readings' gap, and NTP slew; generous. */
    private static final long CONVERSION_SLACK_NS = 2_000;
    private static final int TOKENS = 40;
    private static final double ITL_MS = 4;

    /**
     * One read: its stamps on the run's clock and the send stamps of the chunks it carried; with a packet tap, the
     * tap's stamp of the segment that carried its last byte ({@code tapRaw} as the kernel gave it, or a negative
     * {@link TapFlows} code; {@code tapNs} converted).
     */
    record Read(long kernelNs, long userNs, long rawStamp, List<Long> sentNs, boolean backlog, long tapRaw,
        long tapNs)
    {
    }

    /** The route to the truth server: loopback here, a veth pair into a network namespace in the netns variant. */
    interface Route
    {
        /** Starts the truth server with {@code options} at this route's far end. */
        TruthServer start(TruthServer.Options options) throws Exception;

        /** @return the address the reader connects to. */
        InetAddress address();

        /** @return the interface the server's segments arrive on, for a packet tap. */
        default String interfaceName()
        {
            return "lo";
        }
    }

    static final Route LOOPBACK = new Route()
    {
        @Override
        public TruthServer start(final TruthServer.Options options) throws Exception
        {
            return TruthServer.start(options);
        }

        @Override
        public InetAddress address()
        {
            return InetAddress.getLoopbackAddress();
        }
    };

    @BeforeAll
    static void linuxOnly()
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, "kernel stamps: " +
            KernelStamps.unavailableReason());
    }

    /** Streams one response and reads it; stalls the reading thread once, after read {@code stallAfter} (-1: no). */
    static List<Read> stream(final Route route, final boolean stamps, final int stallAfter, final long[] stallEndNs)
        throws Exception
    {
        return stream(route, stamps, stallAfter, stallEndNs, false, null);
    }

    /**
     * As above; {@code tapped}: with a packet tap on the route's interface, each read also stamped by the tap;
     * {@code truthLog}: the server logs its kernel send stamps there (null: no log).
     */
    static List<Read> stream(final Route route, final boolean stamps, final int stallAfter, final long[] stallEndNs,
        final boolean tapped, final java.nio.file.Path truthLog) throws Exception
    {
        final TruthServer.Options options = TruthServer.Options.of(TruthScript.fixed(0, ITL_MS, TOKENS))
            .withIoThreads(1);
        try (TruthServer server = route.start(truthLog == null ? options :
            options.withTruthLog(truthLog).withKernelSendStamps(true));
            PacketTap tap = tapped ? PacketTap.open(route.interfaceName(), server.port()) : null;
            StampedSocket socket = StampedSocket.connect(route.address(), server.port(), stamps, tap);
            Arena arena = Arena.ofConfined())
        {
            final MemorySegment errno = LinuxNet.newErrno(arena);
            final MemorySegment event = arena.allocate(LinuxNet.EPOLL_EVENT_BYTES, 8);
            final int epfd = LinuxNet.epollCreate(errno);
            LinuxNet.epollCtl(errno, epfd, LinuxNet.EPOLL_CTL_ADD, socket.fd(), LinuxNet.EPOLLOUT, 0, event);
            assertEquals(1, LinuxNet.epollWait(errno, epfd, event, 1, 5_000), "connected");
            assertEquals(0, socket.finishConnect());
            LinuxNet.epollCtl(errno, epfd, LinuxNet.EPOLL_CTL_MOD, socket.fd(), LinuxNet.EPOLLIN, 0, event);
            send(socket, arena);
            final ClockBridge bridge = new ClockBridge(ClockBridge.systemClocks(), 1_000_000);
            final List<Read> reads = new ArrayList<>();
            final StringBuilder all = new StringBuilder();
            final long deadline = System.nanoTime() + 20_000_000_000L;
            while (!all.toString().contains("[DONE]") && System.nanoTime() < deadline)
            {
                LinuxNet.epollWait(errno, epfd, event, 1, 1_000);
                int n;
                while ((n = socket.readEvent()) > 0)
                {
                    final long userNs = bridge.sample();
                    final long raw = socket.lastStampNs();
                    final String text = new String(socket.data().asSlice(0, n).toArray(ValueLayout.JAVA_BYTE),
                        StandardCharsets.ISO_8859_1);
                    all.append(text);
                    final List<Long> sent = new ArrayList<>();
                    final Matcher m = SENT.matcher(text);
                    while (m.find())
                    {
                        sent.add(Long.parseLong(m.group(1)));
                    }
                    final long tapRaw = tap == null ? TapFlows.UNKNOWN :
                        tap.stampOf(socket.localPort(), socket.receivedBytes());
                    reads.add(new Read(raw >= 0 ? bridge.toMonotonicNs(raw) : -1, userNs, raw, sent,
                        socket.lastReadWasBacklog(), tapRaw, tapRaw >= 0 ? bridge.toMonotonicNs(tapRaw) : -1));
                    if (reads.size() == stallAfter)
                    {
                        final MemorySegment scratch = arena.allocate(ValueLayout.JAVA_INT);
                        stallEndNs[0] = StampingStall.stall(socket.fd(), errno, scratch, n);
                    }
                }
            }
            LinuxNet.close(errno, epfd);
            assertTrue(all.toString().contains("[DONE]"), "the whole stream was read");
            return reads;
        }
    }

    private static void send(final StampedSocket socket, final Arena arena)
    {
        final String body = "{\"model\":\"m\",\"stream\":true,\"max_tokens\":" + TOKENS +
            ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        final byte[] request = ("POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\n" +
            "content-type: application/json\r\naccept: text/event-stream\r\ncontent-length: " + body.length() +
            "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII);
        final MemorySegment out = arena.allocateFrom(ValueLayout.JAVA_BYTE, request);
        assertEquals(request.length, socket.send(out, request.length));
    }

    @Test
    void shouldStampEveryChunkAfterItsSendAndBeforeTheUserStamp() throws Exception
    {
        assertStampedBetweenSendAndUser(stream(LOOPBACK, true, -1, new long[1]));
    }

    /** Every read carries a kernel stamp, after its chunks' send stamps and not after its user stamp. */
    static void assertStampedBetweenSendAndUser(final List<Read> reads)
    {
        int chunks = 0;
        for (final Read r : reads)
        {
            assertTrue(r.rawStamp() >= 0, "every read carries a kernel stamp: " +
                ControlMessages.describe(r.rawStamp()));
            assertTrue(r.kernelNs() <= r.userNs() + CONVERSION_SLACK_NS,
                "kernel stamp not after the user stamp: " + r);
            for (final long sent : r.sentNs())
            {
                assertTrue(r.kernelNs() >= sent - CONVERSION_SLACK_NS, "kernel stamp not before the send: " + r);
                chunks++;
            }
        }
        assertEquals(TOKENS, chunks, "every chunk read once");
    }

    @Test
    void shouldReadEachChunkQueuedByAStallOnItsOwnWithAStampBetweenItsSendAndItsRead() throws Exception
    {
        final long[] stallEnd = new long[1];
        final List<Read> reads = stream(LOOPBACK, true, 5, stallEnd);
        assertQueuedChunksStampedBetweenSendAndRead(reads, stallEnd[0]);
    }

    /**
     * The chunks sent before the stall ending at {@code stallEndNs} ended and read after it: each its own read, each
     * kernel stamp after its send and not after its read, in order. Not "before the stall's end": the socket's stamp
     * is that of the last segment merged with the chunk in the receive queue, and a segment that arrives while the
     * backlog is being read merges into the part not yet read, which then takes its later stamp (seen once on the veth
     * pair: every queued chunk stamped 1.4 ms after the stall). Each chunk's own arrival is what the packet tap keeps
     * ({@link PacketTapIT}).
     */
    static void assertQueuedChunksStampedBetweenSendAndRead(final List<Read> reads, final long stallEndNs)
    {
        final List<Read> during = new ArrayList<>();
        for (final Read r : reads)
        {
            if (!r.sentNs().isEmpty() && r.userNs() >= stallEndNs && r.sentNs().get(0) < stallEndNs &&
                r.rawStamp() >= 0)
            {
                // waited through the stall's end. A read the kernel gave no stamp (-1) says nothing of when it
                // arrived; the test above holds every read to carrying one.
                assertEquals(1, r.sentNs().size(), "the backlog was read one event at a time: " + r);
                during.add(r);
            }
        }
        assertTrue(during.size() >= 2, () -> "chunks queued during the stall (about 50 / " + ITL_MS +
            " of them in 50 ms on a quiet machine): " + during.size() + "; the reads, relative to the stall's end: " +
            describe(reads, stallEndNs));
        long previous = Long.MIN_VALUE;
        long worstKernelNs = 0;
        long worstUserNs = 0;
        int distinct = 0;
        int beforeEnd = 0;
        for (final Read r : during)
        {
            final long sent = r.sentNs().get(0);
            assertTrue(r.kernelNs() >= sent - CONVERSION_SLACK_NS, "stamped after it was sent: " + r);
            assertTrue(r.kernelNs() <= r.userNs() + CONVERSION_SLACK_NS, "and not after it was read: " + r);
            beforeEnd += r.kernelNs() < stallEndNs ? 1 : 0;
            // Non-decreasing, not strictly increasing: segments merged on the way (the sender's TCP autocorking, the
            // receive queue's coalescing, which keeps the newest stamp) share the last one's stamp.
            // Compared as the kernel gave them (realtime): equal stamps converted with offsets sampled a few µs
            // apart would differ by the offsets' own noise.
            assertTrue(r.rawStamp() >= previous, "arrivals in order: " + r);
            distinct += r.rawStamp() != previous ? 1 : 0;
            previous = r.rawStamp();
            worstKernelNs = Math.max(worstKernelNs, r.kernelNs() - sent);
            worstUserNs = Math.max(worstUserNs, r.userNs() - sent);
        }
        assertTrue(during.stream().filter(Read::backlog).count() >= 2, "reads cut at an event's end: the stall " +
            "ended with " + StampingStall.EVENTS + " events queued");
        System.out.printf("stall: %d chunks queued, %d distinct kernel stamps, %d before the stall's end; kernel " +
            "stamp - send max %.1f us, user stamp - send max %.1f us%n", during.size(), distinct, beforeEnd,
            worstKernelNs / 1e3, worstUserNs / 1e3);
    }

    /** One line per read, in µs from {@code originNs}: chunks, send, kernel and user stamps, and whether cut short. */
    static String describe(final List<Read> reads, final long originNs)
    {
        final StringBuilder out = new StringBuilder();
        for (final Read r : reads)
        {
            out.append(String.format("%n  chunks %d sent %s kernel %s user %.0f%s", r.sentNs().size(),
                r.sentNs().isEmpty() ? "-" : String.format("%.0f", (r.sentNs().get(0) - originNs) / 1e3),
                r.rawStamp() >= 0 ? String.format("%.0f", (r.kernelNs() - originNs) / 1e3) :
                ControlMessages.describe(r.rawStamp()), (r.userNs() - originNs) / 1e3, r.backlog() ? " backlog" : ""));
        }
        return out.toString();
    }

    @Test
    void shouldStampEveryReadOfConnectionsOpenedOneAfterAnotherWithNoneOpenBetween() throws Exception
    {
        // The machine's stamping switch goes off when the last socket asking for stamps closes, and comes back on
        // through deferred work: before KernelStamps held its probe socket open, the first reads of such a connection
        // (in one run here, all of them) carried no stamp.
        assertTrue(KernelStamps.awaitStamps(), "a loopback read carries a stamp");
        for (int connection = 0; connection < 3; connection++)
        {
            for (final Read r : stream(LOOPBACK, true, -1, new long[1]))
            {
                assertTrue(r.rawStamp() >= 0, "connection " + connection + ": every read carries a kernel stamp: " +
                    ControlMessages.describe(r.rawStamp()));
            }
            Thread.sleep(300); // no stamping socket of this test open: the switch's deferred work would turn it off
        }
    }

    @Test
    void shouldReportMissingStampsOnASocketWithoutTheOption() throws Exception
    {
        final List<Read> reads = stream(LOOPBACK, false, -1, new long[1]);
        assertTrue(reads.size() > 1);
        for (final Read r : reads)
        {
            assertEquals(ControlMessages.MISSING, r.rawStamp(), "no option, no control message");
        }
    }
}
