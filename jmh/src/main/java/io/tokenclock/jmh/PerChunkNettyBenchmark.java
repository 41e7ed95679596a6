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
 * every read goes through Netty: a pooled buffer, the stamp handler, {@code HttpClientCodec} taking the chunked
 * transfer coding apart (chunk-size line, content, CRLF) into {@code HttpContent} messages, and
 * {@code ResponseHandler} copying each content's bytes out of the buffer into its reused array. Once a request, the
 * client builds and encodes the request ({@code DefaultFullHttpRequest}, its headers, the write's promise and
 * listener), arms the request's watchdog timer (a scheduled future), and on the last read classifies the answer and
 * hands the connection back to its pool.
 * <p>
 * {@link #perChunkFromRead} drives all of it with the production classes ({@link NettyReadPath}: a real
 * {@code StreamingClient} whose connection is an {@code EmbeddedChannel} carrying the pipeline the client installs
 * on every connection). One operation is one network read holding one HTTP chunk with one 217-byte vLLM content
 * event, stamped, decoded, copied, framed, parsed and published to the ring; every 64 reads the collector drains it.
 * Every 256 reads the answer ends (its last read also holds the usage event, {@code [DONE]} and the zero-length
 * chunk), the collector derives and records the request's metrics, and the next operation submits a new request
 * through the client's pool, as {@link PerChunkBenchmark} begins one every 256 chunks. The head of each answer
 * arrives with its first event.
 * <p>
 * What is not in it: the {@code read(2)} system call and the epoll wake-up (the bytes are written into the pooled
 * buffer instead, standing in for the kernel's copy), and TLS. {@link StampedReadBenchmark} measures a loopback read
 * alone; {@link PerChunkKernelBenchmark} is the other transport from its socket on, system calls included.
 * <p>
 * How to read the number: subtract {@code PerChunkBenchmark.perChunk} to get what Netty's codec and the adapter add
 * per chunk; the per-request work, spread over 256 chunks, is inside it too.
 * <p>
 * Allocation: this path is not allocation-free, and the reason is Netty's HTTP decoder, not tokenclock's code. Per
 * HTTP chunk {@code HttpObjectDecoder} allocates a {@code DefaultHttpContent} and a sliced buffer, and without
 * {@code sun.misc.Unsafe} (which Netty 4.2 leaves off on JDK 24 and later) copying from a direct buffer into an
 * array duplicates a {@code ByteBuffer}, for the chunk-size line and for the handler's copy: about 200 B a chunk in
 * all, which a client streaming a million chunks a second turns into 200 MB/s of garbage. The allocation gate
 * ({@code ReadPathAllocationGateTest}) holds the measured figure as a bound ({@code @AllocationBound}), so that it
 * cannot grow unnoticed; reaching zero means decoding HTTP with tokenclock's own {@code HttpResponseDecoder}, as the
 * kernel-stamped client does ({@link PerChunkKernelBenchmark}: no allocation per chunk).
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
    @AllocationBound(bytesPerOp = 240, why = "Netty's HTTP decoder, per HTTP chunk: a DefaultHttpContent, a sliced " +
        "ByteBuf (readRetainedSlice; the adaptive allocator, Netty 4.2's default, does not recycle slices) and " +
        "DirectByteBuffer duplicates (without Unsafe, Netty's default on JDK 24+, a direct buffer's getBytes into an " +
        "array duplicates a ByteBuffer: the chunk-size line and ResponseHandler's copy), plus the per-request " +
        "objects (request, headers, promise, listener, timer) over 256 chunks; the leak detector is off (setUp). " +
        "Measured 138.5-204 B/op on 2026-12-02 (AllocationCheck, four runs at load 5-15: the JIT's escape " +
        "analysis does not always take the same objects away). Zero needs a decoder that is not Netty's " +
        "(HttpResponseDecoder, as the kernel client has)")
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
