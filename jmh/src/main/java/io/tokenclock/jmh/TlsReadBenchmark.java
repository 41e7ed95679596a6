package io.tokenclock.jmh;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.GeneralSecurityException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLException;

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
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import io.tokenclock.transport.KernelTlsPair;
import io.tokenclock.transport.kernel.ClockBridge;
import io.tokenclock.transport.kernel.StampedSocket;

/**
 * What does TLS add, per streamed event, to the kernel-stamped read?
 * <p>
 * Over https the kernel client stamps ciphertext as it arrives and decrypts it afterwards: each read is
 * {@link StampedSocket#readRecord} ({@code MSG_PEEK}, the TLS record boundary found in the peeked bytes, then a
 * stamped {@code recvmsg} to that record's end), and the record then goes through {@code KernelTls}: copied to the
 * heap and {@code SSLEngine.unwrap}ped, its plaintext handed on within the read that completed it. One operation is
 * the read of one 200-byte SSE event (the HTTP chunk that carries a vLLM content delta) on a loopback TCP
 * connection, where a {@code TCP_NODELAY} server wrote it in one write; before each call, outside the measured time,
 * the benchmark thread writes it (per-invocation setup, as in {@link StampedReadBenchmark}). {@code path}:
 * <ul>
 * <li>{@code plain}: the http read: {@link StampedSocket#readEvent} (peek to the event's end, stamped read), the
 * stamp converted to the monotonic clock, the event copied to the heap (where {@code KernelConnection.onRead} hands
 * it to the HTTP decoder).</li>
 * <li>{@code tls}: the https read of the same event, written by the server as one TLS 1.3 record (222 bytes with
 * {@code TLS_AES_128_GCM_SHA256}, the JDK's first choice): {@link StampedSocket#readRecord}, the same stamp
 * conversion, then {@code KernelTls.receive} (the copy to the heap) and {@code KernelTls.unwrap} (the engine's
 * decrypt and its checks, the plaintext handed to the sink).</li>
 * <li>{@code unwrap}: the TLS step alone, with no socket: the same record, from native memory, through
 * {@code receive} and {@code unwrap}.</li>
 * </ul>
 * How to read it: {@code tls} minus {@code plain} is what TLS adds per chunk on this path (the record boundary in
 * place of the event boundary, 22 more bytes read, the decrypt); {@code unwrap} says how much of that is the engine,
 * and {@code tls} minus {@code unwrap} is the stamped read of ciphertext, to be compared with {@code plain}. The
 * server's encryption and write are outside the score (the setup), the JMH setup call itself is inside it alike in
 * all three (tens of ns). The engine is the client's own (from {@code TlsTrust.nettyContext()}, the JDK provider),
 * the certificate a throwaway one ({@link KernelTlsPair}); a real NIC, interrupts, GRO and larger records are not
 * here.
 * <p>
 * Allocation: the plain path allocates nothing; the TLS path 1,552 B per record, all inside the JDK's engine (about
 * three quarters SunJCE's AES-GCM, set up again for every record; the rest the record layer's buffers and results),
 * none in {@code KernelTls}' own code ({@code results/jmh/kernel-stamps/}: an allocation profile). {@code -prof gc}
 * counts the setup too (the server's {@code wrap} allocates as much again), so each fork also prints the bytes its
 * thread allocated inside the measured calls alone ({@code client-side B/op}: thread-allocated bytes read at the end
 * of the setup and at the start of the per-invocation teardown, over the measurement iterations), and how many reads
 * found nothing queued (a spin: loopback deferred the delivery). The setup helpers run per invocation, which
 * {@code tools.AllocationCheck} does not run. Linux x86-64 only.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// The engine's path reaches C2 late: at load 3-8 on the 2-core VM the tls case took 150-760 us/op in its first second
// and settled after five to nine; ten seconds of warm-up for all three, so that the table compares compiled code.
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1) // the flags of jvm.flags come from io.tokenclock.jmh.Bench, as for every benchmark
public class TlsReadBenchmark
{
    /** One HTTP chunk of one SSE event, 200 bytes in all (a 194-byte event, its chunk size line and CRLF). */
    private static final byte[] EVENT = ("c2\r\ndata: {\"choices\":[{\"delta\":{\"content\":\"" + "x".repeat(148) +
        "\"}}]}\n\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int SPINS = 10_000_000;

    @Param({"plain", "tls", "unwrap"})
    public String path;

    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
    private final byte[] heap = new byte[StampedSocket.READ_BYTES];
    private final ByteBuffer event = ByteBuffer.allocateDirect(EVENT.length).put(EVENT);
    private KernelTlsPair pair;
    private StampedSocket reader;
    private ServerSocketChannel listener;
    private SocketChannel writer;
    private ClockBridge bridge;
    private boolean measuring;
    private long markBytes;
    private long measuredBytes;
    private long measuredOps;
    /** Reads that found nothing queued yet (loopback's delivery deferred to {@code ksoftirqd}): each is a spin. */
    private long emptyReads;
    private long calls;

    @Setup(Level.Trial)
    public void open() throws IOException, GeneralSecurityException, InterruptedException
    {
        bridge = new ClockBridge(ClockBridge.systemClocks(), 1_000_000);
        if (!"plain".equals(path))
        {
            pair = new KernelTlsPair();
            reader = pair.socket();
            return;
        }
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        reader = StampedSocket.connect(InetAddress.getLoopbackAddress(),
            ((InetSocketAddress)listener.getLocalAddress()).getPort(), true);
        writer = listener.accept();
        writer.socket().setTcpNoDelay(true);
        for (int i = 0; i < 1_000 && reader.finishConnect() != 0; i++)
        {
            Thread.sleep(1);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException
    {
        System.out.printf(Locale.ROOT, "%nclient-side B/op (path=%s): %.1f over %,d measured calls; %,d empty " +
            "reads in %,d calls%n", path, measuredOps == 0 ? 0.0 : (double)measuredBytes / measuredOps, measuredOps,
            emptyReads, calls);
        if (pair != null)
        {
            pair.close();
            return;
        }
        reader.close();
        writer.close();
        listener.close();
    }

    /** Counts allocation only in the measurement iterations, when C2 has compiled the path. */
    @Setup(Level.Iteration)
    public void iteration(final IterationParams params)
    {
        measuring = params.getType() == IterationType.MEASUREMENT;
    }

    /**
     * The server's side, outside the measured call: the event written (plain), encrypted into one record and written
     * (tls), or encrypted into native memory (unwrap). Loopback delivers within the write, so the read finds it.
     */
    @Setup(Level.Invocation)
    public void serverSends() throws IOException
    {
        event.clear();
        if (pair == null)
        {
            while (event.hasRemaining())
            {
                writer.write(event);
            }
        }
        else
        {
            pair.serverWrap(event);
            if ("tls".equals(path))
            {
                pair.serverWrite();
            }
        }
        markBytes = threads.getCurrentThreadAllocatedBytes();
    }

    @TearDown(Level.Invocation)
    public void countAllocation()
    {
        final long bytes = threads.getCurrentThreadAllocatedBytes() - markBytes;
        if (measuring)
        {
            measuredBytes += bytes;
            measuredOps++;
        }
    }

    /** @return the plaintext bytes and the read's stamp folded, so that nothing is dead code. */
    @Benchmark
    public long readEvent() throws SSLException
    {
        calls++;
        if (pair == null)
        {
            return plainRead();
        }
        return "tls".equals(path) ? tlsRead() : pair.decrypt(pair.serverRecord(), pair.serverRecordBytes());
    }

    private long plainRead()
    {
        final int n = spin(false);
        final long stampNs = stamp();
        MemorySegment.copy(reader.data(), ValueLayout.JAVA_BYTE, 0, heap, 0, n);
        return n + heap[0] + stampNs;
    }

    private long tlsRead() throws SSLException
    {
        for (int i = 0; i < SPINS; i++)
        {
            final int n = spin(true);
            final long stampNs = stamp();
            final long plaintext = pair.decrypt(reader.data(), n);
            if (plaintext != 0)
            {
                return plaintext + stampNs;
            }
        }
        throw new IllegalStateException("no whole record came");
    }

    /** @return the bytes of one stamped read (an event, or a TLS record); loopback delivered them in the setup. */
    private int spin(final boolean record)
    {
        for (int i = 0; i < SPINS; i++)
        {
            final int n = record ? reader.readRecord() : reader.readEvent();
            if (n > 0)
            {
                return n;
            }
            if (n != -1)
            {
                throw new IllegalStateException("read failed: " + n + ", errno " + reader.lastErrno());
            }
            emptyReads++;
            Thread.onSpinWait();
        }
        throw new IllegalStateException("nothing to read");
    }

    /** The read's kernel stamp on the monotonic clock, never later than now (the client's conversion). */
    private long stamp()
    {
        final long userNs = bridge.sample();
        final long kernelNs = reader.lastStampNs();
        return kernelNs >= 0 ? Math.min(bridge.toMonotonicNs(kernelNs), userNs) : userNs;
    }
}
