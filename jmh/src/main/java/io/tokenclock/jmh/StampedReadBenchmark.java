package io.tokenclock.jmh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
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
import io.tokenclock.transport.kernel.StampedSocket;

/**
 * What one stamped read costs: a loopback TCP connection; before each call the benchmark thread writes one 200-byte
 * SSE event on one end (not measured), and the call reads it on the other, three ways. {@code userRead}: one
 * {@code recvmsg} (through FFM) without control messages, then {@code System.nanoTime()} (the syscall and the stamp
 * of today's path, without Netty's buffer and pipeline). {@code kernelRead}: one {@code recvmsg} with
 * {@code SO_TIMESTAMPING}, the control message parsed, the realtime-to-monotonic offset sampled and the stamp
 * converted. {@code kernelEventRead}: the read path the client uses, {@code MSG_PEEK} to the first event's end, then
 * an exact read: one more system call per read.
 * <p>
 * The differences between the three are what stamping by the kernel adds per read; {@code socketKind} {@code user}
 * is a socket without the option (what {@code kernelRead} costs when it falls back). Linux x86-64 only.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1) // the flags of jvm.flags come from io.tokenclock.jmh.Bench, as for every benchmark
public class StampedReadBenchmark
{
    private static final byte[] EVENT = ("c8\r\ndata: {\"choices\":[{\"delta\":{\"content\":\"" + "x".repeat(140) +
        "\"}}]}\n\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @Param({"user", "kernel"})
    public String socketKind;

    private StampedLoopback connection;
    private SocketChannel writer;
    private StampedSocket reader;
    private ByteBuffer event;
    private ClockBridge bridge;

    @Setup(Level.Trial)
    public void open() throws IOException, InterruptedException
    {
        connection = StampedLoopback.open("kernel".equals(socketKind));
        reader = connection.socket();
        writer = connection.peer();
        event = ByteBuffer.allocateDirect(EVENT.length).put(EVENT);
        bridge = new ClockBridge(ClockBridge.systemClocks(), 1_000_000);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException
    {
        connection.close();
    }

    /**
     * Queues one event before each read, outside the measured call: loopback delivers within the write, so the read
     * finds it there and the score is the read alone (JMH's per-invocation setup costs tens of ns, alike in all).
     */
    @Setup(Level.Invocation)
    public void write() throws IOException
    {
        event.clear();
        while (event.hasRemaining())
        {
            writer.write(event);
        }
    }

    /** @return the read's bytes and stamp folded, so that nothing is dead code. */
    private long spin(final boolean oneEvent)
    {
        int n;
        while ((n = oneEvent ? reader.readEvent() : reader.readAll()) == -1)
        {
            Thread.onSpinWait(); // loopback delivers within the write; this rarely turns
        }
        return n;
    }

    @Benchmark
    public long userRead()
    {
        return spin(false) + System.nanoTime();
    }

    @Benchmark
    public long kernelRead()
    {
        final long n = spin(false);
        final long user = bridge.sample();
        final long k = reader.lastStampNs();
        return n + (k >= 0 ? Math.min(bridge.toMonotonicNs(k), user) : user);
    }

    @Benchmark
    public long kernelEventRead()
    {
        final long n = spin(true);
        final long user = bridge.sample();
        final long k = reader.lastStampNs();
        return n + (k >= 0 ? Math.min(bridge.toMonotonicNs(k), user) : user);
    }
}
