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
}
