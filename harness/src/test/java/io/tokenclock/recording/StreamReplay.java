package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.tokenclock.api.Api;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.run.AnswerText;

/**
 * Runs whole streams of one API through the I/O thread's recorder and the collector, in reads cut where a test says,
 * and keeps what the request stage saw of each request: the core alone, on hand-set stamps.
 */
final class StreamReplay
{
    /** What the request stage saw of one request (a copy: slots are reused). */
    record Seen(int status, ErrorClass error, String detail, int chunks, String text, String reasoning,
        String toolCalls, long promptTokens, long completionTokens, long cachedTokens, long reasoningTokens,
        int finish, boolean done, int unknownEvents, String responseId, long ttftNs, long ttfotNs, long[] chunkNs,
        long outputTokens, long enginePromptNs, long answerItems, long e2eNs)
    {
    }

    private final ChunkRecords records = new ChunkRecords(64 * 1024);
    private final SlotPool pool = new SlotPool(2);
    private final List<Seen> seen = new ArrayList<>();
    private final Collector collector;
    private final StreamRecorder recorder;
    /** The inputs each replayed request carries (an embeddings or rerank request's texts). */
    private int inputs = 1;
    /** The most answer items each replayed request asks for (a rerank's {@code top_n}), 0: one per input. */
    private int answerLimit;

    StreamReplay(final Api api)
    {
        collector = new Collector(records, pool, new MetricRecorders(), (s, m) -> seen.add(new Seen(s.status,
            s.errorClass, s.errorDetail, s.chunkCount, AnswerText.decode(s.text.array(), s.text.length()),
            AnswerText.decode(s.reasoning.array(), s.reasoning.length()),
            new String(s.toolCalls.array(), 0, s.toolCalls.length(), StandardCharsets.UTF_8), s.usagePromptTokens,
            s.usageCompletionTokens, s.cachedTokens, s.usageReasoningTokens, s.finishReason, s.doneSeen,
            s.unknownEvents, new String(s.responseId, 0, s.responseIdLength, StandardCharsets.UTF_8), m.ttftNs,
            m.ttfotNs, Arrays.copyOf(s.chunkNs, s.chunkCount), m.outputTokens, s.enginePromptNs, s.answerItems,
            m.e2eNs)));
        recorder = new StreamRecorder(records, api.newParser(), 1 << 20, Integer.MAX_VALUE);
    }

    /** @return this, its requests each carrying {@code n} inputs from now on. */
    StreamReplay inputs(final int n)
    {
        this.inputs = n;
        return this;
    }

    /** @return this, its requests each asking for at most {@code n} answer items (a rerank's top_n) from now on. */
    StreamReplay answerLimit(final int n)
    {
        this.answerLimit = n;
        return this;
    }

    /**
     * Sends at 1,000 ns, then delivers {@code stream} in reads ending at each of {@code cuts} (ascending positions in
     * its bytes; the last read ends at its end), read i stamped {@code 10,000 x (i + 1)}, and ends the response.
     */
    Seen replay(final String stream, final int... cuts) throws InterruptedException
    {
        return replay(stream.getBytes(StandardCharsets.UTF_8), cuts);
    }

    /** {@link #replay(String, int...)} of bytes; cuts outside the bytes or out of order are skipped. */
    Seen replay(final byte[] bytes, final int... cuts) throws InterruptedException
    {
        final RequestSlot slot = pool.acquire(1_000_000);
        assertNotNull(slot);
        slot.phase = RequestSlot.PHASE_MEASURE;
        slot.scheduledNs = 1_000;
        slot.inputs = inputs;
        slot.answerLimit = answerLimit;
        recorder.begin(slot);
        slot.sentNs = 1_000;
        int from = 0;
        long stamp = 0;
        for (int i = 0; i <= cuts.length; i++)
        {
            final int to = i < cuts.length ? cuts[i] : bytes.length;
            stamp = 10_000L * (i + 1);
            if (to >= from && to <= bytes.length)
            {
                recorder.onBytes(bytes, from, to - from, stamp);
                from = to;
            }
        }
        recorder.finish(stamp + 1, ErrorClass.NONE, null);
        while (collector.poll() > 0)
        {
            // a read stops at the ring's end: the records after its wrap need another
        }
        assertEquals(1, seen.size(), "one request seen");
        return seen.remove(0);
    }

    /** @return one event alone, replayed in one read. */
    Seen replayEvent(final String event)
    {
        try
        {
            return replay(event);
        }
        catch (final InterruptedException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
