package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.tokenclock.metrics.MetricRecorders;

/**
 * The allocation gate: the whole per-chunk path, bytes in to recorded (framing, chunk parsing, text copy, ring
 * publish, collector drain, histogram recording at request end), allocates nothing in steady state.
 * <p>
 * Counted with {@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}, which is exact for the current
 * thread's heap allocations and independent of timing, so this gate is deterministic where a timing gate would not
 * be. Everything runs on the test thread: the I/O side and the collector side alternate.
 */
final class PerChunkAllocationTest
{
    private static final byte[] READ = (
        "data: {\"id\":\"chatcmpl-42\",\"object\":\"chat.completion.chunk\",\"created\":1764400000,\"model\":\"m\"," +
        "\"choices\":[{\"index\":0,\"delta\":{\"content\":\" token\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n")
        .getBytes(StandardCharsets.UTF_8);
    private static final byte[] SPLIT_FIRST = Arrays.copyOfRange(READ, 0, 100);
    private static final byte[] SPLIT_SECOND = Arrays.copyOfRange(READ, 100, READ.length);
    /** The usage chunk as vLLM sends it with {@code --enable-prompt-tokens-details}: the cached tokens are read too. */
    private static final byte[] END = ("data: {\"id\":\"chatcmpl-42\",\"choices\":[],\"usage\":{\"prompt_tokens\":7," +
        "\"completion_tokens\":200,\"prompt_tokens_details\":{\"cached_tokens\":4}}}\n\ndata: [DONE]\n\n")
        .getBytes(StandardCharsets.UTF_8);
    private static final int CHUNKS_PER_REQUEST = 200;

    private final ChunkRecords records = new ChunkRecords(1 << 20);
    private final SlotPool pool = new SlotPool(2);
    private final Collector collector = new Collector(records, pool, new MetricRecorders(), null);
    private final StreamRecorder recorder = new StreamRecorder(records);
    private long now = 1_000_000;

    @Test
    void shouldAllocateNothingPerChunkInSteadyState() throws InterruptedException
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        final long tid = Thread.currentThread().threadId();

        for (int i = 0; i < 1_000; i++)
        {
            runRequest();
        }
        final long calibrationStart = threads.getThreadAllocatedBytes(tid);
        final long calibration = threads.getThreadAllocatedBytes(tid) - calibrationStart;

        final int requests = 200;
        final long before = threads.getThreadAllocatedBytes(tid);
        for (int i = 0; i < requests; i++)
        {
            runRequest();
        }
        final long allocated = threads.getThreadAllocatedBytes(tid) - before - calibration;

        final long chunks = (long)requests * CHUNKS_PER_REQUEST;
        assertEquals(1_200, collector.counters().get(Collector.COMPLETED), "every request completed");
        // Any per-chunk allocation costs at least 16 bytes a chunk (640,000 bytes here). The bound, a quarter of a
        // byte a chunk (10,000 bytes here), is 64 times lower, yet leaves room for a one-off allocation of the JVM's
        // own (a deoptimisation, a lazily initialised JDK internal): one of a few hundred bytes was seen once on a
        // cold clone, and a bound near that size would fail on such noise rather than on the code under test.
        assertTrue(allocated < chunks / 4,
            "per-chunk path allocated " + allocated + " bytes over " + chunks + " chunks");
    }

    private void runRequest() throws InterruptedException
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
                recorder.onBytes(READ, 0, READ.length, now);
            }
            else
            {
                recorder.onBytes(SPLIT_FIRST, 0, SPLIT_FIRST.length, now);
                recorder.onBytes(SPLIT_SECOND, 0, SPLIT_SECOND.length, now + 1_000);
            }
            if ((c & 63) == 63)
            {
                collector.poll();
            }
        }
        recorder.onBytes(END, 0, END.length, now);
        recorder.finish(now + 1_000, ErrorClass.NONE, null);
        collector.poll();
    }
}
