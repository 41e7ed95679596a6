package io.tokenclock.transport;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

import io.tokenclock.text.UntrustedText;

/**
 * An HTTP/1.1 response decoder over raw bytes, for both transports (the kernel-stamped client and Netty's
 * {@code ResponseHandler}): the head (status, the headers this client acts on), then the body framed by
 * {@code chunked}, by {@code Content-Length}, or by the connection's close.
 * Body bytes are handed on as spans of the read buffer, without a copy. Incremental: a read may end anywhere, in the
 * head, a chunk-size line or a chunk. Allocation-free in the body; the head is parsed once per response.
 * Single-threaded; {@link #reset} before each response.
 */
final class HttpResponseDecoder
{
    /** The longest response head accepted (as Netty's codec is configured: 4 KiB line, 16 KiB headers). */
    static final int MAX_HEAD_BYTES = 20 * 1024;

    /** What the decoder finds. */
    interface Sink
    {
        /** The head: status, Content-Type, Retry-After (null when absent), and whether the connection is kept. */
        void head(int status, String contentType, String retryAfter, boolean keepAlive);

        /** Body bytes, {@code src[offset, offset + length)}, valid only during the call. */
        void body(byte[] src, int offset, int length);

        /** The last byte of the response. */
        void end();
    }

    private enum State
    {
        HEAD, CHUNK_SIZE, CHUNK_DATA, CHUNK_CRLF, TRAILERS, LENGTH, UNTIL_CLOSE, DONE
    }

    private final byte[] head = new byte[MAX_HEAD_BYTES];
    private int headLength;
    private State state = State.HEAD;
    private long remaining;
    private long chunkSize;
    private boolean sizeDigits;
    private boolean inExtension;
    private int trailerLineBytes;
    /** Whether the head's first line has ended and been found a status line. */
    private boolean statusLineSeen;
    private String failure;

    void reset()
    {
        state = State.HEAD;
        headLength = 0;
        statusLineSeen = false;
        remaining = 0;
        failure = null;
    }

    /** @return why the response is not valid HTTP, or null. */
    String failure()
    {
        return failure;
    }

    /** @return the error detail of a response that is not valid HTTP (the server's words escaped), or null. */
    String failureDetail()
    {
        return failure == null ? null : "the server's reply is not valid HTTP: " + UntrustedText.oneLine(failure);
    }

    /** @return whether no byte of the response has come since {@link #reset}. */
    boolean untouched()
    {
        return state == State.HEAD && headLength == 0 && failure == null;
    }

    /** @return whether the response has ended. */
    boolean done()
    {
        return state == State.DONE;
    }

    /** @return whether the body runs until the server closes the connection. */
    boolean endsAtClose()
    {
        return state == State.UNTIL_CLOSE;
    }

    /**
     * Decodes {@code src[offset, offset + length)}.
     *
     * @return the bytes consumed; fewer than {@code length} only when the response ended (the rest belongs to no
     * request) or {@link #failure()} is set.
     */
    int decode(final byte[] src, final int offset, final int length, final Sink sink)
    {
        int at = offset;
        final int end = offset + length;
        while (at < end && state != State.DONE && failure == null)
        {
            at = switch (state)
            {
                case HEAD -> head(src, at, end, sink);
                case CHUNK_SIZE -> chunkSize(src, at, end, sink);
                case CHUNK_DATA, LENGTH -> data(src, at, end, sink);
                case CHUNK_CRLF -> chunkCrlf(src, at, end);
                case TRAILERS -> trailers(src, at, end, sink);
                case UNTIL_CLOSE -> untilClose(src, at, end, sink);
                case DONE -> end;
            };
        }
        return at - offset;
    }

    private int head(final byte[] src, final int from, final int end, final Sink sink)
    {
        for (int i = from; i < end; i++)
        {
            if (headLength == MAX_HEAD_BYTES)
            {
                failure = "the response head is longer than " + MAX_HEAD_BYTES + " bytes";
                return i;
            }
            head[headLength++] = src[i];
            if (!statusLineSeen && headLength >= 2 && head[headLength - 1] == '\n' && head[headLength - 2] == '\r')
            {
                // Judged at its own end, as Netty's codec does: bytes that are not HTTP fail now, not at a blank line
                // that may never come (a server that writes garbage and closes is a protocol error, not a cut).
                statusLineSeen = true;
                if (statusLine(new String(head, 0, headLength - 2, StandardCharsets.ISO_8859_1)) < 0)
                {
                    return i;
                }
            }
            if (headLength >= 4 && head[headLength - 1] == '\n' && head[headLength - 2] == '\r' &&
                head[headLength - 3] == '\n' && head[headLength - 4] == '\r')
            {
                parseHead(sink);
                return i + 1;
            }
        }
        return end;
    }

    private void parseHead(final Sink sink)
    {
        final String text = new String(head, 0, headLength - 4, StandardCharsets.ISO_8859_1);
        final String[] lines = text.split("\r\n");
        final int status = statusLine(lines[0]);
        if (status < 0)
        {
            return;
        }
        final String[] kept = headers(lines);
        if (failure != null)
        {
            return;
        }
        final String type = kept[0];
        final String retryAfter = kept[1];
        final String connection = kept[2];
        final String encoding = kept[3];
        final long contentLength = kept[4] == null ? -1 : parseLength(kept[4]);
        if (failure != null)
        {
            return;
        }
        final boolean http10 = lines[0].startsWith("HTTP/1.0 ");
        final boolean keepAlive = connection == null ? !http10 : !connection.contains("close");
        frame(status, encoding, contentLength);
        sink.head(status, type, retryAfter, keepAlive && state != State.UNTIL_CLOSE);
        if (state == State.LENGTH && remaining == 0)
        {
            state = State.DONE;
            sink.end();
        }
    }

