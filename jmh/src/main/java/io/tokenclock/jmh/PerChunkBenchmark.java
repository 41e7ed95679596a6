package io.tokenclock.jmh;

import java.nio.charset.StandardCharsets;
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
 * What does the harness cost per streamed chunk, compared with the inter-token latencies it measures?
 * <p>
 * {@link #perChunk} drives the whole per-chunk path the I/O thread runs for every token, on one thread: one clock
 * stamp, SSE framing of a read holding one vLLM-style {@code chat.completion.chunk} of 220 bytes, extraction of the
 * content delta without a JSON tree, the copy of its text into the request's buffer, and the ring-buffer publish;
 * every 64 chunks the collector drains the ring (the cost of draining is spread over the chunks it drains, as it is
 * in a run). Every 256 chunks the request ends and the collector derives its metrics and records them into
 * HdrHistogram, so per-request costs are amortised over a realistic answer length.
 * <p>
 * {@link #nanoTime} is the clock read alone, for scale: the harness cannot measure more finely than its clock, and a
 * per-chunk cost a few times the clock's is the floor any harness pays.
 * <p>
 * How to read the numbers: divide {@code perChunk} by the ITL you measure. At 200 ns per chunk and a 5 ms ITL the
 * client spends 0.004% of each gap on measurement. Run with {@code -prof gc}: {@code gc.alloc.rate.norm} should be
 * 0 B/op (JMH omits the key when nothing was allocated; read that as 0 only when the other {@code gc.*} keys are
 * there). The deterministic version of that allocation check runs in {@code ./tokenclock test}
 * ({@code PerChunkAllocationTest}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class PerChunkBenchmark
{
    private static final byte[] READ = (
        "data: {\"id\":\"chatcmpl-8f1c\",\"object\":\"chat.completion.chunk\",\"created\":1764400000," +
        "\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" token\"}," +
        "\"logprobs\":null,\"finish_reason\":null}]}\n\n").getBytes(StandardCharsets.UTF_8);
    private static final int CHUNKS_PER_REQUEST = 256;

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
        final int c = ++chunk;
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
        return now;
    }

    @Benchmark
    public long nanoTime()
    {
        return System.nanoTime() + fakeNow;
    }
}
