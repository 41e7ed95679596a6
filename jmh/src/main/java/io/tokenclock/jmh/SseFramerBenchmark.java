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

import io.tokenclock.framing.SseEventHandler;
import io.tokenclock.framing.SseFramer;

/**
 * Stage 1 of the per-chunk path: cutting a network read into Server-Sent Events, on bytes.
 * <p>
 * {@link SseFramer} scans each read for line ends, keeps {@code data:} lines, drops comments, and hands every
 * complete event to its handler with the stamp of the read that completed it. Three read shapes occur in practice,
 * and each is a benchmark here, all on the same 217-byte vLLM content event ({@link Payloads#VLLM_CONTENT_EVENT}):
 * <ul>
 * <li>{@link #oneEventPerRead}: one read holds exactly one event, the common case at low load (the server flushes
 * every token and the client keeps up). The {@code data:} value is copied once, from the read into the framer's
 * event buffer, and handed to the handler from there.</li>
 * <li>{@link #fourEventsPerRead}: one read holds four events, what a client sees when the server batches flushes or
 * the client falls behind. Scored per event ({@code @OperationsPerInvocation(4)}), so it compares directly with
 * the one-event case: it should be no dearer per event.</li>
 * <li>{@link #eventSplitAcrossReads}: one event arrives in two reads (split after 100 bytes, inside the JSON), what
 * TCP segmentation or a small receive buffer does. The first part is copied into the framer's line buffer, the
 * second appended to it, and the completed line copied into the event buffer: two copies instead of one, and two
 * calls. Scored per event, i.e. per two reads.</li>
 * </ul>
 * The handler only sums lengths and stamps, so the score is framing alone; parsing the JSON is
 * {@link ChunkParserBenchmark}'s subject.
 * <p>
 * How to read the numbers: framing is a byte scan, so expect it to scale with event size (divide by 217 for ns per
 * byte) and to be a fraction of {@code PerChunkBenchmark.perChunk}. The split case costs more than the one-event case
 * by the extra line-buffer copy and a second call; a large gap would mean the slow path does something extra. All
 * three must show 0 B/op under {@code -prof gc}: the framer's buffers are sized once and reused.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SseFramerBenchmark implements SseEventHandler
{
    private static final byte[] ONE = Payloads.VLLM_CONTENT_EVENT;
    private static final byte[] FOUR = Payloads.concat(ONE, ONE, ONE, ONE);
    private static final int SPLIT_AT = 100;
    private static final byte[] FIRST_PART = Payloads.slice(ONE, 0, SPLIT_AT);
    private static final byte[] SECOND_PART = Payloads.slice(ONE, SPLIT_AT, ONE.length);

    private SseFramer framer;
    private long sink;
    private long now;

    @Setup(Level.Trial)
    public void setUp()
    {
        framer = new SseFramer(this);
        now = 1_000_000_000L;
    }

    @Override
    public void onEvent(final byte[] data, final int offset, final int length, final boolean errorType, final long ns)
    {
        sink += length + ns + data[offset];
    }

    @Benchmark
    public long oneEventPerRead()
    {
        framer.onBytes(ONE, 0, ONE.length, ++now);
        return sink;
    }

    @Benchmark
    @OperationsPerInvocation(4)
    public long fourEventsPerRead()
    {
        framer.onBytes(FOUR, 0, FOUR.length, ++now);
        return sink;
    }

    @Benchmark
    public long eventSplitAcrossReads()
    {
        framer.onBytes(FIRST_PART, 0, FIRST_PART.length, ++now);
        framer.onBytes(SECOND_PART, 0, SECOND_PART.length, ++now);
        return sink;
    }
}
