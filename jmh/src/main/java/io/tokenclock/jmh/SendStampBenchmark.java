package io.tokenclock.jmh;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.tokenclock.transport.kernel.ClockBridge;
import io.tokenclock.transport.kernel.ErrorQueue;
import io.tokenclock.transport.kernel.LinuxNet;
import io.tokenclock.transport.kernel.StampedSocket;

/**
 * What does the kernel's send stamp cost per request?
 * <p>
 * With send stamps on ({@link StampedSocket#enableTxStamps}, {@code SOF_TIMESTAMPING_TX_SOFTWARE} with
 * {@code OPT_ID} and {@code OPT_TSONLY}) the kernel queues, for each send, a stamp of its last byte on the socket's
 * error queue. The kernel client ({@code KernelConnection.send} and {@code flush}) takes the user send stamp, writes
 * the request, and then, not waiting for {@code EPOLLERR}, reads the error queue at once ({@code recvmsg} with
 * {@code MSG_ERRQUEUE}, non-blocking, until the request's own stamp or {@code EAGAIN}): on loopback the stamp is
 * queued within the write, so the first read finds it, and the client stops there (it went on to a second read that
 * found the queue empty until 2026-12-02: a third of the cost measured before). The stamp whose key reaches the
 * request's last byte is converted to the monotonic clock (the clock bridge sampled). When it was not queued yet
 * (the kernel deferred the transmit, e.g. TCP's autocorking behind a packet not yet sent), the loop's next
 * {@code epoll_wait} reports
 * {@code EPOLLERR} and reads it then; here the next request's reads take it (and drop it, its key being an earlier
 * byte's), so each stamp's reads are in the score either way, without that wake-up. A deferred transmit may also
 * carry two requests in one segment, and one stamp (the later one's key) then covers both ({@code ErrorQueue.covers},
 * as in the client). Each fork prints the requests, the stamps read and how many came late, and fails unless the
 * last stamp covers the last byte sent (a stamp dropped by the kernel would take its reads out of the score).
 * <p>
 * One operation is one request's send: the user send stamp, one {@code send} of a 300-byte request (an HTTP head and
 * a short JSON body, the size a chat request with a short prompt has) on a loopback TCP connection with
 * {@code TCP_NODELAY} and receive stamps on, and with {@code txStamp=on} the error-queue reads and the conversion as
 * above. {@code txStamp=off} is the same socket without send stamps (the client where the kernel refuses them). The
 * difference is what the send stamp costs: the kernel's clone of the packet's header for the queue and its stamp
 * inside the {@code send}, the {@code recvmsg} and its control message. The server reads what was sent every 64
 * requests (one non-blocking read of 19 KB, on this thread, alike in both): a 1/64 share of a read is in both scores.
 * <p>
 * Allocation: none in either (the error queue's buffers are native, allocated once). Linux x86-64 only.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1) // the flags of jvm.flags come from io.tokenclock.jmh.Bench, as for every benchmark
public class SendStampBenchmark
{
    private static final int DRAIN_EVERY = 64;
    private static final int SPINS = 1_000_000;
    private static final byte[] REQUEST = request();

    /** {@code off}: receive stamps only; {@code on}: send stamps as well. The default is for AllocationCheck. */
    @Param({"off", "on"})
    public String txStamp = "on";

    private final Arena arena = Arena.ofShared();
    private final ByteBuffer drained = ByteBuffer.allocateDirect(256 * 1024);
    private StampedLoopback connection;
    private SocketChannel server;
    private StampedSocket client;
    private MemorySegment request;
    private ClockBridge bridge;
    private int sinceDrain;
    private long requests;
    private long stamps;
    private long late;
    /** The key of the last stamp read: the last byte stamped. */
    private long lastKey = -1;

    @Setup(Level.Trial)
    public void open() throws IOException, InterruptedException
    {
        connection = StampedLoopback.open(true);
        client = connection.socket();
        server = connection.peer();
        server.configureBlocking(false);
        if ("on".equals(txStamp) && !client.enableTxStamps(LinuxNet.TX_STAMP_FLAGS))
        {
            throw new IllegalStateException("the kernel refused send stamps, errno " + client.lastErrno());
        }
        request = arena.allocate(REQUEST.length, 8);
        MemorySegment.copy(REQUEST, 0, request, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, REQUEST.length);
        bridge = new ClockBridge(ClockBridge.systemClocks(), 1_000_000);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException
    {
        if (client.txStamps())
        {
            final long requestsLate = late;
            readSendStamp(client.sentBytes() - 1); // one still queued: the loop's next epoll_wait would read it
            late = requestsLate; // that read was no request's
        }
        System.out.printf(Locale.ROOT, "%nsend stamps (txStamp=%s): %,d requests, %,d stamps read, %,d requests " +
            "whose stamp was not queued yet when their write returned%n", txStamp, requests, stamps, late);
        final boolean allStamped = !client.txStamps() || lastKey >= 0 && ErrorQueue.covers(lastKey,
            client.sentBytes() - 1);
        connection.close();
        arena.close();
        if (!allStamped)
        {
            throw new IllegalStateException("the last bytes sent have no send stamp: the kernel dropped stamps, " +
                "so the score leaves out work the client does");
        }
    }

    /** @return the user send stamp and the kernel's, folded, so that nothing is dead code. */
    @Benchmark
    public long send() throws IOException
    {
        final long sentNs = System.nanoTime();
        final long lastByte = client.sentBytes() + REQUEST.length - 1;
        long at = 0;
        for (int i = 0; i < SPINS && at < REQUEST.length; i++)
        {
            final long n = client.send(at == 0 ? request : request.asSlice(at), REQUEST.length - at);
            if (n < -1)
            {
                throw new IOException("send failed, errno " + client.lastErrno());
            }
            at += Math.max(0, n);
        }
        if (at < REQUEST.length)
        {
            throw new IOException("the socket took " + at + " of " + REQUEST.length + " bytes");
        }
        final long kernelNs = client.txStamps() ? readSendStamp(lastByte) : 0;
        if (++sinceDrain == DRAIN_EVERY)
        {
            sinceDrain = 0;
            drained.clear();
            server.read(drained);
        }
        requests++;
        return sentNs + kernelNs;
    }

    /**
     * What {@code KernelConnection.readSendStamps} does after a write: the error queue read until the request's
     * stamp, the first whose key reaches its last byte, or until it is empty; earlier ones (a stamp that came late)
     * are dropped.
     */
    private long readSendStamp(final long lastByte)
    {
        long kernelNs = -1;
        for (int i = 0; i < 64 && client.readSendStamp() >= 0; i++)
        {
            final long key = client.lastSendKey();
            final long stamp = client.lastSendStampNs();
            if (key >= 0 && stamp >= 0)
            {
                stamps++;
                lastKey = key;
            }
            if (kernelNs < 0 && key >= 0 && stamp >= 0 && ErrorQueue.covers(key, lastByte))
            {
                bridge.sample();
                kernelNs = bridge.toMonotonicNs(stamp);
                break;
            }
        }
        if (kernelNs < 0)
        {
            late++;
        }
        return kernelNs;
    }

    /** A chat request of 300 bytes: the client's head (KernelStreamClient.requestHead), its length, a body. */
    private static byte[] request()
    {
        final String head = "POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:8000\r\n" +
            "content-type: application/json\r\naccept: text/event-stream\r\nconnection: keep-alive\r\n" +
            "content-length: ";
        final String prefix = "{\"model\":\"m\",\"stream\":true,\"max_tokens\":256,\"messages\":[{\"role\":\"user\"," +
            "\"content\":\"";
        final String suffix = "\"}]}";
        final int bodyBytes = 300 - head.length() - "NNN\r\n\r\n".length();
        final String body = prefix + "x".repeat(bodyBytes - prefix.length() - suffix.length()) + suffix;
        return (head + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII);
    }
}
