package io.tokenclock.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;

import io.tokenclock.api.Api;
import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.transport.kernel.KernelStamps;

/**
 * The kernel-stamped client's read path over a real loopback TCP connection, for the benchmarks and the allocation
 * gate. The client side is production code throughout: a {@link KernelStreamClient} whose one {@link KernelLoop} is
 * never started as a thread but turned ({@link KernelLoop#turn}) by the caller, so that its epoll wait,
 * the {@code recvmsg} pair with the control message ({@code MSG_PEEK} to the event's end, then the read), the clock
 * bridge, HTTP decoding, framing and recording all run on the measuring thread. The server side is the caller's:
 * {@link #serverWrite} sends bytes from a plain NIO socket, as a server would.
 * <p>
 * It lives in the transport's package, in the benchmarks' jar, so that the production classes stay package-private;
 * it wires them and holds no logic of theirs. Linux x86-64 only ({@link KernelStamps#unavailableReason}).
 */
public final class KernelReadPath implements AutoCloseable
{
    private static final int SPINS = 1_000_000;
    private static final long WAIT_NS = 10_000_000_000L;

    private final ServerSocketChannel listener;
    private final KernelStreamClient client;
    private final KernelLoop loop;
    private final ByteBuffer toClient = ByteBuffer.allocateDirect(64 * 1024);
    private final ByteBuffer fromClient = ByteBuffer.allocateDirect(64 * 1024);
    private SocketChannel server;

    /** @param records where the chunk and end records go (the collector's ring). */
    public KernelReadPath(final ChunkRecords records) throws IOException
    {
        this(records, PacketTapChoice.OFF_CHOICE);
    }

    /**
     * @param packetTap the client's packet tap: {@code off}, or an interface, which must open (the tap's own reads
     *                  and lookups are then in every read).
     */
    public KernelReadPath(final ChunkRecords records, final PacketTapChoice packetTap) throws IOException
    {
        if (KernelStamps.unavailableReason() != null)
        {
            throw new IllegalStateException("kernel stamps: " + KernelStamps.unavailableReason());
        }
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        final int port = ((InetSocketAddress)listener.getLocalAddress()).getPort();
        final ClientSettings settings = new ClientSettings(
            Endpoint.parse("http://127.0.0.1:" + port + "/v1", Api.CHAT), SystemNanoClock.INSTANCE, records,
            Map.of(), 2, 1, RequestLimits.DEFAULT, false, TlsTrust.DEFAULT, Stamping.KERNEL, packetTap);
        final StringBuilder notes = new StringBuilder();
        client = new KernelStreamClient(settings, notes::append, true, false);
        if (packetTap.mode() != PacketTapChoice.Mode.OFF && client.tap() == null)
        {
            client.close();
            listener.close();
            throw new IllegalStateException("the packet tap did not open: " + notes);
        }
        loop = client.loop(0);
    }

    /**
     * The load generator's hand-over ({@link KernelLoop#submit}: the queue and the eventfd), then the loop's turn
     * that sends it on the idle connection (the first request opens the connection: two turns and the server's
     * accept), and the server's read of it off its socket (a non-blocking read of a few hundred bytes, on this
     * thread too).
     */
    public void submit(final RequestSlot slot) throws IOException
    {
        loop.submit(slot);
        if (server == null)
        {
            loop.turn(); // the loop opens the connection
            server = listener.accept();
            server.socket().setTcpNoDelay(true);
            server.configureBlocking(false);
        }
        fromClient.clear();
        int turns = 0;
        while (server.read(fromClient) <= 0)
        {
            if (++turns > SPINS)
            {
                throw new IllegalStateException("the request did not reach the server");
            }
            loop.turn(); // the first turn sends it (after the connect completes, for the first request)
        }
    }

    /** The server writes {@code bytes} (one {@code send}; loopback queues them at the client within it). */
    public void serverWrite(final byte[] bytes) throws IOException
    {
        toClient.clear();
        toClient.put(bytes).flip();
        while (toClient.hasRemaining())
        {
            server.write(toClient);
        }
    }

    /**
     * Turns the client's loop until it has read what the server wrote: what the I/O thread does when the bytes are
     * there. The loop runs in the default mode: when the bytes are already queued, {@code epoll_wait} returns at
     * once; when the kernel deferred their delivery (its receive work handed to {@code ksoftirqd}, as on a busy
     * machine), the turn sleeps in {@code epoll_wait} until they come, which lets {@code ksoftirqd} run on this CPU.
     * (Busy-polling here was slower on a loaded machine: the spinning thread held the CPU that {@code ksoftirqd}
     * needed until the scheduler preempted it.)
     *
     * @return the turns it took (1 unless a turn ended at a deadline before the bytes came).
     */
    public int turn()
    {
        final long before = loop.reads();
        int turns = 0;
        final long deadlineNs = System.nanoTime() + WAIT_NS;
        do
        {
            loop.turn();
            turns++;
        }
        while (loop.reads() == before && ((turns & 1023) != 0 || System.nanoTime() < deadlineNs));
        if (loop.reads() == before)
        {
            throw new IllegalStateException("nothing read in " + WAIT_NS / 1_000_000 + " ms");
        }
        return turns;
    }

    /**
     * @return reads the loop stamped, how many of them fell back to a user stamp, how many were backlog reads, and how
     * many took the packet tap's stamp and how many missed it.
     */
    public long[] reads()
    {
        final KernelLoop.Counts c = loop.counts();
        return new long[] {c.reads(), c.fallbackReads(), c.backlogReads(), c.tapReads(), c.tapMissed()};
    }

    @Override
    public void close() throws IOException
    {
        loop.shutdown();
        client.close();
        if (server != null)
        {
            server.close();
        }
        listener.close();
    }
}
