package io.tokenclock.framing;

import io.tokenclock.fixtures.RecordedStreams;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * However the network splits a recorded stream into reads, the framer must frame the same events, each stamped with
 * the read that completed it.
 */
class SseFramerProperties
{
    private static final Map<String, byte[]> STREAMS = loadStreams();

    /** Line-ending styles a stream is rewritten in; ORIGINAL keeps the file's own bytes. */
    enum Endings
    {
        ORIGINAL, LF, CRLF, CR
    }

    @Property
    void shouldFrameSameEventsForAnySplitOfReadsAsForOneRead(
        @ForAll("streamNames") final String name,
        @ForAll final Endings endings,
        @ForAll("readSizes") final List<Integer> readSizes)
    {
        final byte[] stream = rewrite(STREAMS.get(name), endings);

        final RecordingHandler whole = new RecordingHandler();
        final SseFramer wholeFramer = new SseFramer(whole);
        wholeFramer.onBytes(stream, 0, stream.length, 0);
        wholeFramer.onEndOfStream(1);

        final RecordingHandler split = new RecordingHandler();
        feedInReads(new SseFramer(split), stream, readSizes);

        assertFalse(whole.events.isEmpty());
        assertEquals(whole.payloads(), split.payloads());
        assertEquals(reference(stream).stream().map(RefEvent::payload).toList(), whole.payloads());
    }

    @Property
    void shouldStampEachEventWithReadHoldingItsTerminatingByte(
        @ForAll("streamNames") final String name,
        @ForAll final Endings endings,
        @ForAll("readSizes") final List<Integer> readSizes)
    {
        final byte[] stream = rewrite(STREAMS.get(name), endings);
        final RecordingHandler split = new RecordingHandler();
        final int[] readOfByte = feedInReads(new SseFramer(split), stream, readSizes);

        final List<RefEvent> expected = reference(stream);
        assertEquals(expected.size(), split.events.size());
        for (int i = 0; i < expected.size(); i++)
        {
            final long expectedStamp = readOfByte[expected.get(i).terminatorPosition()];
            assertEquals(expectedStamp, split.events.get(i).arrivalNs(), "stamp of event " + i);
        }
    }

    @Example
    void shouldFrameEveryRecordedStreamInOneByteReadsAsItsReadmeDescribes()
    {
        final Map<String, Integer> eventsIncludingDone = Map.of(
            "openai-chat.sse", 10,
            "vllm-chat-crlf.sse", 10,
            "sglang-completions.sse", 7,
            "reasoning-chat.sse", 11,
            "error-midstream.sse", 4,
            "llamacpp-chat.sse", 7);

        for (final String name : RecordedStreams.NAMES)
        {
            final byte[] stream = STREAMS.get(name);
            final RecordingHandler handler = new RecordingHandler();
            final SseFramer framer = new SseFramer(handler);
            for (int i = 0; i < stream.length; i++)
            {
                framer.onBytes(stream, i, 1, i);
            }
            framer.onEndOfStream(stream.length);

            assertEquals(eventsIncludingDone.get(name).intValue(), handler.events.size(), name);
            final List<String> texts = handler.texts();
            assertEquals("[DONE]", texts.get(texts.size() - 1), name);
            for (int i = 0; i < texts.size() - 1; i++)
            {
                assertTrue(texts.get(i).startsWith("{") && texts.get(i).endsWith("}"), name + ": " + texts.get(i));
            }
            handler.events.forEach(e -> assertFalse(e.errorType(), name));
            // Each event ends at a blank line inside the stream, so none waits for the end of stream (stamp length).
            handler.events.forEach(e -> assertTrue(e.arrivalNs() < stream.length, name));
        }
    }

    @Provide
    Arbitrary<String> streamNames()
    {
        return Arbitraries.of(RecordedStreams.NAMES);
    }

