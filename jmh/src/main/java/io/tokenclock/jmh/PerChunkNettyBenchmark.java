package io.tokenclock.jmh;

import java.util.concurrent.TimeUnit;

import io.netty.util.ResourceLeakDetector;
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
import io.tokenclock.transport.NettyReadPath;

/**
 * What does a streamed chunk cost on the Netty client, from the network read's buffer on, rather than from
 * {@code StreamRecorder.onBytes} on?
 * <p>
 * {@link PerChunkBenchmark} starts where the core starts: a byte array and a stamp. Before that, on the event loop,
 * every read goes through Netty: a pooled buffer, the stamp handler, and {@code ResponseHandler}, which copies the
 * read's bytes out of the buffer into its reused array and takes the chunked transfer coding apart (chunk-size line,
 * content, CRLF) with {@code HttpResponseDecoder}, the kernel-stamped client's decoder. Once a request, the
 * client builds and encodes the request ({@code DefaultFullHttpRequest}, its headers, the write's promise and
 * listener), arms the request's watchdog timer (a scheduled future), and on the last read classifies the answer and
 * hands the connection back to its pool.
 * <p>
 * {@link #perChunkFromRead} drives all of it with the production classes ({@link NettyReadPath}: a real
 * {@code StreamingClient} whose connection is an {@code EmbeddedChannel} carrying the pipeline the client installs
 * on every connection). One operation is one network read holding one HTTP chunk with one 217-byte vLLM content
 * event, stamped, copied out of the buffer, decoded, framed, parsed and published to the ring; every 64 reads the
 * collector drains it. Every 256 reads the answer ends (its last read also holds the usage event, {@code [DONE]} and
 * the zero-length chunk), the collector derives and records the request's metrics, and the next operation submits a
 * new request through the client's pool, as {@link PerChunkBenchmark} begins one every 256 chunks. The head of each
 * answer arrives with its first event.
 * <p>
 * What is not in it: the {@code read(2)} system call and the epoll wake-up (the bytes are written into the pooled
 * buffer instead, standing in for the kernel's copy into it), and TLS. {@link StampedReadBenchmark} measures a
 * loopback read alone; {@link PerChunkKernelBenchmark} is the other transport from its socket on, system calls
 * included. Netty's epoll read itself, without {@code sun.misc.Unsafe} (off in Netty 4.2 on JDK 24 and later), takes
 * the buffer's {@code internalNioBuffer}, a new {@code ByteBuffer} slice for every read: that object is Netty's, in
 * the stand-in's place, and not counted here.
 * <p>
 * How to read the number: subtract {@code PerChunkBenchmark.perChunk} to get what Netty's pipeline and the adapter
 * add per chunk; the per-request work, spread over 256 chunks, is inside it too.
 * <p>
 * Allocation: nothing per chunk from the buffer on; what is left (about 19 B an operation) is the per-request objects
 * (the request, its headers, the write's promise and listener, the watchdog's scheduled future) over 256 chunks.
 * Until 2026-12-03 the response went through Netty's {@code HttpClientCodec}, which allocated per HTTP chunk (a
 * {@code DefaultHttpContent}, a sliced buffer, a {@code ByteBuffer} duplicate for the chunk-size line), and the
 * handler's copy out of a direct buffer duplicated another view: 182 B a chunk in most JVMs, 93 or 272 B in others,
 * depending on what C2's escape analysis took away (the gate failed by chance). The handler now decodes with
 * tokenclock's own {@code HttpResponseDecoder}, as the kernel-stamped client does, and copies without a view
 * ({@code ResponseHandler.copy}); the gate ({@code ReadPathAllocationGateTest}) holds the path to a bound below one
 * object per chunk above the figure.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PerChunkNettyBenchmark
{
    private final ReadPathRequests requests = new ReadPathRequests();
    private NettyReadPath path;

    @Setup(Level.Trial)
    public void setUp()
    {
        // Netty's leak detector (SIMPLE by default) records one buffer in 128 with a stack trace, so its objects
        // come and go by chance: 151-246 B per chunk over runs with it on from the start. Off, the count is closer to
        // the decoder's own (138.5-204 B over four runs on 2026-12-02).
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        final ChunkRecords records = new ChunkRecords(1 << 22);
        requests.open(new Collector(records, requests.pool(), new MetricRecorders(), null));
        path = new NettyReadPath(records);
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        requests.check(); // before the close, which cuts the answer in flight
        path.close();
    }

    @Benchmark
    @AllocationBound(bytesPerOp = 32, why = "nothing per chunk: the per-request objects (request, headers, promise, " +
        "listener, timer; about 4.8 KB) over 256 chunks. Measured 18.8-19.0 B/op on 2026-12-03 (AllocationCheck, " +
        "after the kernel path in the same JVM and under two busy loops, with and without C2's load feedback at 30); " +
        "one more object per chunk (16 B or more) goes over")
    public int perChunkFromRead() throws InterruptedException
    {
        if (requests.startsRequest())
        {
            path.submit(requests.next());
        }
        path.read(requests.read());
        return requests.afterRead();
    }
}
