package io.tokenclock.transport.kernel;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which send stamp is a request's: the first whose key (a 32-bit byte offset, wrapping) reaches its last byte. */
final class SendStampKeyTest
{
    @Test
    void shouldTakeTheStampOfTheLastByteOrALaterOneAndNotOfAnEarlierByte()
    {
        assertTrue(ErrorQueue.covers(999, 999), "the request's last byte");
        assertTrue(ErrorQueue.covers(1_200, 999), "a send that took the last byte and more");
        assertFalse(ErrorQueue.covers(998, 999), "a partial write's stamp, before the last byte");
        assertFalse(ErrorQueue.covers(0, 999), "an earlier request's, or the handshake's");
    }

    @Test
    void shouldCompareAcrossTheKeysWrapAt4GiB()
    {
        final long lastByte = (1L << 32) + 10; // 4 GiB and 11 bytes sent on one connection
        assertTrue(ErrorQueue.covers(10, lastByte), "the kernel's key is the offset mod 2^32");
        assertTrue(ErrorQueue.covers(20, lastByte));
        assertFalse(ErrorQueue.covers(0xFFFF_FFF0L, lastByte), "just before the wrap: earlier bytes");
        assertTrue(ErrorQueue.covers(3, 0xFFFF_FFFEL), "just after the wrap: later bytes");
    }
}
