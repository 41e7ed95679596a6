package io.tokenclock.transport.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Where the first event in a run of queued bytes ends: just after its blank line ({@code \n\n}, or {@code \r\n\r\n}
 * as an SSE server with CRLF lines or an HTTP head ends), and after the CRLF that closes its HTTP chunk when that CRLF
 * follows at once. The chunked-encoding framing around an event holds no blank line. Without the closing CRLF, a
 * chunked answer cut every read two bytes short: each event cost a second peek and read for its CRLF alone, and each
 * read counted as a backlog read (measured in {@code PerChunkKernelBenchmark}).
 */
final class EventBoundary
{
    private EventBoundary()
    {
    }

    /**
     * @return the index just past the first blank line in {@code bytes[0, length)} and a CRLF right after it, or 0
     * when there is no blank line.
     */
    static int firstEnd(final MemorySegment bytes, final int length)
    {
        return firstEnd(bytes, 0, length);
    }

    /**
     * @return the index just past the first blank line in {@code bytes[from, length)} (one that lies wholly there)
     * and a CRLF right after it, or 0 when there is none.
     */
    static int firstEnd(final MemorySegment bytes, final int from, final int length)
    {
        for (int i = from + 1; i < length; i++)
        {
            if (bytes.get(ValueLayout.JAVA_BYTE, i) == '\n')
            {
                final byte prev = bytes.get(ValueLayout.JAVA_BYTE, i - 1);
                if (prev == '\n' || prev == '\r' && i - 3 >= from && bytes.get(ValueLayout.JAVA_BYTE, i - 2) == '\n' &&
                    bytes.get(ValueLayout.JAVA_BYTE, i - 3) == '\r')
                {
                    final boolean chunkEnd = i + 2 < length && bytes.get(ValueLayout.JAVA_BYTE, i + 1) == '\r' &&
                        bytes.get(ValueLayout.JAVA_BYTE, i + 2) == '\n';
                    return chunkEnd ? i + 3 : i + 1;
                }
            }
        }
        return 0;
    }

    /**
     * Cuts {@code bytes[0, length)} at every event's end ({@link #firstEnd}): each piece is one event, or the part of
     * one that has come so far (the last piece, when the bytes end inside an event).
     *
     * @param ends where each piece's end goes (exclusive), in order; the last is {@code length} unless {@code
     *             maxPieces} cut the run short.
     * @return the pieces; at most {@code maxPieces}, and then the bytes after the last piece are not in any.
     */
    static int pieces(final MemorySegment bytes, final int length, final int[] ends, final int maxPieces)
    {
        int count = 0;
        int from = 0;
        while (from < length && count < maxPieces)
        {
            final int end = firstEnd(bytes, from, length);
            ends[count++] = end > 0 ? end : length;
            from = end > 0 ? end : length;
        }
        return count;
    }
}
