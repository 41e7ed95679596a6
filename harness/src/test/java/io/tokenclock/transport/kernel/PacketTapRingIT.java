package io.tokenclock.transport.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The tap's ring on loopback with real traffic: a server writes messages 1 ms apart, each its own write with
 * {@code TCP_NODELAY} (so its own segment, unless the sender falls behind and puts two in one), and the client reads
 * them only afterwards. Every segment is stamped once, the stamps rise with the bytes, and they wait in the ring
 * however late the read; a ring that fills while nothing reads drops what does not fit, counts it, and the bytes it
 * dropped have no stamp ({@link TapFlows#LOST}: the client then keeps the socket's own, KernelPacketTapIT), never
 * another segment's. Needs CAP_NET_RAW; skips in one line otherwise.
 */
@Timeout(60)
final class PacketTapRingIT
{
    private static final int MESSAGE_BYTES = 100;

    @BeforeAll
    static void tapAllowed()
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, "PacketTapRingIT skipped: kernel stamps: " +
            KernelStamps.unavailableReason());
        final String why = PacketTap.unavailableReason("lo");
        Assumptions.assumeTrue(why == null, "PacketTapRingIT skipped: " + why);
    }

    /** Writes {@code count} messages, each flushed alone with TCP_NODELAY, {@code gapNs} apart. */
    private static CompletableFuture<Void> serve(final ServerSocket server, final int count, final long gapNs)
    {
        return CompletableFuture.runAsync(() ->
        {
            try (Socket peer = server.accept())
            {
                peer.setTcpNoDelay(true);
                final OutputStream out = peer.getOutputStream();
                final byte[] message = new byte[MESSAGE_BYTES];
                for (int i = 0; i < count; i++)
                {
                    message[0] = (byte)i;
                    out.write(message);
                    out.flush();
                    LockSupport.parkNanos(gapNs);
                }
                Thread.sleep(100);
            }
            catch (final Exception e)
            {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Reads until {@code bytes} have come (the socket is non-blocking: waits between empty reads). */
    private static void readAll(final StampedSocket socket, final long bytes)
    {
        final long deadlineNs = System.nanoTime() + 20_000_000_000L;
        while (socket.receivedBytes() < bytes && System.nanoTime() < deadlineNs)
        {
            if (socket.readAll() == -1)
            {
                LockSupport.parkNanos(1_000_000);
            }
        }
        assertEquals(bytes, socket.receivedBytes(), "every byte read");
    }

    @Test
    void shouldStampEverySegmentOnceInOrderHoweverLateTheRead() throws Exception
    {
        final int count = 200;
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            PacketTap tap = PacketTap.open("lo", InetAddress.getLoopbackAddress(), server.getLocalPort(), 1))
        {
            final CompletableFuture<Void> sent = serve(server, count, 1_000_000);
            try (StampedSocket socket = StampedSocket.connect(InetAddress.getLoopbackAddress(), server.getLocalPort(),
                true, tap))
            {
                while (socket.finishConnect() != 0)
                {
                    Thread.onSpinWait();
                }
                sent.get(30, TimeUnit.SECONDS); // every message sent before the first read: all wait
                readAll(socket, (long)count * MESSAGE_BYTES);
                long previous = Long.MIN_VALUE;
                int distinct = 0;
                for (int i = 1; i <= count; i++)
                {
                    final long stamp = tap.stampOf(socket.localPort(), (long)i * MESSAGE_BYTES);
                    assertTrue(stamp >= 0, "message " + i + ": " + TapFlows.describe(stamp));
                    assertTrue(stamp >= previous, "stamps rise with the bytes: " + i + " at " + stamp + " after " +
                        previous);
                    distinct += stamp != previous ? 1 : 0;
                    previous = stamp;
                }
                // Each segment ends with a whole message (a late sender may put two writes in one segment, never
                // a part of one), so the distinct stamps of the messages' ends are the segments, each stamped once.
                assertEquals(distinct, tap.segments(), "every data segment stamped once, none twice");
                assertTrue(distinct > count / 2, "most messages their own segment: " + distinct + " of " + count);
                assertEquals(0, tap.drops());
                tap.forget(socket.localPort());
            }
            // one stamping thread, and a process that may run on more CPUs: the tap's thread takes the last one
            final int[] cpus = LinuxNet.allowedCpus();
            if (cpus.length > 1)
            {
                assertEquals(cpus[cpus.length - 1], tap.ownCpu(), "the tap's thread on a core of its own");
            }
        }
        try (PacketTap shared = PacketTap.open("lo", InetAddress.getLoopbackAddress(), 9, Integer.MAX_VALUE))
        {
            final long deadlineNs = System.nanoTime() + 1_000_000_000L;
            while (System.nanoTime() < deadlineNs)
            {
                LockSupport.parkNanos(10_000_000);
            }
            assertEquals(-1, shared.ownCpu(), "no CPU beyond the stamping threads: the thread shares theirs");
        }
    }

    @Test
    void shouldCountWhatAFullRingDroppedAndGiveThoseBytesNoStamp() throws Exception
    {
        final int frames = PacketTap.SMALLEST_RING_FRAMES;
        final int count = 200;
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            PacketTap tap = PacketTap.open("lo", InetAddress.getLoopbackAddress(), server.getLocalPort(), 1, frames))
        {
            final CompletableFuture<Void> sent = serve(server, count, 500_000);
            try (StampedSocket socket = StampedSocket.connect(InetAddress.getLoopbackAddress(), server.getLocalPort(),
                true, tap))
            {
                while (socket.finishConnect() != 0)
                {
                    Thread.onSpinWait();
                }
                synchronized (tap)
                {
                    // nothing reads the ring (its thread waits for this lock) while every message arrives
                    sent.get(30, TimeUnit.SECONDS);
                }
                readAll(socket, (long)count * MESSAGE_BYTES);
                int stamped = 0;
                int lost = 0;
                long previous = Long.MIN_VALUE;
                for (int i = 1; i <= count; i++)
                {
                    final long stamp = tap.stampOf(socket.localPort(), (long)i * MESSAGE_BYTES);
                    assertTrue(stamp >= 0 || stamp == TapFlows.LOST, "message " + i + ": " + TapFlows.describe(stamp));
                    if (stamp >= 0)
                    {
                        assertTrue(stamp >= previous, "the stamps the ring kept never go back: " + i);
                        previous = stamp;
                        stamped++;
                    }
                    else
                    {
                        lost++;
                    }
                }
                final long drops = tap.drops();
                assertTrue(drops > 0, "the full ring's drops are counted");
                assertEquals(count, stamped + lost);
                assertTrue(stamped > 0 && lost > 0, "the ring held what fit, and no more: " + stamped + " of " +
                    count + " stamped, " + drops + " dropped");
                // A dropped segment leaves its messages without a stamp: one each, or two where the sender, late,
                // put two writes in one segment; the server's FIN may be among the drops too.
                assertTrue(lost >= drops - 1, "dropped " + drops + ", without a stamp " + lost);
            }
        }
    }
}