    /**
     * Read sizes, used cyclically until the stream is consumed: the empty list is one read of the whole stream,
     * [1] is one-byte reads throughout.
     */
    @Provide
    Arbitrary<List<Integer>> readSizes()
    {
        final Arbitrary<Integer> size = Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.integers().between(1, 3)),
            Tuple.of(3, Arbitraries.integers().between(4, 64)),
            Tuple.of(1, Arbitraries.integers().between(65, 4096)));
        return size.list().ofMaxSize(40);
    }

    /**
     * Feeds {@code stream} in reads of the given sizes (cycled), stamping read r with r, then ends the stream with
     * the next stamp.
     *
     * @return for each byte position, the stamp of the read that carried it.
     */
    private static int[] feedInReads(final SseFramer framer, final byte[] stream, final List<Integer> readSizes)
    {
        final int[] readOfByte = new int[stream.length];
        int read = 0;
        int pos = 0;
        while (pos < stream.length)
        {
            final int size = readSizes.isEmpty() ? stream.length : readSizes.get(read % readSizes.size());
            final int length = Math.min(size, stream.length - pos);
            for (int i = pos; i < pos + length; i++)
            {
                readOfByte[i] = read;
            }
            framer.onBytes(stream, pos, length, read);
            pos += length;
            read++;
        }
        framer.onEndOfStream(read);
        return readOfByte;
    }

    /** An event of the reference parse and where the line terminator that dispatched it starts. */
    record RefEvent(RecordingHandler.Payload payload, int terminatorPosition)
    {
    }

    /**
     * A deliberately naive, whole-buffer reading of the SSE grammar, used as an oracle for where each event ends.
     * The terminating byte of an event is the first byte of its blank line's terminator: once a CR or LF arrives
     * the line is complete, whatever follows.
     */
    private static List<RefEvent> reference(final byte[] s)
    {
        final List<RefEvent> events = new ArrayList<>();
        StringBuilder data = null;
        boolean error = false;
        int i = 0;
        while (i < s.length)
        {
            int j = i;
            while (j < s.length && s[j] != '\r' && s[j] != '\n')
            {
                j++;
            }
            if (j == s.length)
            {
                throw new IllegalStateException("recorded streams end with a blank line");
            }
            final String line = new String(s, i, j - i, StandardCharsets.UTF_8);
            if (line.isEmpty())
            {
                if (data != null)
                {
                    events.add(new RefEvent(new RecordingHandler.Payload(data.toString(), error), j));
                }
                data = null;
                error = false;
            }
            else if (!line.startsWith(":"))
            {
                final int colon = line.indexOf(':');
                final String field = colon < 0 ? line : line.substring(0, colon);
                String value = colon < 0 ? "" : line.substring(colon + 1);
                if (value.startsWith(" "))
                {
                    value = value.substring(1);
                }
                if (field.equals("data"))
                {
                    data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                }
                else if (field.equals("event"))
                {
                    error = value.equals("error");
                }
            }
            i = s[j] == '\r' && j + 1 < s.length && s[j + 1] == '\n' ? j + 2 : j + 1;
        }
        return events;
    }

    private static byte[] rewrite(final byte[] stream, final Endings endings)
    {
        if (endings == Endings.ORIGINAL)
        {
            return stream;
        }
        final ByteArrayOutputStream out = new ByteArrayOutputStream(stream.length * 2);
        for (int i = 0; i < stream.length; i++)
        {
            final byte b = stream[i];
            if (b == '\r' || b == '\n')
            {
                if (b == '\r' && i + 1 < stream.length && stream[i + 1] == '\n')
                {
                    i++;
                }
                switch (endings)
                {
                    case LF -> out.write('\n');
                    case CR -> out.write('\r');
                    default ->
                    {
                        out.write('\r');
                        out.write('\n');
                    }
                }
            }
            else
            {
                out.write(b);
            }
        }
        return out.toByteArray();
    }

    private static Map<String, byte[]> loadStreams()
    {
        final Map<String, byte[]> streams = new LinkedHashMap<>();
        for (final String name : RecordedStreams.NAMES)
        {
            streams.put(name, RecordedStreams.load(name));
        }
        return streams;
    }
}
