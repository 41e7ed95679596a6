package io.tokenclock.transport.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Where the first event in a run of queued bytes ends: just after its blank line ({@code \n\n}, or {@code \r\n\r\n}
 * as an SSE server with CRLF lines or an HTTP head ends). The chunked-encoding framing around an event holds neither.
 */
final class EventBoundary
{
    private EventBoundary()
    {
    }

    /** @return the index just past the first blank line in {@code bytes[0, length)}, or 0 when there is none. */
    static int firstEnd(final MemorySegment bytes, final int length)
    {
        for (int i = 1; i < length; i++)
        {
            if (bytes.get(ValueLayout.JAVA_BYTE, i) == '\n')
            {
                final byte prev = bytes.get(ValueLayout.JAVA_BYTE, i - 1);
                if (prev == '\n' || prev == '\r' && i >= 3 && bytes.get(ValueLayout.JAVA_BYTE, i - 2) == '\n' &&
                    bytes.get(ValueLayout.JAVA_BYTE, i - 3) == '\r')
                {
                    return i + 1;
                }
            }
        }
        return 0;
    }
}
