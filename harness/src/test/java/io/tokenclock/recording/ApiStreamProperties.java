package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import io.tokenclock.api.Api;
import io.tokenclock.testing.ApiStreams;

/**
 * The Responses and Messages streams under jqwik: cut into any number of reads at any bytes, a stream records the
 * same request (text, chunks, usage, finish); with bytes flipped, cut or repeated, nothing throws and the request
 * ends with one class. Each content event is stamped with the read that completed it, so the chunk stamps are the
 * stamps of the reads holding each content event's last byte.
 */
final class ApiStreamProperties
{
    private static final List<Object[]> STREAMS = List.of(new Object[] {Api.RESPONSES, ApiStreams.RESPONSES_OPENAI},
        new Object[] {Api.RESPONSES, ApiStreams.RESPONSES_SORTED}, new Object[] {Api.RESPONSES,
            ApiStreams.RESPONSES_TOOL_CALL}, new Object[] {Api.MESSAGES, ApiStreams.MESSAGES_ANTHROPIC},
        new Object[] {Api.MESSAGES, ApiStreams.MESSAGES_SORTED}, new Object[] {Api.MESSAGES,
            ApiStreams.MESSAGES_TOOL_USE}, new Object[] {Api.RESPONSES, ApiStreams.RESPONSES_LLAMA_SERVER},
        new Object[] {Api.MESSAGES, ApiStreams.MESSAGES_LLAMA_SERVER});

    @Provide
    Arbitrary<int[]> cuts()
    {
        return Arbitraries.integers().between(0, Integer.MAX_VALUE).list().ofMaxSize(40).map(list ->
            list.stream().mapToInt(Integer::intValue).toArray());
    }

    @Property(tries = 600)
    void shouldRecordTheSameRequestHoweverReadsCutTheStream(
        @ForAll("cuts") final int[] raw, @ForAll("streamIndex") final int which) throws InterruptedException
    {
        final Api api = (Api)STREAMS.get(which)[0];
        final String stream = (String)STREAMS.get(which)[1];
        final int length = stream.getBytes(StandardCharsets.UTF_8).length;
        final TreeSet<Integer> positions = new TreeSet<>();
        for (final int r : raw)
        {
            positions.add(1 + r % (length - 1));
        }
        final int[] cuts = positions.stream().mapToInt(Integer::intValue).toArray();
        final StreamReplay replay = new StreamReplay(api);
        final StreamReplay.Seen whole = replay.replay(stream);
        final StreamReplay.Seen split = replay.replay(stream, cuts);

        assertEquals(whole.status(), split.status());
        assertEquals(whole.chunks(), split.chunks());
        assertEquals(whole.text(), split.text());
        assertEquals(whole.reasoning(), split.reasoning());
        assertEquals(whole.toolCalls(), split.toolCalls());
        assertEquals(whole.promptTokens(), split.promptTokens());
        assertEquals(whole.completionTokens(), split.completionTokens());
        assertEquals(whole.cachedTokens(), split.cachedTokens());
        assertEquals(whole.finish(), split.finish());
        assertEquals(whole.unknownEvents(), split.unknownEvents());
        assertArrayEquals(expectedStamps(stream, cuts, api), split.chunkNs());
    }

    @Provide
    Arbitrary<Integer> streamIndex()
    {
        return Arbitraries.integers().between(0, STREAMS.size() - 1);
    }

    @Provide
    Arbitrary<byte[]> mutated()
    {
        return streamIndex().flatMap(i -> Arbitraries.integers().between(0, 4000).list().ofMaxSize(10).flatMap(
            positions -> Arbitraries.bytes().list().ofSize(positions.size()).map(values ->
            {
                final byte[] b = ((String)STREAMS.get(i)[1]).getBytes(StandardCharsets.UTF_8);
                for (int k = 0; k < positions.size(); k++)
                {
                    b[positions.get(k) % b.length] = values.get(k);
                }
                return b;
            })).flatMap(b -> Arbitraries.integers().between(0, b.length).map(cut -> Arrays.copyOf(b, cut))));
    }

    @Property(tries = 1500)
    void shouldClassifyEveryMutatedStreamOfEitherApi(
        @ForAll("mutated") final byte[] bytes, @ForAll final boolean messages) throws InterruptedException
    {
        final StreamReplay.Seen r = new StreamReplay(messages ? Api.MESSAGES : Api.RESPONSES)
            .replay(bytes, 17, 301);
        assertTrue(r.error() != null);
        assertTrue(r.status() == RequestSlot.STATUS_OK || r.error() != ErrorClass.NONE, "an error has its class");
    }

    /** The stamp each content event gets: that of the read holding the blank line that ends the event. */
    private static long[] expectedStamps(final String stream, final int[] cuts, final Api api)
        throws InterruptedException
    {
        final StreamReplay.Seen whole = new StreamReplay(api).replay(stream);
        final byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        final long[] out = new long[whole.chunks()];
        int n = 0;
        int start = 0;
        for (int i = 0; i + 1 < bytes.length && n < out.length; i++)
        {
            if (bytes[i] == '\n' && bytes[i + 1] == '\n')
            {
                final String event = new String(bytes, start, i - start, StandardCharsets.UTF_8);
                start = i + 2;
                if (isContent(api, event))
                {
                    int read = 0;
                    while (read < cuts.length && cuts[read] <= i + 1)
                    {
                        read++;
                    }
                    out[n++] = 10_000L * (read + 1);
                }
            }
        }
        return out;
    }

    private static boolean isContent(final Api api, final String event)
    {
        final StreamReplay.Seen one = new StreamReplay(api).replayEvent(event + "\n\n");
        return one.chunks() == 1;
    }
}
