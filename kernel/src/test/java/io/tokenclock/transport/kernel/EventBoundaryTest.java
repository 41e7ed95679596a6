package io.tokenclock.transport.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** A backlog is cut at the end of its first event: a blank line, LF or CRLF; chunk framing is not an end. */
final class EventBoundaryTest
{
    private static int end(final String s)
    {
        final byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        return EventBoundary.firstEnd(MemorySegment.ofArray(b), b.length);
    }

    @Test
    void shouldEndTheFirstEventAfterItsBlankLine()
    {
        assertEquals("c\r\ndata: one\n\n\r\n".length(), end("c\r\ndata: one\n\n\r\nc\r\ndata: two\n\n\r\n"),
            "the CRLF closing the event's HTTP chunk goes with it");
        assertEquals("data: a\r\n\r\n".length(), end("data: a\r\n\r\ndata: b\r\n\r\n"));
        assertEquals("HTTP/1.1 200 OK\r\n\r\n".length(), end("HTTP/1.1 200 OK\r\n\r\nc\r\n"), "a head ends too");
        assertEquals(0, end("c\r\ndata: half"), "no end yet");
        assertEquals(0, end("\r\nc\r\n"), "chunk framing alone");
        assertEquals(0, end(""));
    }

    @Test
    void shouldReadAChunkedEventWithItsClosingCrlfInOneRead()
    {
        final String event = "d\r\ndata: one\n\n\r\n";
        assertEquals(event.length(), end(event), "nothing left behind: no second read for two bytes");
        assertEquals("c\r\ndata: one\n\n".length(), end("c\r\ndata: one\n\n\r"), "half a CRLF stays");
        assertEquals("data: a\r\n\r\n\r\n".length(), end("data: a\r\n\r\n\r\nd\r\n"));
    }

    private static String pieces(final String s, final int max)
    {
        final byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        final int[] ends = new int[16];
        final int n = EventBoundary.pieces(MemorySegment.ofArray(b), b.length, ends, max);
        final StringBuilder out = new StringBuilder();
        int from = 0;
        for (int i = 0; i < n; i++)
        {
            out.append('[').append(s, from, ends[i]).append(']');
            from = ends[i];
        }
        return out.toString();
    }

    @Test
    void shouldCutAQueueAtEveryEventsEndAndKeepAnUnfinishedEventAsTheLastPiece()
    {
        assertEquals("[HTTP/1.1 200 OK\r\n\r\n][c\r\ndata: one\n\n\r\n][c\r\ndata: two\n\n\r\n][d\r\nda]",
            pieces("HTTP/1.1 200 OK\r\n\r\nc\r\ndata: one\n\n\r\nc\r\ndata: two\n\n\r\nd\r\nda", 16));
        assertEquals("[data: a\n\n][data: b\n\n]", pieces("data: a\n\ndata: b\n\n", 16),
            "no empty piece after the last end");
        assertEquals("[data: a\n\n]", pieces("data: a\n\ndata: b\n\n", 1),
            "at most the pieces asked for: the rest is in none");
        assertEquals("[half]", pieces("half", 16));
        assertEquals("", pieces("", 16));
    }

    @Test
    void shouldNotTakeTheBlankLineOfTheEventBeforeAsTheNextOnesEnd()
    {
        // "\n\n" spans the cut at 4: its first \n is the byte before, so the bytes from 4 hold no blank line
        final byte[] b = "abc\n\nxyz".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0, EventBoundary.firstEnd(MemorySegment.ofArray(b), 4, b.length));
        assertEquals(5, EventBoundary.firstEnd(MemorySegment.ofArray(b), 0, b.length));
        final byte[] crlf = "data: a\r\n\r\n\r\nx".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0, EventBoundary.firstEnd(MemorySegment.ofArray(crlf), 11, crlf.length),
            "the CRLF after an event's blank line is not a blank line of the next");
    }
}
