package io.tokenclock.transport.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Where TLS records end in a TCP byte stream, so that a stamped read can stop at the end of one record: a record is a
 * 5-byte header (type, version, a 2-byte big-endian length) and that many bytes. The SSE event boundary that the
 * plain path reads to cannot be seen in ciphertext; the record boundary can, and a server writes one record per
 * write, so one record per read keeps each event its own arrival as one event per read does in plain text.
 * <p>
 * The cursor follows the stream across reads: a read may end inside a record (or inside a header), and the next peek
 * starts there. {@link #firstEnd} looks without moving; {@link #advance} moves over the bytes a read took. It never
 * validates (a server that does not speak TLS gives arbitrary lengths; {@code SSLEngine} refuses those bytes), never
 * throws, and allocates nothing. One thread.
 */
public final class TlsRecords
{
    /** The bytes of a record's header. */
    public static final int HEADER_BYTES = 5;

    /** Header bytes of the current record seen so far (0 to 5). */
    private int headerSeen;
    /** The high byte of the current record's length, once seen. */
    private int lengthHigh;
    /** Once the header is whole: the body bytes of the current record still to come. */
    private int bodyLeft;

    /**
     * @return the index just past the first record that ends within {@code bytes[0, length)} (which start where the
     * last {@link #advance} left the stream), or 0 when none ends there.
     */
    public int firstEnd(final MemorySegment bytes, final int length)
    {
        final int seen = headerSeen;
        final int high = lengthHigh;
        final int left = bodyLeft;
        final int end = walk(bytes, length, true);
        headerSeen = seen;
        lengthHigh = high;
        bodyLeft = left;
        return end;
    }

    /** Moves the cursor over {@code bytes[0, length)}, the bytes a read took from the stream. */
    public void advance(final MemorySegment bytes, final int length)
    {
        walk(bytes, length, false);
    }

    /** @return whether the cursor stands at a record's start (every record read so far is whole). */
    public boolean atBoundary()
    {
        return headerSeen == 0;
    }

    /** Forgets the stream (a new connection). */
    public void reset()
    {
        headerSeen = 0;
        lengthHigh = 0;
        bodyLeft = 0;
    }

    /** @return with {@code stopAtEnd}, the first record end, else 0 when none; without, 0 after walking it all. */
    private int walk(final MemorySegment bytes, final int length, final boolean stopAtEnd)
    {
        int i = 0;
        while (i < length)
        {
            if (headerSeen < HEADER_BYTES)
            {
                final int b = bytes.get(ValueLayout.JAVA_BYTE, i) & 0xff;
                if (headerSeen == 3)
                {
                    lengthHigh = b;
                }
                else if (headerSeen == 4)
                {
                    bodyLeft = lengthHigh << 8 | b;
                }
                headerSeen++;
                i++;
            }
            else
            {
                final int take = Math.min(bodyLeft, length - i);
                bodyLeft -= take;
                i += take;
            }
            if (headerSeen == HEADER_BYTES && bodyLeft == 0)
            {
                headerSeen = 0;
                if (stopAtEnd)
                {
                    return i;
                }
            }
        }
        return 0;
    }
}
