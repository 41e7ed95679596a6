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

import io.tokenclock.api.Api;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.Collector;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.recording.StreamRecorder;

/**
 * What does the harness cost per streamed event of the OpenAI Responses API, beside a chat chunk?
 * <p>
 * {@link #perEvent} drives the per-chunk path that {@link PerChunkBenchmark} drives for chat, with the Responses
 * grammar ({@code framing.ResponsesEventParser}): one clock stamp, SSE framing of a read holding one
 * {@code response.output_text.delta} event as OpenAI sends it (231 bytes: an {@code event:} line, which the framer
 * drops after looking at its first bytes, and 189 bytes of data), the scan of its members, the comparison of its
 * {@code type} with the delta types (the first one matches: the delta types are compared first, the rare ones only
 * after), the copy of its text into the request's buffer and the ring-buffer publish; the collector drains every 64
 * events, and every 256 the request ends with {@code response.completed} (usage read) and its metrics are recorded.
 * <p>
 * The variants:
 * <ul>
 * <li>{@link #perEventSortedMembers}: the same delta with its members sorted, so {@code delta} comes before
 * {@code type} (a server whose JSON library sorts members writes it so): the grammar keeps the delta's offsets and
 * reads them once the object is closed, so the order costs nothing but the scan.</li>
 * <li>{@link #perEventSplitRead}: every event in two reads (cut inside the JSON), each stamped: two clock reads and a
 * partial-line copy per event.</li>
 * <li>{@link #chatPerChunk}: chat's 217-byte chunk ({@link Payloads#VLLM_CONTENT_EVENT}) through the same path with
 * chat's grammar, for a side-by-side figure from the same build and machine. Each benchmark method runs in a fork of
 * its own, so each sees one grammar at its call sites, as a run does.</li>
 * </ul>
 * How to read the numbers: {@code perEvent} against {@code chatPerChunk} is the Responses API's cost over chat's,
 * per token: its events are a few bytes longer and its type a 26-byte string where chat's content key is 7. Divide
 * by the ITL measured, as for {@link PerChunkBenchmark}. Run with {@code -prof gc}: {@code gc.alloc.rate.norm} should
 * be about 0 B/op; the exact check is {@code PerChunkAllocationTest} in the harness and {@code AllocationCheck} here.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ResponsesPerChunkBenchmark
{
    private static final byte[] READ = Payloads.namedEvent("response.output_text.delta",
        Payloads.RESPONSES_DELTA_JSON);
    private static final byte[] SORTED_READ = Payloads.namedEvent("response.output_text.delta",
        Payloads.RESPONSES_DELTA_SORTED_JSON);
    private static final int SPLIT_AT = 120;
    private static final byte[] FIRST_PART = Payloads.slice(READ, 0, SPLIT_AT);
    private static final byte[] SECOND_PART = Payloads.slice(READ, SPLIT_AT, READ.length);
    private static final byte[] END = Payloads.namedEvent("response.completed", Payloads.RESPONSES_COMPLETED_JSON);
    private static final byte[] CHAT_END = Payloads.concat(Payloads.event(Payloads.VLLM_USAGE_JSON),
        Payloads.bytes("data: [DONE]\n\n"));

    private final ApiRequests responses = new ApiRequests(Api.RESPONSES, END);
    private final ApiRequests chat = new ApiRequests(Api.CHAT, CHAT_END);

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException
    {
        responses.begin();
        chat.begin();
    }

    @Benchmark
    public long perEvent() throws InterruptedException
    {
        final long now = System.nanoTime();
        responses.recorder.onBytes(READ, 0, READ.length, now);
        responses.afterEvent(now);
        return now;
    }

    @Benchmark
    public long perEventSortedMembers() throws InterruptedException
    {
        final long now = System.nanoTime();
        responses.recorder.onBytes(SORTED_READ, 0, SORTED_READ.length, now);
        responses.afterEvent(now);
        return now;
    }

    @Benchmark
    public long perEventSplitRead() throws InterruptedException
    {
        responses.recorder.onBytes(FIRST_PART, 0, FIRST_PART.length, System.nanoTime());
        final long now = System.nanoTime();
        responses.recorder.onBytes(SECOND_PART, 0, SECOND_PART.length, now);
        responses.afterEvent(now);
        return now;
    }

    @Benchmark
    public long chatPerChunk() throws InterruptedException
    {
        final long now = System.nanoTime();
        chat.recorder.onBytes(Payloads.VLLM_CONTENT_EVENT, 0, Payloads.VLLM_CONTENT_EVENT.length, now);
        chat.afterEvent(now);
        return now;
    }

    /**
     * One stream of one API's requests through the recorder and the collector: the collector drains every 64 events
     * and the request ends, with the API's end events, every 256 ({@link PerChunkBenchmark}'s rhythm).
     */
    static final class ApiRequests
    {
        private static final int EVENTS_PER_REQUEST = 256;

        final StreamRecorder recorder;
        private final ChunkRecords records = new ChunkRecords(1 << 22);
        private final SlotPool pool = new SlotPool(2);
        private final Collector collector = new Collector(records, pool, new MetricRecorders(), null);
        private final byte[] end;
        private int events;

        ApiRequests(final Api api, final byte[] end)
        {
            this.recorder = new StreamRecorder(records, api.newParser(), 1 << 20, Integer.MAX_VALUE);
            this.end = end;
        }

        void begin() throws InterruptedException
        {
            final RequestSlot slot = pool.acquire(1_000_000_000L);
            slot.phase = RequestSlot.PHASE_MEASURE;
            slot.scheduledNs = System.nanoTime();
            recorder.begin(slot);
            slot.sentNs = slot.scheduledNs;
        }

        void afterEvent(final long now) throws InterruptedException
        {
            final int e = ++events;
            if ((e & 63) == 0)
            {
                collector.poll();
            }
            if (e == EVENTS_PER_REQUEST)
            {
                events = 0;
                recorder.onBytes(end, 0, end.length, now);
                recorder.finish(now, ErrorClass.NONE, null);
                collector.poll();
                begin();
            }
        }
    }
}
