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

import io.tokenclock.transport.kernel.ReadBatch;
import io.tokenclock.transport.kernel.StampedSocket;

/**
 * What does it cost to read a backlog with each event's own stamp, per event, the old way and the new?
 * <p>
 * A client that falls behind finds several events queued in its socket. To keep each event's own kernel stamp it must
 * not read them in one {@code recvmsg} (TCP would give them all the last segment's stamp), so the kernel client used
 * to peek ({@code MSG_PEEK}) and then read exactly to the first event's end, per event: two system calls an event,
 * just when it is late. Now one peek shows every queued event and one {@code recvmmsg} takes them all, one message
 * per event, each with its own {@code SCM_TIMESTAMPING} ({@code StampedSocket.readEvents}); with the packet tap, whose
 * ring stamps every segment, a single plain read takes everything and the events are cut in user space
 * ({@code readSplit}; the tap's lookups are not in this score: {@link PerChunkTapBenchmark} has them).
 * <p>
 * Before each invocation (not measured) the benchmark thread writes {@link #events} events of 200 bytes, each its own
 * {@code write} with {@code TCP_NODELAY}, so each is its own segment in the queue; the call then reads them all. The
 * score is per invocation: divide by {@code events} for a per-event cost. {@code perEvent} is the old path
 * ({@code readEvent} until the queue is empty: 2 system calls an event); {@code batched} the new one without the tap
 * (a peek and one {@code recvmmsg} for the lot; a peek and one {@code recvmsg} for a single event); {@code split} the
 * one with the tap (one {@code recvmsg}). At {@code events = 1}, {@code perEvent} and {@code batched} make the same two
 * calls, and the cut pays only where there is a backlog; {@code split} saves the peek on every read.
 * <p>
 * Allocation: not checked here. {@code AllocationCheck} cannot run a per-invocation setup (nor can it run
 * {@code StampedReadBenchmark}'s), and JMH's {@code -prof gc} counts its own per-invocation bookkeeping with the call's
 * (50-260 B/op even for {@code perEvent}, which the gate holds to nothing). The read path's allocation is held by
 * {@link PerChunkKernelBenchmark} and {@link PerChunkTapBenchmark} in the gate. Linux x86-64 only; no capability
 * needed.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BacklogReadBenchmark
{
    private static final byte[] EVENT = ("c8\r\ndata: {\"choices\":[{\"delta\":{\"content\":\"" + "x".repeat(140) +
        "\"}}]}\n\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @Param({"1", "8"})
    public int events;

    private StampedLoopback connection;
    private SocketChannel writer;
    private StampedSocket reader;
    private ByteBuffer event;
    private final ReadBatch batch = new ReadBatch();

    @Setup(Level.Trial)
    public void open() throws IOException, InterruptedException
    {
        connection = StampedLoopback.open(true);
        reader = connection.socket();
        writer = connection.peer();
        writer.socket().setTcpNoDelay(true);
        event = ByteBuffer.allocateDirect(EVENT.length).put(EVENT);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException
    {
        connection.close();
    }

    /** Queues {@link #events} events, one segment each, outside the measured call. */
    @Setup(Level.Invocation)
    public void write() throws IOException
    {
        for (int i = 0; i < events; i++)
        {
            event.clear();
            while (event.hasRemaining())
            {
                writer.write(event);
            }
        }
    }

    /** @return the bytes read and the last stamp, folded; reads until every byte written has been read. */
    @Benchmark
    public long perEvent()
    {
        long sum = 0;
        long left = (long)events * EVENT.length;
        while (left > 0)
        {
            final int n = reader.readEvent();
            if (n > 0)
            {
                left -= n;
                sum += n + reader.lastStampNs();
            }
        }
        return sum;
    }

    @Benchmark
    public long batched()
    {
        return readPieces(false);
    }

    @Benchmark
    public long split()
    {
        return readPieces(true);
    }

    /** @return the last piece's stamp and the pieces, folded; reads until every byte written has been read. */
    private long readPieces(final boolean split)
    {
        long sum = 0;
        long left = (long)events * EVENT.length;
        while (left > 0)
        {
            final int pieces = split ? reader.readSplit(batch) : reader.readEvents(batch);
            if (pieces > 0)
            {
                left -= batch.end(pieces - 1);
                sum += batch.stamp(pieces - 1) + pieces;
            }
        }
        return sum;
    }
}
