package io.tokenclock.jmh;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.Collector;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.recording.StreamRecorder;

/**
 * What does the harness cost per streamed chunk, compared with the inter-token latencies it measures?
 * <p>
 * {@link #perChunk} drives the whole per-chunk path the I/O thread runs for every token, on one thread: one clock
 * stamp, SSE framing of a read holding one vLLM-style {@code chat.completion.chunk} of 217 bytes, extraction of the
 * content delta without a JSON tree, the copy of its text into the request's buffer, and the ring-buffer publish;
 * every 64 chunks the collector drains the ring (the cost of draining is spread over the chunks it drains, as it is
 * in a run). Every 256 chunks the request ends and the collector derives its metrics and records them into
 * HdrHistogram, so per-request costs are amortised over a realistic answer length. This is the number the harness's
 * overhead claim rests on; {@code scripts/overhead} relates it to inter-token latencies and a client's CPU budget.
 * <p>
 * The variants run the same path on the other read shapes a client meets, each scored per chunk:
 * <ul>
 * <li>{@link #perChunkSplitRead}: every event arrives in two reads (split inside the JSON), each stamped, so two
 * clock reads and a partial-line copy per chunk: the worst realistic case for framing.</li>
 * <li>{@link #perChunkFourPerRead}: four events per read sharing one stamp, as when the server batches flushes.</li>
 * <li>{@link #perChunkContinuousUsage}: vLLM with {@code continuous_usage_stats}, 337-byte events whose cumulative
 * usage gives per-chunk token counts (so token ITL and tokens-per-chunk are recorded too); the counts advance chunk
 * by chunk, as on the wire.</li>
 * <li>{@link #perChunkMultiToken}: SGLang completions chunks carrying several tokens of {@code text} each.</li>
 * </ul>
 * {@link #nanoTime} is the clock read alone, for scale: the harness cannot measure more finely than its clock, and a
 * per-chunk cost a few times the clock's is the floor any harness pays ({@link ClockBenchmark} has the clock's
 * granularity too).
 * <p>
 * How to read the numbers: divide {@code perChunk} by the ITL you measure. At 250 ns per chunk and a 5 ms ITL the
 * client spends 0.005% of each gap on measurement; the binding constraint is rather the client's CPU at many
 * concurrent streams (1,000 streams at 1 ms ITL is a million chunks a second). Run with {@code -prof gc}:
 * {@code gc.alloc.rate.norm} should be about 0 B/op (JMH's own bookkeeping shows as a few thousandths of a byte).
 * The deterministic version of that allocation check runs in {@code ./tokenclock test} ({@code
 * PerChunkAllocationTest}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PerChunkBenchmark
{
    private static final byte[] READ = Payloads.VLLM_CONTENT_EVENT;
    private static final int SPLIT_AT = 100;
    private static final byte[] FIRST_PART = Payloads.slice(READ, 0, SPLIT_AT);
    private static final byte[] SECOND_PART = Payloads.slice(READ, SPLIT_AT, READ.length);
    private static final byte[] FOUR = Payloads.concat(READ, READ, READ, READ);
    private static final byte[] MULTI_TOKEN = Payloads.event(Payloads.SGLANG_COMPLETIONS_JSON);
    private static final int CHUNKS_PER_REQUEST = 256;
    private static final byte[][] CONTINUOUS_USAGE = Payloads.continuousUsageEvents(CHUNKS_PER_REQUEST);

    private ChunkRecords records;
    private SlotPool pool;
    private Collector collector;
    private StreamRecorder recorder;
    private int chunk;
    private long fakeNow;

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException
    {
        records = new ChunkRecords(1 << 22);
        pool = new SlotPool(2);
        collector = new Collector(records, pool, new MetricRecorders(), null);
        recorder = new StreamRecorder(records);
        begin();
    }

    private void begin() throws InterruptedException
    {
        final RequestSlot slot = pool.acquire(1_000_000_000L);
        slot.phase = RequestSlot.PHASE_MEASURE;
        slot.scheduledNs = System.nanoTime();
        recorder.begin(slot);
        slot.sentNs = slot.scheduledNs;
    }

    @Benchmark
    public long perChunk() throws InterruptedException
    {
        final long now = System.nanoTime();
        recorder.onBytes(READ, 0, READ.length, now);
        afterChunks(1, now);
        return now;
    }

    @Benchmark
    public long perChunkSplitRead() throws InterruptedException
    {
        recorder.onBytes(FIRST_PART, 0, FIRST_PART.length, System.nanoTime());
        final long now = System.nanoTime();
        recorder.onBytes(SECOND_PART, 0, SECOND_PART.length, now);
        afterChunks(1, now);
        return now;
    }

    @Benchmark
    @OperationsPerInvocation(4)
    public long perChunkFourPerRead() throws InterruptedException
    {
        final long now = System.nanoTime();
        recorder.onBytes(FOUR, 0, FOUR.length, now);
        afterChunks(4, now);
        return now;
    }

    @Benchmark
    public long perChunkContinuousUsage() throws InterruptedException
    {
        final long now = System.nanoTime();
        final byte[] read = CONTINUOUS_USAGE[chunk];
        recorder.onBytes(read, 0, read.length, now);
        afterChunks(1, now);
        return now;
    }

    @Benchmark
    public long perChunkMultiToken() throws InterruptedException
    {
        final long now = System.nanoTime();
        recorder.onBytes(MULTI_TOKEN, 0, MULTI_TOKEN.length, now);
        afterChunks(1, now);
        return now;
    }

    @Benchmark
    public long nanoTime()
    {
        return System.nanoTime() + fakeNow;
    }

    /** Drains every 64 chunks and ends the request every 256, as {@link #perChunk} always did. */
    private void afterChunks(final int n, final long now) throws InterruptedException
    {
        final int c = chunk + n;
        chunk = c;
        if ((c & 63) == 0)
        {
            collector.poll();
        }
        if (c == CHUNKS_PER_REQUEST)
        {
            chunk = 0;
            recorder.finish(now, ErrorClass.NONE, null);
            collector.poll();
            begin();
        }
    }
}
