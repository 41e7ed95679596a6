package io.tokenclock.jmh;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.Collector;
import io.tokenclock.transport.KernelReadPath;
import io.tokenclock.transport.PacketTapChoice;

/**
 * What does a streamed chunk cost on the kernel-stamped client, from the socket on?
 * <p>
 * The kernel-stamped client ({@code --stamping kernel}) reads with its own epoll loop over FFM. For every chunk its
 * I/O thread waits in {@code epoll_wait}, peeks at what is queued ({@code recvmsg} with {@code MSG_PEEK}) to find the
 * first event's end, reads exactly that far ({@code recvmsg} with the {@code SCM_TIMESTAMPING} control message),
 * parses the control message, samples the realtime-to-monotonic offset and converts the stamp, records the receive
 * delay, copies the bytes to the heap, decodes HTTP ({@code HttpResponseDecoder}), frames and parses the event and
 * publishes it; a last {@code recvmsg} finds the socket empty. Once a request it takes the slot off its queue (the
 * load generator's eventfd), writes the request head and body, and on the last read classifies the answer and keeps
 * the connection for the next one.
 * <p>
 * {@link #perChunkFromSocket} drives all of it with the production classes over a real loopback TCP connection
 * ({@link KernelReadPath}: a {@code KernelLoop} turned on this thread). One operation is the server's write of one
 * HTTP chunk holding one 217-byte vLLM content event (one {@code write} on a plain NIO socket, {@code TCP_NODELAY})
 * and one turn of the client's loop that reads and records it; every 64 chunks the collector drains the ring. Every
 * 256 chunks the answer ends and the next operation submits a new request and turns the loop to send it, then the
 * server reads it off its socket. The answer is framed exactly as {@link PerChunkNettyBenchmark}'s.
 * <p>
 * What the score includes that a client's CPU does not pay: the server's write. On loopback, TCP delivers into the
 * receiving socket inside the sender's {@code write} (the receive path runs in that call's softirq), so that the
 * loop's turn finds the bytes queued and never sleeps; the write, with the receive processing the kernel does for
 * any client, is in the score. {@link StampedReadBenchmark} writes in a per-invocation setup instead (which the exact
 * allocation check cannot run) and so measures the read alone; subtract its {@code kernelEventRead} for the order of
 * the rest. A real NIC, interrupts and GRO are not here.
 * <p>
 * Allocation: none per chunk. The per-request allocation (the response head parsed into strings, the request's
 * {@code Content-Length} encoded) is spread over the 256 chunks of the answer; its bound ({@code @AllocationBound})
 * is below one object per chunk, so that the allocation gate ({@code ReadPathAllocationGateTest}) fails on any
 * per-chunk allocation. An allocation profile of this path showed the loop's deadline scan taking an
 * {@code Iterator} per turn (so per chunk) where C2 had not removed it; the scan now goes by index. Linux x86-64 only.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PerChunkKernelBenchmark
{
    private final ReadPathRequests requests = new ReadPathRequests();
    private KernelReadPath path;

    @Setup(Level.Trial)
    public void setUp() throws IOException
    {
        final ChunkRecords records = new ChunkRecords(1 << 22);
        requests.open(new Collector(records, requests.pool(), new MetricRecorders(), null));
        path = new KernelReadPath(records, packetTap());
    }

    /** @return the client's packet tap: {@code off} here ({@link PerChunkTapBenchmark} taps {@code lo}). */
    protected PacketTapChoice packetTap()
    {
        return PacketTapChoice.OFF_CHOICE;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException
    {
        final long[] reads = path.reads();
        requests.check(); // before the close, which cuts the answer in flight
        path.close();
        check(reads);
    }

    /**
     * Fails a trial that measured another path than its own.
     *
     * @param reads {@link KernelReadPath#reads()}: stamped, fallen back to a user stamp, backlog, tap, tap missed.
     */
    protected void check(final long[] reads)
    {
        if (reads[0] == 0 || reads[1] != 0)
        {
            throw new IllegalStateException(reads[1] + " of " + reads[0] + " reads fell back to a user stamp");
        }
    }

    @Benchmark
    @AllocationBound(bytesPerOp = 16, why = "per request, not per chunk: the response head parsed into Strings " +
        "(HttpResponseDecoder.parseHead: split lines, header values) and the request's Content-Length encoded " +
        "(KernelConnection.encode), about 2.5 KB a request over its 256 chunks; measured 9.9 B/op on 2026-12-02 " +
        "(AllocationCheck). One object per chunk (16 B or more) breaks the bound")
    public int perChunkFromSocket() throws InterruptedException, IOException
    {
        if (requests.startsRequest())
        {
            path.submit(requests.next());
        }
        path.serverWrite(requests.read());
        path.turn();
        return requests.afterRead();
    }
}