    /** @return the status of {@code line}, or -1 with {@link #failure} set when it is not an HTTP/1.x status line. */
    private int statusLine(final String line)
    {
        final String[] parts = line.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || parts[1].length() != 3)
        {
            failure = "not an HTTP/1.x status line: " + line;
            return -1;
        }
        try
        {
            return Integer.parseInt(parts[1]);
        }
        catch (final NumberFormatException e)
        {
            failure = "not an HTTP status: " + parts[1];
            return -1;
        }
    }

    /** @return Content-Type, Retry-After, Connection, Transfer-Encoding and Content-Length (null: absent). */
    private String[] headers(final String[] lines)
    {
        final String[] kept = new String[5];
        for (int i = 1; i < lines.length; i++)
        {
            final int colon = lines[i].indexOf(':');
            if (colon <= 0)
            {
                failure = "a header line without a name: " + lines[i];
                return kept;
            }
            final String value = lines[i].substring(colon + 1).trim();
            switch (lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT))
            {
                case "content-type" -> kept[0] = value;
                case "retry-after" -> kept[1] = value;
                case "connection" -> kept[2] = value.toLowerCase(Locale.ROOT);
                case "transfer-encoding" -> kept[3] = value.toLowerCase(Locale.ROOT);
                case "content-length" -> kept[4] = value;
                default ->
                {
                }
            }
        }
        return kept;
    }

    private void frame(final int status, final String encoding, final long contentLength)
    {
        if (status == 204 || status == 304 || status / 100 == 1)
        {
            state = State.LENGTH;
            remaining = 0;
        }
        else if (encoding != null && encoding.contains("chunked"))
        {
            startChunkSize();
        }
        else if (contentLength >= 0)
        {
            state = State.LENGTH;
            remaining = contentLength;
        }
        else
        {
            state = State.UNTIL_CLOSE;
        }
    }

    private long parseLength(final String value)
    {
        try
        {
            final long n = Long.parseLong(value);
            if (n >= 0)
            {
                return n;
            }
        }
        catch (final NumberFormatException e)
        {
            // reported below
        }
        failure = "a Content-Length that is not a length: " + value;
        return -1;
    }

    private void startChunkSize()
    {
        state = State.CHUNK_SIZE;
        chunkSize = 0;
        sizeDigits = false;
        inExtension = false;
    }

    private int chunkSize(final byte[] src, final int from, final int end, final Sink sink)
    {
        for (int i = from; i < end; i++)
        {
            final byte b = src[i];
            if (b == '\n')
            {
                if (!sizeDigits)
                {
                    failure = "a chunk without a size";
                    return i;
                }
                if (chunkSize == 0)
                {
                    state = State.TRAILERS;
                    trailerLineBytes = 0;
                }
                else
                {
                    state = State.CHUNK_DATA;
                    remaining = chunkSize;
                }
                return i + 1;
            }
            if (b == '\r' || inExtension)
            {
                continue;
            }
            if (b == ';')
            {
                inExtension = true;
                continue;
            }
            final int digit = Character.digit(b, 16);
            if (digit < 0 || chunkSize > (Long.MAX_VALUE >> 4))
            {
                failure = "a chunk size that is not hexadecimal";
                return i;
            }
            chunkSize = chunkSize << 4 | digit;
            sizeDigits = true;
        }
        return end;
    }

    private int data(final byte[] src, final int from, final int end, final Sink sink)
    {
        final int n = (int)Math.min(remaining, end - from);
        if (n > 0)
        {
            sink.body(src, from, n);
        }
        remaining -= n;
        if (remaining == 0)
        {
            if (state == State.LENGTH)
            {
                state = State.DONE;
                sink.end();
            }
            else
            {
                state = State.CHUNK_CRLF;
            }
        }
        return from + n;
    }

    private int chunkCrlf(final byte[] src, final int from, final int end)
    {
        for (int i = from; i < end; i++)
        {
            if (src[i] == '\n')
            {
                startChunkSize();
                return i + 1;
            }
            if (src[i] != '\r')
            {
                failure = "a chunk not followed by CRLF";
                return i;
            }
        }
        return end;
    }

    private int trailers(final byte[] src, final int from, final int end, final Sink sink)
    {
        for (int i = from; i < end; i++)
        {
            if (src[i] == '\n')
            {
                if (trailerLineBytes == 0)
                {
                    state = State.DONE;
                    sink.end();
                    return i + 1;
                }
                trailerLineBytes = 0;
            }
            else if (src[i] != '\r')
            {
                trailerLineBytes++;
            }
        }
        return end;
    }

    private int untilClose(final byte[] src, final int from, final int end, final Sink sink)
    {
        sink.body(src, from, end - from);
        return end;
    }

    /**
     * The connection closed: a body that runs until the close ends here. A close after the status line but before
     * the head's end is a protocol failure (Netty's codec says the same: closed before the headers were received);
     * a close before any whole line is a cut stream, left to the caller.
     */
    void onClose(final Sink sink)
    {
        if (state == State.UNTIL_CLOSE)
        {
            state = State.DONE;
            sink.end();
        }
        else if (state == State.HEAD && statusLineSeen && failure == null)
        {
            failure = "the connection closed before the response head ended";
        }
    }
}
