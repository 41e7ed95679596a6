package io.tokenclock.framing;

/**
 * Frames a Server-Sent Events byte stream into events, on bytes, without allocating in steady state.
 * <p>
 * Follows the WHATWG event-stream grammar as far as LLM servers use it: lines end in {@code \n}, {@code \r\n} or
 * {@code \r}; a blank line dispatches the event; lines starting with {@code ':'} are comments (keep-alives); a field
 * is {@code name:value} with one optional space after the colon, so both {@code data: x} and {@code data:x} work;
 * several {@code data} lines join with {@code '\n'}. Only {@code data} and {@code event} fields are kept; {@code id}
 * and {@code retry} mean nothing for a single completion stream and are dropped.
 * <p>
 * Reads may split an event (or a {@code \r\n} pair) anywhere, and one read may hold many events. An event is stamped
 * with the arrival time of the read that <em>completed</em> it: that is the moment the client could have seen the
 * token, which is the moment a user-facing latency must end.
 * <p>
 * Worked example: the reads {@code "data: {\"a\"" } at t=10 and {@code ":1}\n\ndata: [DONE]\n\n"} at t=25 give two
 * events, {@code {"a":1}} and {@code [DONE]}, both stamped 25.
 * <p>
 * One framer serves one stream at a time and is not thread-safe; {@link #reset()} readies it for the next response on
 * a kept-alive connection. Buffers ({@link AppendBuffer}) start at {@code initialCapacity} and double when a longer
 * line or event arrives, up to {@code maxEventBytes}, past which a line or event keeps its start and is counted
 * ({@link #overflowCount()}); after warm-up, framing allocates nothing.
 */
public final class SseFramer
{
    /** Default upper bound for one line or one event's data: 16 MiB. */
    public static final int DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final byte COLON = ':';
    private static final byte SPACE = ' ';

    private final SseEventHandler handler;
    private final int maxEventBytes;

    private final AppendBuffer line;
    private final AppendBuffer data;
    private boolean hasData;
    private boolean errorEvent;
    private boolean afterCr;
    private boolean truncated;
    private long overflowCount;

    public SseFramer(final SseEventHandler handler)
    {
        this(handler, 4096, DEFAULT_MAX_EVENT_BYTES);
    }

    /**
     * A framer whose line buffer starts at {@code initialCapacity} bytes and grows to at most {@code maxEventBytes}: an
     * event larger than that is a protocol error, not a reason to grow without bound.
     */
    public SseFramer(final SseEventHandler handler, final int initialCapacity, final int maxEventBytes)
    {
        if (initialCapacity < 16 || maxEventBytes < initialCapacity)
        {
            throw new IllegalArgumentException("need 16 <= initialCapacity <= maxEventBytes");
        }
        this.handler = handler;
        this.maxEventBytes = maxEventBytes;
        this.line = new AppendBuffer(initialCapacity);
        this.data = new AppendBuffer(initialCapacity);
    }

    /**
     * Feeds one network read.
     *
     * @param src       the bytes read.
     * @param offset    start of the read in {@code src}.
     * @param length    number of bytes read.
     * @param arrivalNs the stamp taken when the read arrived, before any parsing.
     */
    public void onBytes(final byte[] src, final int offset, final int length, final long arrivalNs)
    {
        final int end = offset + length;
        int i = offset;
        while (i < end)
        {
            if (afterCr)
            {
                afterCr = false;
                if (src[i] == LF)
                {
                    i++;
                    continue;
                }
            }

            final int eol = findEol(src, i, end);
            if (eol < 0)
            {
                appendLine(src, i, end - i);
                return;
            }

            if (line.length() == 0)
            {
                onLine(src, i, eol - i, arrivalNs);
            }
            else
            {
                appendLine(src, i, eol - i);
                onLine(line.array(), 0, line.length(), arrivalNs);
                line.clear();
            }
            afterCr = src[eol] == CR;
            i = eol + 1;
        }
    }

    /**
     * Flushes an event left without its blank line when the stream ends (some servers end the body right after the
     * last {@code data} line). A partial line is treated as complete.
     *
     * @param arrivalNs stamp of the read that ended the stream.
     */
    public void onEndOfStream(final long arrivalNs)
    {
        if (line.length() > 0)
        {
            onLine(line.array(), 0, line.length(), arrivalNs);
            line.clear();
        }
        dispatch(arrivalNs);
        afterCr = false;
    }

    /** Forgets any partial line or event, for the next response on the same connection. */
    public void reset()
    {
        line.clear();
        data.clear();
        hasData = false;
        errorEvent = false;
        afterCr = false;
        truncated = false;
    }

    /**
     * @return how many lines or events were longer than {@code maxEventBytes} and were truncated; an event counts
     * once however many of its lines or reads overflowed.
     */
    public long overflowCount()
    {
        return overflowCount;
    }

    private static int findEol(final byte[] src, final int from, final int end)
    {
        return ByteScan.indexOfEither(src, from, end, LF, CR);
    }

    private void onLine(final byte[] buf, final int start, final int length, final long arrivalNs)
    {
        if (length == 0)
        {
            dispatch(arrivalNs);
            return;
        }
        if (buf[start] == COLON)
        {
            return;
        }

        int colon = -1;
        for (int i = start, end = start + length; i < end; i++)
        {
            if (buf[i] == COLON)
            {
                colon = i;
                break;
            }
        }
        final int nameLength = colon < 0 ? length : colon - start;
        int valueStart = colon < 0 ? start + length : colon + 1;
        if (valueStart < start + length && buf[valueStart] == SPACE)
        {
            valueStart++;
        }
        final int valueLength = start + length - valueStart;

        if (isField(buf, start, nameLength, 'd', 'a', 't', 'a'))
        {
            if (hasData)
            {
                appendData(LF);
            }
            appendData(buf, valueStart, valueLength);
            hasData = true;
        }
        else if (nameLength == 5 && isField(buf, start, 4, 'e', 'v', 'e', 'n') && buf[start + 4] == 't')
        {
            errorEvent = valueLength == 5 && isField(buf, valueStart, 4, 'e', 'r', 'r', 'o') &&
                buf[valueStart + 4] == 'r';
        }
    }

    private static boolean isField(
        final byte[] buf, final int start, final int length, final char c0, final char c1, final char c2, final char c3)
    {
        return length == 4 && buf[start] == c0 && buf[start + 1] == c1 && buf[start + 2] == c2 && buf[start + 3] == c3;
    }

    private void dispatch(final long arrivalNs)
    {
        if (hasData)
        {
            handler.onEvent(data.array(), 0, data.length(), errorEvent, arrivalNs);
        }
        data.clear();
        hasData = false;
        errorEvent = false;
        truncated = false;
    }

    private void appendLine(final byte[] src, final int offset, final int length)
    {
        if (!line.appendPrefix(src, offset, length, maxEventBytes))
        {
            onTruncated();
        }
    }

    private void appendData(final byte[] src, final int offset, final int length)
    {
        if (!data.appendPrefix(src, offset, length, maxEventBytes))
        {
            onTruncated();
        }
    }

    private void appendData(final byte b)
    {
        if (!data.append(b, maxEventBytes))
        {
            onTruncated();
        }
    }

    private void onTruncated()
    {
        // Count each truncated event (or comment block) once, not once per overflowing append: otherwise the count
        // would depend on how the network happened to split the stream into reads.
        if (!truncated)
        {
            truncated = true;
            overflowCount++;
        }
    }
}
