package io.tokenclock.jmh;

import java.util.concurrent.TimeUnit;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.RingBuffer;
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
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;

/**
 * Stage 3 of the per-chunk path: handing one chunk's record from the I/O thread to the collector.
 * <p>
 * Each content-bearing chunk becomes a 24-byte record (32 with Agrona's header) written in place into a many-to-one
 * Agrona ring buffer ({@link ChunkRecords#publishChunk}: claim, four puts, commit), and the collector thread drains
 * the ring in batches.
 * The benchmarks separate the hand-over itself from what the collector does with it:
 * <ul>
 * <li>{@link #publishAndDrainOne}: publish one record, drain it at once with a handler that only reads it: the ring's
 * cost per record with no batching, an upper bound.</li>
 * <li>{@link #publishAndDrainBatch}: publish 64 records, then drain all 64 in one {@code read}, as the collector does
 * when it falls behind by a batch; scored per record ({@code @OperationsPerInvocation(64)}).</li>
 * <li>{@link #publishAndCollect}: publish through {@link ChunkRecords} and drain through the real {@link Collector}
 * ({@code poll()} every 64 chunks), which appends each chunk to its request's timeline; every 256 chunks the request
 * ends and the collector derives its metrics and records them into the HdrHistogram recorders (about 270 values).
 * Per chunk, this is everything downstream of parsing: {@code PerChunkBenchmark.perChunk} minus framing, parsing and
 * the text copy.</li>
 * </ul>
 * Everything runs on one thread, so the numbers exclude the cross-core cache traffic a real run pays when the
 * collector drains on another core (typically tens of ns per cache line moved, partly hidden by batching); that
 * effect is not measured here, since on the 2-core development VM a two-thread benchmark measures the scheduler more
 * than the ring.
 * <p>
 * How to read the numbers: the ring should cost a small multiple of a clock read per record, and batching should make
 * it cheaper per record, not dearer. {@code publishAndCollect} minus {@code publishAndDrainBatch} is the collector's
 * own per-chunk work (timeline append and amortised metric derivation and recording). All must be 0 B/op: the
 * records live in a preallocated direct buffer and the timelines in the slots' reused arrays.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RingBufferBenchmark implements MessageHandler
{
    private static final int BATCH = 64;
    private static final int CHUNKS_PER_REQUEST = 256;

    private ChunkRecords records;
    private RingBuffer ring;
    private SlotPool pool;
    private Collector collector;
    private RequestSlot slot;
    private int chunk;
    private long now;
    private long sink;

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException
    {
        records = new ChunkRecords(1 << 22);
        ring = records.ring();
        pool = new SlotPool(2);
        collector = new Collector(records, pool, new MetricRecorders(), null);
        now = 1_000_000_000L;
        beginRequest();
    }

    @Override
    public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        sink += buffer.getLong(index + ChunkRecords.NS_OFFSET);
    }

    @Benchmark
    public long publishAndDrainOne()
    {
        records.publishChunk(0, ++now, RequestSlot.TOKENS_UNKNOWN, RequestSlot.CHUNK_OUTPUT);
        ring.read(this);
        return sink;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long publishAndDrainBatch()
    {
        final ChunkRecords r = records;
        for (int i = 0; i < BATCH; i++)
        {
            r.publishChunk(0, ++now, RequestSlot.TOKENS_UNKNOWN, RequestSlot.CHUNK_OUTPUT);
        }
        ring.read(this);
        return sink;
    }

    @Benchmark
    public long publishAndCollect() throws InterruptedException
    {
        now += 5_000_000L;
        records.publishChunk(slot.index(), now, RequestSlot.TOKENS_UNKNOWN, RequestSlot.CHUNK_OUTPUT);
        chunk++;
        if ((chunk & (BATCH - 1)) == 0)
        {
            collector.poll();
        }
        if (chunk == CHUNKS_PER_REQUEST)
        {
            slot.endNs = now;
            records.publishEnd(slot.index(), now);
            collector.poll();
            beginRequest();
        }
        return now;
    }

    private void beginRequest() throws InterruptedException
    {
        slot = pool.acquire(1_000_000_000L);
        slot.phase = RequestSlot.PHASE_MEASURE;
        slot.scheduledNs = now;
        slot.sentNs = now;
        chunk = 0;
    }
}
