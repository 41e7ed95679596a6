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

import io.tokenclock.api.Api;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.Collector;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.recording.StreamRecorder;

/**
 * What does the harness cost per read of an embeddings answer, the body that is not streamed?
 * <p>
 * An embeddings answer is one JSON body that grows with its inputs and their dimensions: here 4 inputs of 1,024
 * numbers as llama.cpp's server writes them (about 20 bytes a number: 84 KB), delivered in reads of 1,460 bytes (one
 * TCP segment's payload), each stamped. {@link #perRead} is the I/O thread's work per read: one clock stamp and the
 * skim ({@code framing.BodySkim}) that keeps the body's skeleton and counts the answer array's elements, byte by
 * byte; the read that ends a body also parses its few-hundred-byte skeleton ({@code framing.PoolingBodyParser}),
 * publishes the request's end and, with the collector's drain, records its metrics, so that work is amortised over the
 * body's 58 reads as it is in a run. {@link #perReadRerank} does the same for a vLLM rerank answer of 64 documents,
 * whose results are short objects (5.4 KB, 4 reads).
 * <p>
 * How to read the numbers: ns per read over 1,460 bytes is the skim's cost per byte (a few comparisons each); against
 * an embeddings request's end to end (milliseconds) it is noise, but it is paid on the stamping thread, so it delays
 * the next read's stamp by as much. Run with {@code -prof gc}: {@code gc.alloc.rate.norm} should be about 0 B/op; the
 * exact check is {@code AllocationCheck} ({@code ApiPerChunkAllocationGateTest}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PoolingBodyBenchmark
{
    private static final int READ_BYTES = 1460;

    private final Answers embeddings = new Answers(Api.EMBEDDINGS, embeddingsBody(4, 1024), 4);
    private final Answers rerank = new Answers(Api.RERANK, rerankBody(64), 64);

    /** @return llama.cpp's embeddings answer of {@code inputs} x {@code dims} numbers. */
    static byte[] embeddingsBody(final int inputs, final int dims)
    {
        final StringBuilder sb = new StringBuilder("{\"model\":\"tc-256x4\",\"object\":\"list\",\"usage\":" +
            "{\"prompt_tokens\":160,\"total_tokens\":160},\"data\":[");
        for (int i = 0; i < inputs; i++)
        {
            sb.append(i == 0 ? "" : ",").append("{\"embedding\":[");
            for (int d = 0; d < dims; d++)
            {
                sb.append(d == 0 ? "" : ",").append(d % 2 == 0 ? "0.03462103754281998" : "-0.018101045861840248");
            }
            sb.append("],\"index\":").append(i).append(",\"object\":\"embedding\"}");
        }
        return sb.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** @return vLLM's rerank answer of {@code documents} results. */
    static byte[] rerankBody(final int documents)
    {
        final StringBuilder sb = new StringBuilder("{\"id\":\"rerank-7\",\"model\":\"BAAI/bge-reranker-base\"," +
            "\"usage\":{\"total_tokens\":4096},\"results\":[");
        for (int i = 0; i < documents; i++)
        {
            sb.append(i == 0 ? "" : ",").append("{\"index\":").append(i).append(",\"relevance_score\":0.")
                .append(9_000_000 - i).append('}');
        }
        return sb.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException
    {
        embeddings.begin();
        rerank.begin();
    }

    @Benchmark
    public long perRead() throws InterruptedException
    {
        return embeddings.nextRead();
    }

    @Benchmark
    public long perReadRerank() throws InterruptedException
    {
        return rerank.nextRead();
    }

    /** One API's answers, read after read, through the recorder and the collector, a new request after each. */
    static final class Answers
    {
        private final StreamRecorder recorder;
        private final ChunkRecords records = new ChunkRecords(1 << 16);
        private final SlotPool pool = new SlotPool(2);
        private final Collector collector = new Collector(records, pool, new MetricRecorders(), null);
        private final byte[] body;
        private final int inputs;
        private int offset;

        Answers(final Api api, final byte[] body, final int inputs)
        {
            this.recorder = new StreamRecorder(records, api.newParser(), 1 << 20, Integer.MAX_VALUE);
            this.body = body;
            this.inputs = inputs;
        }

        void begin() throws InterruptedException
        {
            final RequestSlot slot = pool.acquire(1_000_000_000L);
            slot.phase = RequestSlot.PHASE_MEASURE;
            slot.scheduledNs = System.nanoTime();
            slot.inputs = inputs;
            recorder.begin(slot);
            slot.sentNs = slot.scheduledNs;
            offset = 0;
        }

        long nextRead() throws InterruptedException
        {
            final long now = System.nanoTime();
            final int length = Math.min(READ_BYTES, body.length - offset);
            recorder.onBytes(body, offset, length, now);
            offset += length;
            if (offset == body.length)
            {
                recorder.finish(now, ErrorClass.NONE, null);
                collector.poll();
                begin();
            }
            return now;
        }
    }
}
