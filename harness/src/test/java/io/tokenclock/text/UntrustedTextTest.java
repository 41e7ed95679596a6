package io.tokenclock.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

final class UntrustedTextTest
{
    @Test
    void shouldEscapeEveryControlCharacterAndKeepPrintableUnicode()
    {
        assertEquals("Loading model\\n\\u001b]0;pwned\\u0007 caf\u00e9 \\u0000\\u009b\\r\\tX",
            UntrustedText.oneLine("Loading model\n\u001b]0;pwned\u0007 caf\u00e9 \u0000\u009b\r\tX"));
    }

    @Test
    void shouldCutLongTextAndSaySo()
    {
        final String cut = UntrustedText.oneLine("x".repeat(10_000));
        assertEquals(UntrustedText.MAX_CHARS + 3, cut.length());
        assertTrue(cut.endsWith("..."));
        assertEquals("short", UntrustedText.oneLine("  short \n"));
        assertEquals("", UntrustedText.oneLine(null));
    }
}
