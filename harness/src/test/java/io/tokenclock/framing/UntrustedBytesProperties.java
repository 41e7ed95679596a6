package io.tokenclock.framing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.Collector;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.recording.StreamRecorder;
import io.tokenclock.text.UntrustedText;

/**
 * Everything a server sends is untrusted: random bytes, and valid streams with bytes flipped, cut or repeated, go
 * through the chunk parser and the whole per-request path (framing, parsing, recording, classification), and
 * through the text escaping. Nothing may throw, every request ends with exactly one class, and no control character
 * survives escaping. Each property runs a few thousand cases; a hang would stop the suite (every loop in these
 * parsers is bounded by the input's length).
 */
final class UntrustedBytesProperties
{
    private static final byte[] VALID = ("data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\"," +
        "\"choices\":[{\"index\":0,\"delta\":{\"content\":\" tok\\\"en\\u00e9\",\"reasoning_content\":null}," +
        "\"logprobs\":null,\"finish_reason\":null}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}\n\n" +
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\"," +
        "\"arguments\":\"{\\\"a\\\":1}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\nevent: error\ndata: {\"error\":" +
        "{\"message\":\"x\"}}\n\ndata: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);

    @Provide
    Arbitrary<byte[]> mutatedStreams()
    {
        return Arbitraries.integers().between(0, VALID.length - 1).list().ofMaxSize(12).flatMap(positions ->
            Arbitraries.bytes().list().ofSize(positions.size()).map(values ->
            {
                final byte[] b = VALID.clone();
                for (int i = 0; i < positions.size(); i++)
                {
                    b[positions.get(i)] = values.get(i);
                }
                return b;
            })).flatMap(b -> Arbitraries.integers().between(0, b.length).map(cut ->
                Arrays.copyOf(b, cut)));
    }

    @Property(tries = 3000)
    void shouldParseAnyChunkBytesWithoutThrowing(@ForAll @Size(max = 400) final byte[] random)
    {
        final ChunkParser parser = new ChunkParser();
        parser.parse(random, 0, random.length);
    }

    @Property(tries = 3000)
    void shouldParseMutatedChunksWithoutThrowing(@ForAll("mutatedStreams") final byte[] mutated)
    {
        final ChunkParser parser = new ChunkParser();
        for (int start = 0; start < mutated.length; start += 97)
        {
            parser.parse(mutated, start, Math.min(97, mutated.length - start));
        }
        parser.parse(mutated, 0, mutated.length);
    }

    @Property(tries = 2000)
    void shouldClassifyEveryRequestWhateverItsBytes(
        @ForAll("mutatedStreams") final byte[] stream, @ForAll @Size(max = 200) final byte[] random,
        @ForAll final boolean cleanEnd) throws InterruptedException
    {
        final ChunkRecords records = new ChunkRecords(1 << 16);
        final SlotPool pool = new SlotPool(1);
        final ErrorClass[] seen = new ErrorClass[1];
        final Collector collector = new Collector(records, pool, new MetricRecorders(),
            (s, m) -> seen[0] = s.errorClass);
        final StreamRecorder recorder = new StreamRecorder(records);
        final RequestSlot slot = pool.acquire(1_000_000_000L);
        slot.phase = RequestSlot.PHASE_MEASURE;
        recorder.begin(slot);
        slot.sentNs = 1;
        long ns = 10;
        for (int i = 0; i < stream.length; i += 31)
        {
            recorder.onBytes(stream, i, Math.min(31, stream.length - i), ns += 1000);
        }
        recorder.onBytes(random, 0, random.length, ns += 1000);
        recorder.finish(ns + 1, cleanEnd ? ErrorClass.NONE : ErrorClass.STREAM_CUT, cleanEnd ? null : "cut");
        collector.poll();
        assertTrue(seen[0] != null, "the request reached the listener");
        if (!cleanEnd)
        {
            assertTrue(seen[0] == ErrorClass.STREAM_CUT, "a transport failure keeps its class: " + seen[0]);
        }
        assertEquals(0, pool.inUse(), "the request's permit came back");
    }

    @Property(tries = 3000)
    void shouldLeaveNoControlCharacterInEscapedText(@ForAll final String text)
    {
        final String shown = UntrustedText.oneLine(text);
        assertTrue(shown.chars().noneMatch(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f)), shown);
        assertTrue(shown.length() <= UntrustedText.MAX_CHARS + 9, "cut: " + shown.length());
    }
}
