package io.tokenclock.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.tokenclock.secrets.KnownSecrets;

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

    @AfterEach
    void forget()
    {
        KnownSecrets.forget();
    }

    @Test
    void shouldRedactAnEchoedCredentialBeforeEscapingAndCutting()
    {
        KnownSecrets.remember("sk-echoed-9c1d4e");
        assertEquals("401: invalid key <redacted>\\n(end)", UntrustedText.oneLine("401: invalid key " +
            "sk-echoed-9c1d4e\n(end)"));
        // the key straddles the cut: redacted before it, so no part of it survives
        final String cut = UntrustedText.escaped("x".repeat(290) + "sk-echoed-9c1d4e tail", 300);
        assertTrue(cut.startsWith("x".repeat(290) + "<redacted>") && !cut.contains("sk-ech"), cut);
        assertEquals("a <redacted>\nb \\u001b[2J", UntrustedText.lines("a sk-echoed-9c1d4e\nb \u001b[2J"));
    }

    @Test
    void shouldKeepLineFeedsOfABlockAndEscapeEveryOtherControl()
    {
        assertEquals("title\n  row \\t\\r\\u009b\\u001b]0;x\\u0007\n", UntrustedText.lines(
            "title\n  row \t\r\u009b\u001b]0;x\u0007\n"));
        assertEquals("", UntrustedText.lines(null));
    }
}
