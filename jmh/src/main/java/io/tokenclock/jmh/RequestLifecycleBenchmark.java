package io.tokenclock.jmh;

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
import org.openjdk.jmh.annotations.Warmup;

import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.Collector;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.recording.StreamRecorder;

/**
 * What the harness pays once per request, around the chunks: setting up, ending, and deriving the metrics.
 * <p>
 * One operation is one whole minimal request through the measurement core, all on one thread:
 * {@link SlotPool#acquire} (a semaphore permit and a reset slot), {@link StreamRecorder#begin}, a role chunk and two
 * one-token content chunks (separate reads), a read holding the usage chunk and {@code [DONE]},
 * {@link StreamRecorder#finish} (end-of-stream flush, outcome classification, END record), and
 * {@link Collector#poll} processing the two chunk records and the END record: metric derivation
 * ({@code RequestMetrics.compute}), recording of about a dozen values into the HdrHistogram recorders, counters, and
 * release of the slot. Two content chunks are the fewest that define every metric (TTST, inter-chunk latency, TPOT),
 * so every recording branch runs.
 * <p>
 * Why a whole request and not {@code begin}/{@code finish} alone: the END record can only be processed after real
 * chunks (a request without one is a {@code no_content} error and takes the error branch), and the per-request work is
 * spread across the I/O thread and the collector. To get the per-request overhead alone, subtract the four events'
 * per-chunk cost, roughly {@code 4 x PerChunkBenchmark.perChunk}, from the score (an estimate: the role and usage
 * chunks are parsed but publish nothing).
 * <p>
 * How to read the number: divide it by the answer length to amortise it per token. At 256 tokens per answer, 1 µs per
 * request adds 4 ns per chunk. It must be 0 B/op: slots, the metrics flyweight and the recorders are all reused.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RequestLifecycleBenchmark
{
    private static final byte[] ROLE = Payloads.event(Payloads.VLLM_ROLE_JSON);
    private static final byte[] CONTENT = Payloads.VLLM_CONTENT_EVENT;
    private static final byte[] USAGE_AND_DONE = Payloads.concat(
        Payloads.event(Payloads.VLLM_USAGE_JSON), Payloads.bytes("data: [DONE]\n\n"));

    private ChunkRecords records;
    private SlotPool pool;
    private Collector collector;
    private StreamRecorder recorder;
    private long now;

    @Setup(Level.Trial)
    public void setUp()
    {
        records = new ChunkRecords(1 << 22);
        pool = new SlotPool(2);
        collector = new Collector(records, pool, new MetricRecorders(), null);
        recorder = new StreamRecorder(records);
        now = 1_000_000_000L;
    }

    @Benchmark
    public long request() throws InterruptedException
    {
        now = minimalRequest(pool, recorder, now);
        collector.poll();
        return collector.counters().get(Collector.MEASURED_OK);
    }

    /**
     * The I/O side of one minimal request, stamps starting at {@code startNs}: slot acquire, begin, a role chunk, two
     * one-token content chunks, usage and [DONE], finish. Shared with {@link RequestStageBenchmark}.
     *
     * @return the last stamp used.
     */
    static long minimalRequest(final SlotPool pool, final StreamRecorder recorder, final long startNs)
        throws InterruptedException
    {
        long t = startNs;
        final RequestSlot slot = pool.acquire(1_000_000_000L);
        slot.phase = RequestSlot.PHASE_MEASURE;
        slot.scheduledNs = t;
        recorder.begin(slot);
        slot.sentNs = t += 100_000L;
        recorder.onBytes(ROLE, 0, ROLE.length, t += 30_000_000L);
        recorder.onBytes(CONTENT, 0, CONTENT.length, t += 1_000L);
        recorder.onBytes(CONTENT, 0, CONTENT.length, t += 8_000_000L);
        recorder.onBytes(USAGE_AND_DONE, 0, USAGE_AND_DONE.length, t += 8_000_000L);
        recorder.finish(t += 1_000L, ErrorClass.NONE, null);
        return t;
    }
}
