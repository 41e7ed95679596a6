package io.tokenclock.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

final class AotCacheTest
{
    @Test
    void shouldSayUsedWhenACacheWasGivenAndAnArchiveIsMapped()
    {
        assertEquals(AotCache.State.USED, AotCache.of("/c/tokenclock.aot", "mixed mode, sharing"));
        assertEquals("used", AotCache.State.USED.word());
    }

    @Test
    void shouldSayRefusedWhenACacheWasGivenAndNoArchiveIsMapped()
    {
        assertEquals(AotCache.State.REFUSED, AotCache.of("/c/tokenclock.aot", "mixed mode"));
    }

    @Test
    void shouldSayNoneWithoutTheFlagWhateverTheJdksOwnArchiveDoes()
    {
        assertEquals(AotCache.State.NONE, AotCache.of("", "mixed mode, sharing"));
        assertEquals(AotCache.State.NONE, AotCache.of(null, "mixed mode"));
    }

    @Test
    void shouldNameTheFileInOneLineOnlyWhenRefused()
    {
        final String line = AotCache.refusalLine(AotCache.State.REFUSED, "/c/old.aot");
        assertTrue(line.contains("/c/old.aot") && line.contains("aot-train") && !line.contains("\n"), line);
        assertNull(AotCache.refusalLine(AotCache.State.USED, "/c/old.aot"));
        assertNull(AotCache.refusalLine(AotCache.State.NONE, ""));
    }
}
