package io.tokenclock.framing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** The eight-bytes-at-a-time scan finds exactly what a byte-by-byte scan finds, wherever the range starts and ends. */
final class ByteScanProperties
{
    @Property(tries = 2000)
    void shouldAgreeWithAByteByByteScan(
        @ForAll @Size(max = 80) final byte[] bytes, @ForAll final byte x, @ForAll final byte y,
        @ForAll @IntRange(max = 80) final int fromSeed, @ForAll @IntRange(max = 80) final int endSeed)
    {
        final int end = bytes.length == 0 ? 0 : endSeed % (bytes.length + 1);
        final int from = end == 0 ? 0 : fromSeed % (end + 1);
        int expected = -1;
        for (int i = from; i < end; i++)
        {
            if (bytes[i] == x || bytes[i] == y)
            {
                expected = i;
                break;
            }
        }
        assertEquals(expected, ByteScan.indexOfEither(bytes, from, end, x, y));
    }

    @Property(tries = 500)
    void shouldFindHighBytesAndBytesAfterABorrow(@ForAll @IntRange(min = 0, max = 15) final int at)
    {
        // 0x80 and 0xFF bytes, and a target right after a byte one below it, are where SWAR tricks go wrong.
        final byte[] bytes = new byte[16];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)(i % 2 == 0 ? 0x80 : 0xFF);
        }
        bytes[at] = 0x0A;
        if (at > 0)
        {
            bytes[at - 1] = 0x09;
        }
        assertEquals(at, ByteScan.indexOfEither(bytes, 0, bytes.length, (byte)0x0A, (byte)0x0D));
    }
}
