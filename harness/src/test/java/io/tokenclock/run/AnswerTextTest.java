package io.tokenclock.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The answer text decoded from the escaped JSON string bytes the chunk parser keeps. */
final class AnswerTextTest
{
    @Test
    void shouldDecodeJsonEscapesIncludingSurrogatePairs()
    {
        assertEquals("a\nb\t\"q\" \\ é 😀", decode("a\\nb\\t\\\"q\\\" \\\\ \\u00e9 \\ud83d\\ude00"));
    }

    @Test
    void shouldKeepRawUtf8AsItIs()
    {
        assertEquals("naïve 東京", decode("naïve 東京"));
    }

    @Test
    void shouldReadOnlyTheGivenLengthOfTheBuffer()
    {
        final byte[] raw = "hello\\nworld".getBytes(StandardCharsets.UTF_8);
        assertEquals("hello", AnswerText.decode(raw, 5));
        assertEquals("", AnswerText.decode(raw, 0));
    }

    @Test
    void shouldFallBackToTheBytesAsUtf8WhenCutInsideAnEscape()
    {
        // --max-output-bytes can cut the kept bytes in the middle of an escape sequence
        assertEquals("abc\\u00", decode("abc\\u00"));
        assertEquals("ends with \\", decode("ends with \\"));
    }

    private static String decode(final String escaped)
    {
        final byte[] raw = escaped.getBytes(StandardCharsets.UTF_8);
        return AnswerText.decode(raw, raw.length);
    }
}
