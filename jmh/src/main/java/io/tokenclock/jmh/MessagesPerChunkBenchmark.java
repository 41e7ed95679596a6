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

import io.tokenclock.api.Api;

/**
 * What does the harness cost per streamed event of Anthropic's Messages API, beside a chat chunk?
 * <p>
 * {@link #perEvent} drives the per-chunk path of {@link PerChunkBenchmark} with the Messages grammar
 * ({@code framing.MessagesEventParser}): one clock stamp, SSE framing of a read holding one
 * {@code content_block_delta} event as Anthropic sends it (121 bytes: its {@code event:} line and 86 bytes of data,
 * the shortest event of the three APIs), the scan of its members (a nested {@code delta} object whose own
 * {@code type}, {@code text_delta}, says what its text is), the text's copy into the request's buffer and the
 * ring-buffer publish; the collector drains every 64 events, and every 256 the request ends with
 * {@code content_block_stop}, {@code message_delta} (stop reason, usage) and {@code message_stop}.
 * <p>
 * The variants:
 * <ul>
 * <li>{@link #perEventWithPings}: four deltas per read with a {@code ping} among them (Anthropic's keep-alive, parsed
 * and ignored), scored per delta: the cost of events that carry no token.</li>
 * <li>{@link #perEventSplitRead}: every event in two reads, each stamped.</li>
 * <li>{@link #chatPerChunk}: chat's 217-byte chunk through the same path with chat's grammar, side by side.</li>
 * </ul>
 * How to read the numbers: as for {@link ResponsesPerChunkBenchmark}; the Messages event is shorter than chat's chunk,
 * so its framing costs less, and its nested type adds one more string comparison. Expected allocation: 0 B/op
 * ({@code PerChunkAllocationTest}, {@code AllocationCheck}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MessagesPerChunkBenchmark
{
    private static final byte[] READ = Payloads.namedEvent("content_block_delta", Payloads.MESSAGES_DELTA_JSON);
    private static final byte[] WITH_PING = Payloads.concat(READ, READ,
        Payloads.namedEvent("ping", "{\"type\": \"ping\"}"), READ, READ);
    private static final int SPLIT_AT = 70;
    private static final byte[] FIRST_PART = Payloads.slice(READ, 0, SPLIT_AT);
    private static final byte[] SECOND_PART = Payloads.slice(READ, SPLIT_AT, READ.length);
    private static final byte[] END = Payloads.bytes(Payloads.MESSAGES_END_EVENTS);
    private static final byte[] CHAT_END = Payloads.concat(Payloads.event(Payloads.VLLM_USAGE_JSON),
        Payloads.bytes("data: [DONE]\n\n"));

    private final ResponsesPerChunkBenchmark.ApiRequests messages =
        new ResponsesPerChunkBenchmark.ApiRequests(Api.MESSAGES, END);
    private final ResponsesPerChunkBenchmark.ApiRequests chat =
        new ResponsesPerChunkBenchmark.ApiRequests(Api.CHAT, CHAT_END);

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException
    {
        messages.begin();
        chat.begin();
    }

    @Benchmark
    public long perEvent() throws InterruptedException
    {
        final long now = System.nanoTime();
        messages.recorder.onBytes(READ, 0, READ.length, now);
        messages.afterEvent(now);
        return now;
    }

    @Benchmark
    @OperationsPerInvocation(4)
    public long perEventWithPings() throws InterruptedException
    {
        final long now = System.nanoTime();
        messages.recorder.onBytes(WITH_PING, 0, WITH_PING.length, now);
        messages.afterEvent(now);
        messages.afterEvent(now);
        messages.afterEvent(now);
        messages.afterEvent(now);
        return now;
    }

    @Benchmark
    public long perEventSplitRead() throws InterruptedException
    {
        messages.recorder.onBytes(FIRST_PART, 0, FIRST_PART.length, System.nanoTime());
        final long now = System.nanoTime();
        messages.recorder.onBytes(SECOND_PART, 0, SECOND_PART.length, now);
        messages.afterEvent(now);
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
}
