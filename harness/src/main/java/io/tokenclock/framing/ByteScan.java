package io.tokenclock.framing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds the first of two byte values in an array eight bytes at a time (SWAR: "SIMD within a register"), for the
 * end-of-line scan of SSE framing, whose lines (one whole chunk each) are long enough for it to pay: JMH measured
 * framing of a 220-byte event at 39 ns against 67 ns byte by byte. (For the chunk parser's strings, mostly short
 * keys, it measured slower, so the parser scans byte by byte.)
 * <p>
 * For a word w and target t, {@code v = w ^ (t * 0x0101...)} has a zero byte exactly where w holds t, and
 * {@code (v - 0x0101...) & ~v & 0x8080...} sets the high bit of every zero byte. A borrow can also mark a byte above
 * a real zero byte, never below one, so the lowest marked byte is exact: with little-endian loads it is
 * {@code numberOfTrailingZeros(mask) >>> 3}. Reads use a {@code long[]} view {@link VarHandle} of the byte array, so
 * there is no {@code Unsafe} and no allocation. Stateless and thread-safe.
 */
final class ByteScan
{
    private static final VarHandle LONGS =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    private ByteScan()
    {
    }

    /** @return the index of the first byte equal to {@code x} or {@code y} in {@code [from, end)}, or -1. */
    static int indexOfEither(final byte[] a, final int from, final int end, final byte x, final byte y)
    {
        final long px = (x & 0xFFL) * ONES;
        final long py = (y & 0xFFL) * ONES;
        int i = from;
        for (final int last = end - 8; i <= last; i += 8)
        {
            final long w = (long)LONGS.get(a, i);
            final long vx = w ^ px;
            final long vy = w ^ py;
            final long mask = ((vx - ONES) & ~vx | (vy - ONES) & ~vy) & HIGHS;
            if (mask != 0)
            {
                return i + (Long.numberOfTrailingZeros(mask) >>> 3);
            }
        }
        for (; i < end; i++)
        {
            final byte b = a[i];
            if (b == x || b == y)
            {
                return i;
            }
        }
        return -1;
    }
}
