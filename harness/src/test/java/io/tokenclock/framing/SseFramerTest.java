package io.tokenclock.framing;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SseFramerTest
{
    private final RecordingHandler handler = new RecordingHandler();
    private final SseFramer framer = new SseFramer(handler);

    @Test
    void shouldFrameSeveralEventsInOneRead()
    {
        feed(framer, "data: {\"a\":1}\n\ndata: {\"b\":2}\n\ndata: [DONE]\n\n", 42);

        assertEquals(List.of("{\"a\":1}", "{\"b\":2}", "[DONE]"), handler.texts());
        assertEquals(List.of(42L, 42L, 42L), handler.stamps());
        assertFalse(handler.events.get(0).errorType());
    }

    @Test
    void shouldFrameEventSplitAcrossReadsWithArrivalOfReadThatCompletedIt()
    {
        feed(framer, "data: {\"a\"", 10);
        assertTrue(handler.events.isEmpty());

        feed(framer, ":1}\n\ndata: [DONE]\n\n", 25);

        assertEquals(List.of("{\"a\":1}", "[DONE]"), handler.texts());
        assertEquals(List.of(25L, 25L), handler.stamps());
    }

    @Test
    void shouldStampEventWithReadThatDeliveredBlankLineNotReadThatDeliveredData()
    {
        feed(framer, "data: one\n", 10);
        feed(framer, "\ndata: two\n", 20);
        feed(framer, "\n", 30);

        assertEquals(List.of("one", "two"), handler.texts());
        assertEquals(List.of(20L, 30L), handler.stamps());
    }

    @Test
    void shouldStampEachEventOfSeveralReadsWithItsOwnCompletingRead()
    {
        feed(framer, "data: a\n\ndata: b", 1);
        feed(framer, "\n\ndata: c\n\nda", 2);
        feed(framer, "ta: d\n\n", 3);

        assertEquals(List.of("a", "b", "c", "d"), handler.texts());
        assertEquals(List.of(1L, 2L, 2L, 3L), handler.stamps());
    }

    @Test
    void shouldFrameCrLfLineEndings()
    {
        feed(framer, "data: a\r\ndata: b\r\n\r\ndata: c\r\n\r\n", 5);

        assertEquals(List.of("a\nb", "c"), handler.texts());
    }

    @Test
    void shouldFrameLoneCrLineEndings()
    {
        feed(framer, "data: a\rdata: b\r\rdata: c\r\r", 5);

        assertEquals(List.of("a\nb", "c"), handler.texts());
    }

    @Test
    void shouldFrameMixedLineEndings()
    {
        feed(framer, "data: a\r\ndata: b\rdata: c\n\r\ndata: d\r\n\n", 5);

        assertEquals(List.of("a\nb\nc", "d"), handler.texts());
    }

    @Test
    void shouldTreatCrLfPairSplitAcrossReadsAsOneLineEnding()
    {
        feed(framer, "data: a\r", 1);
        feed(framer, "\ndata: b\r", 2);
        feed(framer, "\n\r", 3);
        feed(framer, "\ndata: c\r\n\r", 4);
        feed(framer, "\n", 5);

        // Had the split '\n' been read as a second, blank line, "a" and "b" would have been dispatched apart.
        assertEquals(List.of("a\nb", "c"), handler.texts());
        assertEquals(List.of(3L, 4L), handler.stamps());
    }

    @Test
    void shouldTreatCrAtEndOfReadFollowedByNonLfAsLoneCr()
    {
        feed(framer, "data: a\r", 1);
        feed(framer, "\r", 2);
        feed(framer, "data: b\r", 3);
        feed(framer, "\r\n", 4);

        assertEquals(List.of("a", "b"), handler.texts());
        assertEquals(List.of(2L, 4L), handler.stamps());
    }

    @Test
    void shouldIgnoreComments()
    {
        feed(framer, ": keep-alive\n\n:\n\ndata: a\n: ping in the middle\ndata: b\n\n: bye\n\n", 1);

        assertEquals(List.of("a\nb"), handler.texts());
    }

    @Test
    void shouldNotTreatCommentAsEventWhenStreamEnds()
    {
        feed(framer, ": keep-alive", 1);
        framer.onEndOfStream(2);

        assertTrue(handler.events.isEmpty());
    }

    @Test
    void shouldAcceptDataFieldWithAndWithoutSpaceAfterColon()
    {
        feed(framer, "data:{\"x\":1}\n\ndata: {\"x\":2}\n\n", 1);

        assertEquals(List.of("{\"x\":1}", "{\"x\":2}"), handler.texts());
    }

    @Test
    void shouldStripOnlyOneLeadingSpaceFromValue()
    {
        feed(framer, "data:  two spaces\n\ndata:\tnot a space\n\ndata: trailing space \n\n", 1);

        assertEquals(List.of(" two spaces", "\tnot a space", "trailing space "), handler.texts());
    }

    @Test
    void shouldKeepColonsInsideValue()
    {
        feed(framer, "data: a:b: c\n\n", 1);

        assertEquals(List.of("a:b: c"), handler.texts());
    }

    @Test
    void shouldJoinMultiLineDataWithNewline()
    {
        feed(framer, "data: first\ndata:second\ndata:  third\n\n", 1);

        assertEquals(List.of("first\nsecond\n third"), handler.texts());
    }

    @Test
    void shouldIgnoreIdRetryAndUnknownFields()
    {
        feed(framer, "id: 7\nretry: 1000\nfoo: bar\ndata: x\nDATA: y\ndatum: z\n\n", 1);

        assertEquals(List.of("x"), handler.texts());
    }

    @Test
    void shouldNotDispatchBlockWithoutData()
    {
        feed(framer, "event: error\nid: 1\n\ndata: a\n\n", 1);

        assertEquals(List.of("a"), handler.texts());
        assertFalse(handler.events.get(0).errorType(), "event type must not leak from a block without data");
    }

    @Test
    void shouldFlagEventNamedError()
    {
        feed(framer, "event: error\ndata: {\"error\":{}}\n\n", 1);
        feed(framer, "data: plain\n\n", 2);
        feed(framer, "event:error\ndata: no space\n\n", 3);
        feed(framer, "data: data first\nevent: error\n\n", 4);

        assertEquals(List.of(true, false, true, true), handler.events.stream().map(e -> e.errorType()).toList());
    }

    @Test
    void shouldNotFlagOtherEventNames()
    {
        feed(framer, "event: message\ndata: a\n\nevent: errors\ndata: b\n\nevent: Error\ndata: c\n\n", 1);
        feed(framer, "event: erro\ndata: d\n\nevent: error\nevent: message\ndata: e\n\n", 1);

        assertEquals(List.of("a", "b", "c", "d", "e"), handler.texts());
        handler.events.forEach(e -> assertFalse(e.errorType(), e.toString()));
    }

    @Test
    void shouldDeliverDoneSentinelAsData()
    {
        feed(framer, "data: [DONE]\n\n", 9);

        assertEquals(List.of("[DONE]"), handler.texts());
        assertEquals(List.of(9L), handler.stamps());
    }

    @Test
    void shouldFlushTrailingEventWithoutBlankLineAtEndOfStream()
    {
        feed(framer, "data: a\n\ndata: b\n", 1);
        assertEquals(List.of("a"), handler.texts());

        framer.onEndOfStream(7);

        assertEquals(List.of("a", "b"), handler.texts());
        assertEquals(List.of(1L, 7L), handler.stamps());
    }

    @Test
    void shouldFlushTrailingPartialLineAtEndOfStream()
    {
        feed(framer, "data: x\ndata: [DO", 1);
        feed(framer, "NE]", 2);

        framer.onEndOfStream(3);

        assertEquals(List.of("x\n[DONE]"), handler.texts());
        assertEquals(List.of(3L), handler.stamps());
    }

    @Test
    void shouldNotRedeliverDispatchedEventAtEndOfStream()
    {
        feed(framer, "data: a\n\n", 1);

        framer.onEndOfStream(2);
        framer.onEndOfStream(3);

        assertEquals(List.of("a"), handler.texts());
    }

    @Test
    void shouldForgetPartialEventOnReset()
    {
        feed(framer, "event: error\ndata: stale\ndata: part", 1);

        framer.reset();
        feed(framer, "ial\n\ndata: fresh\n\n", 2);

        // "ial" is now a line of its own, a field named "ial", so the first complete event is "fresh".
        assertEquals(List.of("fresh"), handler.texts());
        assertFalse(handler.events.get(0).errorType());
    }

    @Test
    void shouldForgetPartialEventOnResetBeforeEndOfStream()
    {
        feed(framer, "data: stale\n", 1);

        framer.reset();
        framer.onEndOfStream(2);

        assertTrue(handler.events.isEmpty());
    }

    @Test
    void shouldFrameNextResponseNormallyAfterReset()
    {
        feed(framer, "data: a\n\n", 1);
        framer.reset();
        feed(framer, "data: b\r\n\r\n", 2);

        assertEquals(List.of("a", "b"), handler.texts());
    }

    @Test
    void shouldIgnoreEmptyReadAndRespectOffset()
    {
        final byte[] src = "JUNKdata: a\n\nJUNK".getBytes(StandardCharsets.US_ASCII);

        framer.onBytes(src, 0, 0, 1);
        framer.onBytes(src, 4, src.length - 8, 2);

        assertEquals(List.of("a"), handler.texts());
        assertEquals(List.of(2L), handler.stamps());
    }

    @Test
    void shouldKeepRawNonAsciiBytes()
    {
        final byte[] utf8 = "data: Gr\u00fc\u00dfe \u6771\u4eac\n\n".getBytes(StandardCharsets.UTF_8);

        framer.onBytes(utf8, 0, utf8.length, 1);

        assertEquals(List.of("Gr\u00fc\u00dfe \u6771\u4eac"), handler.texts());
    }

    @Test
    void shouldGrowBuffersForEventLargerThanInitialCapacityInOneRead()
    {
        final RecordingHandler h = new RecordingHandler();
        final SseFramer small = new SseFramer(h, 16, 1 << 20);
        final String big = repeat("0123456789", 1000);

        feed(small, "data: " + big + "\n\ndata: after\n\n", 1);

        assertEquals(List.of(big, "after"), h.texts());
        assertEquals(0, small.overflowCount());
    }

    @Test
    void shouldGrowBuffersForEventLargerThanInitialCapacitySplitAcrossReads()
    {
        final RecordingHandler h = new RecordingHandler();
        final SseFramer small = new SseFramer(h, 16, 1 << 20);
        final String line = repeat("abcdefghij", 50);
        final byte[] stream = ("data: " + line + "\ndata: " + line + "\ndata: " + line + "\n\ndata: after\n\n")
            .getBytes(StandardCharsets.US_ASCII);

        for (int i = 0; i < stream.length; i += 7)
        {
            small.onBytes(stream, i, Math.min(7, stream.length - i), i);
        }

        assertEquals(List.of(line + "\n" + line + "\n" + line, "after"), h.texts());
        assertEquals(0, small.overflowCount());
    }

    @Test
    void shouldTruncateAndCountEventBeyondMaxEventBytes()
    {
        final RecordingHandler h = new RecordingHandler();
        final SseFramer small = new SseFramer(h, 16, 64);
        final String big = repeat("x", 100);

        feed(small, "data: " + big + "\n\ndata: after\n\n", 1);

        assertEquals(2, h.events.size());
        assertEquals(repeat("x", 64), h.texts().get(0));
        assertEquals("after", h.texts().get(1));
        assertEquals(1, small.overflowCount());
    }

    @Test
    void shouldTruncateAndCountMultiLineEventWhoseJoinedDataExceedsMaxEventBytes()
    {
        final RecordingHandler h = new RecordingHandler();
        final SseFramer small = new SseFramer(h, 16, 64);
        final String line = repeat("y", 31);
        final String joined = line + "\n" + line + "\n" + line + "\n" + line;

        feed(small, "data: " + joined.replace("\n", "\ndata: ") + "\n\ndata: after\n\n", 1);

        assertEquals(2, h.events.size());
        final String truncated = h.texts().get(0);
        assertEquals(64, truncated.length());
        assertTrue(joined.startsWith(truncated), truncated);
        assertEquals("after", h.texts().get(1));
        assertEquals(1, small.overflowCount());
    }

    @Test
    void shouldCountOversizedEventOnceWhenItArrivesInManyReads()
    {
        final RecordingHandler h = new RecordingHandler();
        final SseFramer small = new SseFramer(h, 16, 64);
        final byte[] stream = ("data: " + repeat("z", 200) + "\n\ndata: after\n\n").getBytes(StandardCharsets.US_ASCII);

        for (int i = 0; i < stream.length; i++)
        {
            small.onBytes(stream, i, 1, i);
        }

        assertEquals(2, h.events.size());
        final String truncated = h.texts().get(0);
        assertTrue(!truncated.isEmpty() && truncated.length() <= 64 && truncated.chars().allMatch(c -> c == 'z'),
            truncated);
        assertEquals("after", h.texts().get(1));
        assertEquals(1, small.overflowCount(), "one truncated event, however the network split it");
    }

    @Test
    void shouldCountEachOversizedEventSeparately()
    {
        final RecordingHandler h = new RecordingHandler();
        final SseFramer small = new SseFramer(h, 16, 32);
        final String big = repeat("w", 50);

        feed(small, "data: " + big + "\n\ndata: ok\n\ndata: " + big + "\n\n", 1);

        assertEquals(List.of(repeat("w", 32), "ok", repeat("w", 32)), h.texts());
        assertEquals(2, small.overflowCount());
    }

    @Test
    void shouldRejectInvalidCapacities()
    {
        assertThrows(IllegalArgumentException.class, () -> new SseFramer(handler, 15, 1024));
        assertThrows(IllegalArgumentException.class, () -> new SseFramer(handler, 64, 32));
    }

    @Test
    void shouldPassFramerOwnBufferWithOffsetAndLength()
    {
        final byte[][] seen = new byte[1][];
        final SseFramer f = new SseFramer((data, offset, length, errorType, ns) ->
        {
            final byte[] copy = new byte[length];
            System.arraycopy(data, offset, copy, 0, length);
            seen[0] = copy;
        });

        feed(f, "data: abc\n\n", 1);

        assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), seen[0]);
    }

    static void feed(final SseFramer framer, final String s, final long ns)
    {
        final byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        framer.onBytes(bytes, 0, bytes.length, ns);
    }

    private static String repeat(final String s, final int n)
    {
        return s.repeat(n);
    }
}
