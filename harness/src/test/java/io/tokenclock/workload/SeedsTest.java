package io.tokenclock.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** The two ways to mix a stream's key into the seed, pinned: every prompt made from a seed depends on them. */
final class SeedsTest
{
    @Test
    void shouldMixByAdditionAfterSpreadingTheSeed()
    {
        assertEquals(5, Seeds.mix(0, 5));
        assertEquals(0x9E3779B97F4A7C15L + 7, Seeds.mix(1, 7));
        assertEquals(0x3C6EF372FE94F82AL + 1, Seeds.mix(2, 1), "2 * gamma wraps modulo 2^64");
    }

    @Test
    void shouldMixByExclusiveOrAfterSpreadingTheSeed()
    {
        assertEquals(5, Seeds.mixXor(0, 5));
        assertEquals(0x9E3779B97F4A7C15L ^ 0xFF, Seeds.mixXor(1, 0xFF));
        assertNotEquals(Seeds.mix(1, 0xFF), Seeds.mixXor(1, 0xFF), "the two are different streams");
    }
}
