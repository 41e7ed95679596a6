package io.tokenclock.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import org.junit.jupiter.api.Test;

/** The FIPS 180-2 test vectors, as 64 lower-case hex digits. */
final class Sha256Test
{
    private static final String ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    private static final String EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @Test
    void shouldHashBytesToTheKnownDigest()
    {
        assertEquals(ABC, Sha256.hex("abc".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(EMPTY, Sha256.hex(new byte[0]));
    }

    @Test
    void shouldSpellWhatADigestTookInAndResetIt()
    {
        final MessageDigest digest = Sha256.newDigest();
        digest.update((byte)'a');
        digest.update("bc".getBytes(StandardCharsets.US_ASCII));

        assertEquals(ABC, Sha256.hex(digest));
        assertEquals(EMPTY, Sha256.hex(digest), "reset by the first call");
    }
}
