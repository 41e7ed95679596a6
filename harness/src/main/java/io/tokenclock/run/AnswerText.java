package io.tokenclock.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.json.Json;

/**
 * The answer text of a request, from the raw bytes the chunk parser kept: the content of JSON strings with their
 * escapes still in place ({@code \n}, {@code \u00e9}), concatenated. The measurement core keeps bytes and never
 * decodes on the hot path; this decodes them afterwards, for the request log, token counting and multi-turn sessions.
 * <p>
 * Thread-safe (the shared {@link ObjectMapper} is).
 */
public final class AnswerText
{
    private static final ObjectMapper JSON = Json.MAPPER;

    private AnswerText()
    {
    }

    /**
     * @param raw    escaped JSON string content, without the quotes.
     * @param length how many bytes of {@code raw} hold it.
     * @return the decoded text; the bytes read as UTF-8 when they are not a valid JSON string body (e.g. cut inside an
     * escape by {@code --max-output-bytes}).
     */
    public static String decode(final byte[] raw, final int length)
    {
        final byte[] quoted = new byte[length + 2];
        quoted[0] = '"';
        System.arraycopy(raw, 0, quoted, 1, length);
        quoted[length + 1] = '"';
        try
        {
            return JSON.readValue(quoted, String.class);
        }
        catch (final IOException ex)
        {
            return new String(raw, 0, length, StandardCharsets.UTF_8);
        }
    }
}
