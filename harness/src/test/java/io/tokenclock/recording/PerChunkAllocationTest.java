package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.tokenclock.api.Api;

import io.tokenclock.metrics.MetricRecorders;

/**
 * The allocation gate: the whole per-chunk path, bytes in to recorded (framing, chunk parsing, text copy, ring
 * publish, collector drain, histogram recording at request end), allocates nothing in steady state.
 * <p>
 * Counted with {@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}, which is exact for the current
 * thread's heap allocations and independent of timing, so this gate is deterministic where a timing gate would not
 * be. Everything runs on the test thread: the I/O side and the collector side alternate. Each API's grammar is held to
 * it: chat's chunks, the Responses API's and the Messages API's events.
 */
final class PerChunkAllocationTest
{
    private static final byte[] READ = (
        "data: {\"id\":\"chatcmpl-42\",\"object\":\"chat.completion.chunk\",\"created\":1764400000,\"model\":\"m\"," +
        "\"choices\":[{\"index\":0,\"delta\":{\"content\":\" token\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n")
        .getBytes(StandardCharsets.UTF_8);
    private static final byte[] END = ("data: {\"id\":\"chatcmpl-42\",\"choices\":[],\"usage\":{\"prompt_tokens\":7," +
        "\"completion_tokens\":200}}\n\ndata: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);
    /** The Responses API's text delta, as OpenAI orders its members. */
    private static final byte[] RESPONSES_READ = ("event: response.output_text.delta\ndata: {\"type\":" +
        "\"response.output_text.delta\",\"sequence_number\":7,\"item_id\":\"msg_67c9\",\"output_index\":0," +
        "\"content_index\":0,\"delta\":\" token\"}\n\n").getBytes(StandardCharsets.UTF_8);
    private static final byte[] RESPONSES_END = ("event: response.completed\ndata: {\"type\":" +
        "\"response.completed\",\"response\":{\"id\":\"resp_42\",\"status\":\"completed\",\"output\":" +
        "[{\"type\":\"message\"}],\"usage\":" +
        "{\"input_tokens\":7,\"input_tokens_details\":{\"cached_tokens\":3},\"output_tokens\":200," +
        "\"output_tokens_details\":{\"reasoning_tokens\":0}}}}\n\n").getBytes(StandardCharsets.UTF_8);
    /** The Messages API's text delta, as Anthropic orders its members. */
    private static final byte[] MESSAGES_READ = ("event: content_block_delta\ndata: {\"type\":" +
        "\"content_block_delta\"," +
        "\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" token\"}}\n\n")
        .getBytes(StandardCharsets.UTF_8);
    private static final byte[] MESSAGES_END = ("event: content_block_stop\ndata: {\"type\":\"content_block_stop\"," +
        "\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":" +
        "\"max_tokens\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":200}}\n\nevent: message_stop\n" +
        "data: {\"type\":\"message_stop\"}\n\n").getBytes(StandardCharsets.UTF_8);
    private static final int CHUNKS_PER_REQUEST = 200;

    private final ChunkRecords records = new ChunkRecords(1 << 20);
    private final SlotPool pool = new SlotPool(2);
    private final Collector collector = new Collector(records, pool, new MetricRecorders(), null);
    private long now = 1_000_000;

    @Test
    void shouldAllocateNothingPerChunkInSteadyState() throws InterruptedException
    {
        assertAllocatesNothingPerEvent(new StreamRecorder(records), READ, END);
    }

    @ParameterizedTest
    @EnumSource(value = Api.class, names = {"RESPONSES", "MESSAGES"})
    void shouldAllocateNothingPerEventOfTheResponsesAndMessagesStreams(final Api api) throws InterruptedException
    {
        final boolean responses = api == Api.RESPONSES;
        assertAllocatesNothingPerEvent(new StreamRecorder(records, api.newParser(), 1 << 20, Integer.MAX_VALUE),
            responses ? RESPONSES_READ : MESSAGES_READ, responses ? RESPONSES_END : MESSAGES_END);
    }

    private void assertAllocatesNothingPerEvent(final StreamRecorder recorder, final byte[] read, final byte[] end)
        throws InterruptedException
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        final long tid = Thread.currentThread().threadId();
        final byte[] first = Arrays.copyOfRange(read, 0, 100);
        final byte[] second = Arrays.copyOfRange(read, 100, read.length);

        for (int i = 0; i < 1_000; i++)
        {
            runRequest(recorder, read, first, second, end);
        }
        final long calibrationStart = threads.getThreadAllocatedBytes(tid);
        final long calibration = threads.getThreadAllocatedBytes(tid) - calibrationStart;

        final int requests = 200;
        final long before = threads.getThreadAllocatedBytes(tid);
        for (int i = 0; i < requests; i++)
        {
            runRequest(recorder, read, first, second, end);
        }
        final long allocated = threads.getThreadAllocatedBytes(tid) - before - calibration;

        final long chunks = (long)requests * CHUNKS_PER_REQUEST;
        assertEquals(1_200, collector.counters().get(Collector.COMPLETED), "every request completed");
        assertEquals(0, errors(), "every request ended ok");
        // Any per-chunk allocation costs at least 16 bytes a chunk (640,000 bytes here). The bound, a quarter of a
        // byte a chunk (10,000 bytes here), is 64 times lower, yet leaves room for a one-off allocation of the JVM's
        // own (a deoptimisation, a lazily initialised JDK internal): one of a few hundred bytes was seen once on a
        // cold clone, and a bound near that size would fail on such noise rather than on the code under test.
        assertTrue(allocated < chunks / 4,
            "per-chunk path allocated " + allocated + " bytes over " + chunks + " chunks");
    }

    private long errors()
    {
        long n = 0;
        for (int i = 0; i < collector.errorsByClass().length(); i++)
        {
            n += collector.errorsByClass().get(i);
        }
        return n;
    }

    private void runRequest(
        final StreamRecorder recorder, final byte[] read, final byte[] first, final byte[] second, final byte[] end)
        throws InterruptedException
    {
        final RequestSlot slot = pool.acquire(1_000_000_000L);
        slot.phase = RequestSlot.PHASE_MEASURE;
        slot.scheduledNs = now;
        recorder.begin(slot);
        slot.sentNs = now;
        for (int c = 0; c < CHUNKS_PER_REQUEST; c++)
        {
            now += 5_000_000;
            if ((c & 1) == 0)
            {
                recorder.onBytes(read, 0, read.length, now);
            }
            else
            {
                recorder.onBytes(first, 0, first.length, now);
                recorder.onBytes(second, 0, second.length, now + 1_000);
            }
            if ((c & 63) == 63)
            {
                collector.poll();
            }
        }
        recorder.onBytes(end, 0, end.length, now);
        recorder.finish(now + 1_000, ErrorClass.NONE, null);
        collector.poll();
    }
}
