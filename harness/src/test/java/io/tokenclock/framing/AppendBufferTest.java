package io.tokenclock.framing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The grow-and-append of the hot path: whole or prefix at a limit, doubling growth, and a kept array on clear. */
final class AppendBufferTest
{
    private static final byte[] ABCDE = ascii("abcde");
    private static final byte[] FGHIJ = ascii("fghij");

    private static byte[] ascii(final String s)
    {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String content(final AppendBuffer b)
    {
        return new String(b.array(), 0, b.length(), StandardCharsets.US_ASCII);
    }

    @Test
    void shouldDropAWholeAppendThatWouldPassTheLimitAndKeepWhatCameBefore()
    {
        final AppendBuffer b = new AppendBuffer(4);
        assertTrue(b.append(ABCDE, 0, 5, 8));
        assertFalse(b.append(FGHIJ, 0, 5, 8));
        assertEquals("abcde", content(b));
        assertTrue(b.append(FGHIJ, 0, 3, 8), "exactly at the limit fits");
        assertEquals("abcdefgh", content(b));
    }

    @Test
    void shouldKeepThePrefixThatFitsWhenAppendingAPrefix()
    {
        final AppendBuffer b = new AppendBuffer(4);
        assertTrue(b.appendPrefix(ABCDE, 0, 5, 8));
        assertFalse(b.appendPrefix(FGHIJ, 0, 5, 8));
        assertEquals("abcdefgh", content(b));
        assertFalse(b.appendPrefix(FGHIJ, 0, 1, 8), "full: nothing more fits");
        assertEquals(8, b.length());
        assertFalse(b.append((byte)'z', 8));
        assertEquals("abcdefgh", content(b));
    }

    @Test
    void shouldGrowByDoublingNeverPastTheLimit()
    {
        final AppendBuffer b = new AppendBuffer(300);
        b.append(new byte[301], 0, 301, Integer.MAX_VALUE);
        assertEquals(600, b.capacity(), "doubled, not just what the append needed");
        b.append(new byte[1000], 0, 1000, Integer.MAX_VALUE);
        assertEquals(1301, b.capacity(), "an append longer than a doubling gets what it needs");
        final AppendBuffer capped = new AppendBuffer(300);
        capped.appendPrefix(new byte[400], 0, 400, 350);
        assertEquals(350, capped.capacity());
        assertEquals(350, capped.length());
    }

    @Test
    void shouldStartFromTheSmallestGrowthWhenEmpty()
    {
        final AppendBuffer b = new AppendBuffer(0);
        assertTrue(b.append(ABCDE, 1, 2, Integer.MAX_VALUE));
        assertEquals(256, b.capacity());
        assertEquals("bc", content(b));
    }

    @Test
    void shouldKeepTheGrownArrayWhenCleared()
    {
        final AppendBuffer b = new AppendBuffer(0);
        b.append(ABCDE, 0, 5, Integer.MAX_VALUE);
        final byte[] grown = b.array();
        b.clear();
        assertEquals(0, b.length());
        b.append(FGHIJ, 0, 5, Integer.MAX_VALUE);
        assertSame(grown, b.array(), "no allocation once grown");
        assertEquals("fghij", content(b));
    }

    @Test
    void shouldRefuseANegativeInitialCapacity()
    {
        assertThrows(IllegalArgumentException.class, () -> new AppendBuffer(-1));
    }
}
