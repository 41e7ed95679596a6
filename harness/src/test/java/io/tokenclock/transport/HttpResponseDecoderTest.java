package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The kernel client's HTTP/1.1 response decoding: framings, a read that ends anywhere, and broken replies. */
final class HttpResponseDecoderTest
{
    private static final String CHUNKED = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n" +
        "transfer-encoding: chunked\r\n\r\n" +
        "b\r\ndata: one\n\n\r\n" + "B;ext=1\r\ndata: two\n\n\r\n" + "0\r\n\r\n";

    /** What the decoder reported. */
    private static final class Seen implements HttpResponseDecoder.Sink
    {
        int status;
        String type;
        String retryAfter;
        boolean keepAlive;
        final StringBuilder body = new StringBuilder();
        int ends;

        @Override
        public void head(final int status, final String contentType, final String retryAfter, final boolean keep)
        {
            this.status = status;
            this.type = contentType;
            this.retryAfter = retryAfter;
            this.keepAlive = keep;
        }

        @Override
        public void body(final byte[] src, final int offset, final int length)
        {
            body.append(new String(src, offset, length, StandardCharsets.UTF_8));
        }

        @Override
        public void end()
        {
            ends++;
        }
    }

    private static Seen decodeInPieces(final String response, final int piece)
    {
        final byte[] bytes = response.getBytes(StandardCharsets.UTF_8);
        final HttpResponseDecoder d = new HttpResponseDecoder();
        final Seen seen = new Seen();
        for (int at = 0; at < bytes.length && !d.done() && d.failure() == null; at += piece)
        {
            d.decode(bytes, at, Math.min(piece, bytes.length - at), seen);
        }
        return seen;
    }

    @Test
    void shouldDecodeAChunkedEventStream()
    {
        final Seen seen = decodeInPieces(CHUNKED, 1 << 20);
        assertEquals(200, seen.status);
        assertEquals("text/event-stream", seen.type);
        assertTrue(seen.keepAlive);
        assertEquals("data: one\n\ndata: two\n\n", seen.body.toString());
        assertEquals(1, seen.ends);
    }

    @Property(tries = 60)
    void shouldDecodeTheSameWhereverTheReadsEnd(@ForAll @IntRange(min = 1, max = 40) final int piece)
    {
        final Seen seen = decodeInPieces(CHUNKED, piece);
        assertEquals("data: one\n\ndata: two\n\n", seen.body.toString());
        assertEquals(1, seen.ends);
    }

    @Test
    void shouldFrameByContentLengthAndStopAtTheEnd()
    {
        final String r = "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\nContent-Length: 5\r\n\r\nbusy!extra";
        final byte[] bytes = r.getBytes(StandardCharsets.US_ASCII);
        final HttpResponseDecoder d = new HttpResponseDecoder();
        final Seen seen = new Seen();
        final int used = d.decode(bytes, 0, bytes.length, seen);
        assertEquals(bytes.length - "extra".length(), used, "bytes after the response are not consumed");
        assertEquals(429, seen.status);
        assertEquals("3", seen.retryAfter);
        assertEquals("busy!", seen.body.toString());
        assertEquals(1, seen.ends);
    }

    @Test
    void shouldRunABodyWithoutLengthUntilTheClose()
    {
        final HttpResponseDecoder d = new HttpResponseDecoder();
        final Seen seen = new Seen();
        final byte[] bytes = "HTTP/1.0 200 OK\r\n\r\ndata: x\n\n".getBytes(StandardCharsets.US_ASCII);
        d.decode(bytes, 0, bytes.length, seen);
        assertFalse(seen.keepAlive, "a body that ends at the close keeps no connection");
        assertEquals(0, seen.ends);
        d.onClose(seen);
        assertEquals(1, seen.ends);
        assertEquals("data: x\n\n", seen.body.toString());
    }

    @Test
    void shouldHonourConnectionCloseAndAnEmptyBody()
    {
        final Seen seen = decodeInPieces("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n", 100);
        assertEquals(204, seen.status);
        assertFalse(seen.keepAlive);
        assertEquals(1, seen.ends);
    }

    @Test
    void shouldFailOnWhatIsNotHttp()
    {
        for (final String bad : new String[] {"SSH-2.0-OpenSSH\r\n\r\n", "HTTP/1.1 2x0 OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\ncontent-length: -4\r\n\r\n"})
        {
            final HttpResponseDecoder d = new HttpResponseDecoder();
            final byte[] bytes = bad.getBytes(StandardCharsets.US_ASCII);
            d.decode(bytes, 0, bytes.length, new Seen());
            assertNotNull(d.failure(), bad);
        }
        final HttpResponseDecoder ok = new HttpResponseDecoder();
        assertNull(ok.failure());
    }

    @Test
    void shouldFailAtTheFirstLineWhenItIsNotAStatusLineAndNoBlankLineFollows()
    {
        // The simulator's garbage fault: one bad line, more bytes, then the close; Netty's codec fails it at once.
        final HttpResponseDecoder d = new HttpResponseDecoder();
        final byte[] garbage = {0, (byte)0xff, 'N', 'O', 'T', ' ', 'H', 'T', 'T', 'P', '\r', '\n', 0x1b, ']', '0', 7,
            '\r', '\n'};
        d.decode(garbage, 0, garbage.length, new Seen());
        assertNotNull(d.failure(), "failed at the line's end, before any blank line");
    }

    @Test
    void shouldFailAHeadCutAfterItsStatusLineButLeaveACutBeforeAnyLineToTheCaller()
    {
        final Seen seen = new Seen();
        final HttpResponseDecoder cutInHeaders = new HttpResponseDecoder();
        final byte[] partial = "HTTP/1.1 200 OK\r\ncontent-ty".getBytes(StandardCharsets.US_ASCII);
        cutInHeaders.decode(partial, 0, partial.length, seen);
        assertNull(cutInHeaders.failure(), "a head may end in a later read");
        cutInHeaders.onClose(seen);
        assertNotNull(cutInHeaders.failure(), "closed before the headers were received");
        final HttpResponseDecoder cutInStatus = new HttpResponseDecoder();
        final byte[] part = "HTTP/1.1 2".getBytes(StandardCharsets.US_ASCII);
        cutInStatus.decode(part, 0, part.length, seen);
        cutInStatus.onClose(seen);
        assertNull(cutInStatus.failure(), "no whole line: a cut stream, as with Netty");
        assertEquals(0, seen.ends);
    }

    @Test
    void shouldRefuseAnEndlessHead()
    {
        final HttpResponseDecoder d = new HttpResponseDecoder();
        final byte[] junk = new byte[HttpResponseDecoder.MAX_HEAD_BYTES + 10];
        java.util.Arrays.fill(junk, (byte)'a');
        d.decode(junk, 0, junk.length, new Seen());
        assertNotNull(d.failure());
    }
}
