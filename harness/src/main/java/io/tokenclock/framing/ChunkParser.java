package io.tokenclock.framing;

import java.nio.charset.StandardCharsets;

/**
 * Pulls what the harness needs out of one OpenAI-style streaming chunk, on bytes, without building a JSON tree and
 * without allocating.
 * <p>
 * The chunk grammar is the {@code chat.completion.chunk} / {@code text_completion} object that vLLM, SGLang, TGI,
 * llama.cpp and hosted APIs stream:
 * <pre>
 * {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":" Hello"},"finish_reason":null}],"usage":null}
 * </pre>
 * Extracted: the response {@code id}; for {@code choices[0]} the {@code delta.content} (or {@code text} on
 * {@code /v1/completions}), {@code delta.reasoning_content} (or {@code delta.reasoning}), whether
 * {@code delta.tool_calls} is present, and {@code finish_reason}; {@code usage.prompt_tokens} and
 * {@code usage.completion_tokens}, and the prompt tokens the server served from its prefix cache,
 * {@code usage.prompt_tokens_details.cached_tokens} (OpenAI chat and completions; vLLM with
 * {@code --enable-prompt-tokens-details}, SGLang, llama.cpp's server); the engine's own timings when the server reports
 * them as llama.cpp's server does, in a top-level {@code timings} object ({@code prompt_ms}, {@code predicted_n},
 * {@code predicted_ms}, and with speculative decoding {@code draft_n} and {@code draft_n_accepted}); whether a
 * top-level {@code error} object is present; whether the payload is the {@code [DONE]} sentinel. Everything else is
 * skipped structurally (strings with escapes, nested values).
 * Only {@code choices[0]} is read: tokenclock requests one choice per request.
 * <p>
 * Strings are reported as offsets of their <em>raw, still-escaped</em> bytes in the source array. Concatenating the
 * raw bodies of several JSON strings yields a valid raw body of their concatenation, so the transport can append raw
 * content bytes per chunk and decode the whole text once, off the hot path.
 * <p>
 * One parser per I/O thread; not thread-safe. Results describe the last {@link #parse} call only.
 */
public final class ChunkParser
{
    public static final int FINISH_NONE = 0;
    public static final int FINISH_STOP = 1;
    public static final int FINISH_LENGTH = 2;
    public static final int FINISH_TOOL_CALLS = 3;
    public static final int FINISH_CONTENT_FILTER = 4;
    public static final int FINISH_OTHER = 5;

    private static final byte[] ID = bytes("id");
    private static final byte[] CHOICES = bytes("choices");
    private static final byte[] USAGE = bytes("usage");
    private static final byte[] ERROR = bytes("error");
    private static final byte[] DELTA = bytes("delta");
    private static final byte[] TEXT = bytes("text");
    private static final byte[] FINISH_REASON = bytes("finish_reason");
    private static final byte[] CONTENT = bytes("content");
    private static final byte[] REASONING_CONTENT = bytes("reasoning_content");
    private static final byte[] REASONING = bytes("reasoning");
    private static final byte[] TOOL_CALLS = bytes("tool_calls");
    private static final byte[] PROMPT_TOKENS = bytes("prompt_tokens");
    private static final byte[] COMPLETION_TOKENS = bytes("completion_tokens");
    private static final byte[] PROMPT_TOKENS_DETAILS = bytes("prompt_tokens_details");
    private static final byte[] CACHED_TOKENS = bytes("cached_tokens");
    private static final byte[] TIMINGS = bytes("timings");
    private static final byte[] PROMPT_MS = bytes("prompt_ms");
    private static final byte[] PREDICTED_N = bytes("predicted_n");
    private static final byte[] PREDICTED_MS = bytes("predicted_ms");
    private static final byte[] DRAFT_N = bytes("draft_n");
    private static final byte[] DRAFT_N_ACCEPTED = bytes("draft_n_accepted");
    private static final byte[] STOP = bytes("stop");
    private static final byte[] LENGTH = bytes("length");
    private static final byte[] TOOL_CALLS_REASON = bytes("tool_calls");
    private static final byte[] CONTENT_FILTER = bytes("content_filter");
    private static final byte[] DONE = bytes("[DONE]");

    private static final Malformed MALFORMED = new Malformed();

    /** Above this a decimal mantissa takes no more digits (one more could overflow a long). */
    private static final long MANTISSA_LIMIT = Long.MAX_VALUE / 10;
    private static final long[] POWERS_OF_TEN = powersOfTen();

    private byte[] buf;
    private int pos;
    private int end;
    private int strStart;
    private int strEnd;

    private boolean done;
    private boolean malformed;
    private boolean error;
    private boolean toolCall;
    private int finishReason;
    private int idOffset;
    private int idLength;
    private int contentOffset;
    private int contentLength;
    private int reasoningOffset;
    private int reasoningLength;
    private int toolCallsOffset;
    private int toolCallsLength;
    private long promptTokens;
    private long completionTokens;
    private long cachedTokens;
    private long enginePromptNs;
    private long engineDecodeNs;
    private long enginePredictedTokens;
    private long engineDraftTokens;
    private long engineDraftAccepted;

    /**
     * Parses one event's data.
     *
     * @return true if the payload was a well-formed chunk or the {@code [DONE]} sentinel; false if malformed.
     */
    public boolean parse(final byte[] src, final int offset, final int length)
    {
        clear();
        buf = src;
        pos = offset;
        end = offset + length;
        skipWs();
        if (end - pos >= DONE.length && regionEquals(src, pos, DONE.length, DONE))
        {
            pos += DONE.length;
            skipWs();
            done = pos == end;
            malformed = !done;
            return done;
        }
        try
        {
            parseTop();
            skipWs();
            if (pos != end)
            {
                throw MALFORMED;
            }
        }
        catch (final Malformed ex)
        {
            malformed = true;
        }
        buf = null;
        return !malformed;
    }

    /** @return true if the payload was {@code [DONE]}. */
    public boolean isDone()
    {
        return done;
    }

    /** @return true if the chunk carried a top-level {@code error} member. */
    public boolean isError()
    {
        return error;
    }

    /** @return one of the {@code FINISH_*} constants. */
    public int finishReason()
    {
        return finishReason;
    }

    /** @return offset of the raw {@code id} string, or -1 if absent. */
    public int idOffset()
    {
        return idOffset;
    }

    public int idLength()
    {
        return idLength;
    }

    /** @return offset of the raw (escaped) content or completion text, or -1 if absent or null. */
    public int contentOffset()
    {
        return contentOffset;
    }

    /** @return length in bytes of the raw content; 0 for {@code ""}. */
    public int contentLength()
    {
        return contentLength;
    }

    /** @return offset of the raw reasoning text, or -1 if absent or null. */
    public int reasoningOffset()
    {
        return reasoningOffset;
    }

    public int reasoningLength()
    {
        return reasoningLength;
    }

    /** @return offset of the raw {@code delta.tool_calls} JSON array, or -1 if absent, null or empty. */
    public int toolCallsOffset()
    {
        return toolCallsOffset;
    }

    /** @return length in bytes of the raw {@code delta.tool_calls} JSON array. */
    public int toolCallsLength()
    {
        return toolCallsLength;
    }

    /** @return {@code usage.prompt_tokens}, or -1 if absent. */
    public long promptTokens()
    {
        return promptTokens;
    }

    /** @return {@code usage.completion_tokens}, or -1 if absent. */
    public long completionTokens()
    {
        return completionTokens;
    }

    /**
     * @return the prompt tokens the server found in its prefix cache, {@code usage.prompt_tokens_details.cached_tokens},
     * or -1 if absent (a server that omits the details reports nothing, not zero).
     */
    public long cachedTokens()
    {
        return cachedTokens;
    }

    /**
     * @return the engine's prompt time, {@code timings.prompt_ms}, in nanoseconds (rounded to the nearest), or -1 if
     * absent or not a non-negative number.
     */
    public long enginePromptNs()
    {
        return enginePromptNs;
    }

    /**
     * @return the engine's decode time, {@code timings.predicted_ms}, in nanoseconds (rounded to the nearest), or -1
     * if absent or not a non-negative number.
     */
    public long engineDecodeNs()
    {
        return engineDecodeNs;
    }

    /** @return the engine's count of generated tokens, {@code timings.predicted_n}, or -1 if absent. */
    public long enginePredictedTokens()
    {
        return enginePredictedTokens;
    }

    /** @return the tokens the engine's speculative decoder drafted, {@code timings.draft_n}, or -1 if absent. */
    public long engineDraftTokens()
    {
        return engineDraftTokens;
    }

    /** @return the drafted tokens the model accepted, {@code timings.draft_n_accepted}, or -1 if absent. */
    public long engineDraftAccepted()
    {
        return engineDraftAccepted;
    }

    /**
     * The first-token rule: a chunk is a generated token only if it carries non-empty content, non-empty reasoning
     * or a tool call. A role-only chunk ({@code "content":""}) or a usage-only chunk ({@code "choices":[]}) is not.
     *
     * @return true if this chunk carries generated output.
     */
    public boolean isContentBearing()
    {
        return contentLength > 0 || reasoningLength > 0 || toolCall;
    }

    /** @return true if this chunk carries non-empty output that is not reasoning (answer text or a tool call). */
    public boolean isOutputBearing()
    {
        return contentLength > 0 || toolCall;
    }

    private void clear()
    {
        done = false;
        malformed = false;
        error = false;
        toolCall = false;
        finishReason = FINISH_NONE;
        idOffset = -1;
        idLength = 0;
        contentOffset = -1;
        contentLength = 0;
        reasoningOffset = -1;
        reasoningLength = 0;
        toolCallsOffset = -1;
        toolCallsLength = 0;
        promptTokens = -1;
        completionTokens = -1;
        cachedTokens = -1;
        enginePromptNs = -1;
        engineDecodeNs = -1;
        enginePredictedTokens = -1;
        engineDraftTokens = -1;
        engineDraftAccepted = -1;
    }

    private void parseTop()
    {
        expect('{');
        if (peekIs('}'))
        {
            pos++;
            return;
        }
        do
        {
            readKey();
            final int ks = strStart;
            final int kl = strEnd - strStart;
            if (keyIs(ks, kl, ID) && peekIs('"'))
            {
                readString();
                idOffset = strStart;
                idLength = strEnd - strStart;
            }
            else if (keyIs(ks, kl, CHOICES))
            {
                parseChoices();
            }
            else if (keyIs(ks, kl, USAGE))
            {
                parseUsage();
            }
            else if (keyIs(ks, kl, TIMINGS))
            {
                parseTimings();
            }
            else if (keyIs(ks, kl, ERROR))
            {
                error = !peekLiteralNull();
                skipValue();
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
    }

    private void parseChoices()
    {
        if (skipIfNull())
        {
            return;
        }
        expect('[');
        if (peekIs(']'))
        {
            pos++;
            return;
        }
        parseChoice();
        while (nextMember(']'))
        {
            skipValue();
        }
    }

    private void parseChoice()
    {
        expect('{');
        if (peekIs('}'))
        {
            pos++;
            return;
        }
        do
        {
            readKey();
            final int ks = strStart;
            final int kl = strEnd - strStart;
            if (keyIs(ks, kl, DELTA))
            {
                parseDelta();
            }
            else if (keyIs(ks, kl, TEXT))
            {
                if (readNullableString())
                {
                    contentOffset = strStart;
                    contentLength = strEnd - strStart;
                }
            }
            else if (keyIs(ks, kl, FINISH_REASON))
            {
                if (readNullableString())
                {
                    finishReason = classifyFinish(strStart, strEnd - strStart);
                }
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
    }

    private void parseDelta()
    {
        if (skipIfNull())
        {
            return;
        }
        expect('{');
        if (peekIs('}'))
        {
            pos++;
            return;
        }
        do
        {
            readKey();
            final int ks = strStart;
            final int kl = strEnd - strStart;
            if (keyIs(ks, kl, CONTENT))
            {
                if (readNullableString())
                {
                    contentOffset = strStart;
                    contentLength = strEnd - strStart;
                }
            }
            else if (keyIs(ks, kl, REASONING_CONTENT) || keyIs(ks, kl, REASONING))
            {
                if (readNullableString())
                {
                    reasoningOffset = strStart;
                    reasoningLength = strEnd - strStart;
                }
            }
            else if (keyIs(ks, kl, TOOL_CALLS))
            {
                skipWs();
                toolCall = !peekLiteralNull() && !isEmptyArrayAhead();
                final int start = pos;
                skipValue();
                if (toolCall)
                {
                    toolCallsOffset = start;
                    toolCallsLength = pos - start;
                }
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
    }

    private void parseUsage()
    {
        if (skipIfNull())
        {
            return;
        }
        expect('{');
        if (peekIs('}'))
        {
            pos++;
            return;
        }
        do
        {
            readKey();
            final int ks = strStart;
            final int kl = strEnd - strStart;
            if (keyIs(ks, kl, PROMPT_TOKENS))
            {
                promptTokens = readLongOrSkip();
            }
            else if (keyIs(ks, kl, COMPLETION_TOKENS))
            {
                completionTokens = readLongOrSkip();
            }
            else if (keyIs(ks, kl, PROMPT_TOKENS_DETAILS))
            {
                parseCachedTokens();
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
    }

    /**
     * Reads {@code cached_tokens} out of a usage details object ({@code prompt_tokens_details}); any other member is
     * skipped. A details object the server sent as {@code null} leaves the count unknown.
     */
    private void parseCachedTokens()
    {
        if (skipIfNull())
        {
            return;
        }
        expect('{');
        if (peekIs('}'))
        {
            pos++;
            return;
        }
        do
        {
            readKey();
            if (keyIs(strStart, strEnd - strStart, CACHED_TOKENS))
            {
                cachedTokens = readLongOrSkip();
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
    }

    private void parseTimings()
    {
        if (skipIfNull())
        {
            return;
        }
        expect('{');
        if (peekIs('}'))
        {
            pos++;
            return;
        }
        do
        {
            readKey();
            final int ks = strStart;
            final int kl = strEnd - strStart;
            if (keyIs(ks, kl, PROMPT_MS))
            {
                enginePromptNs = readMillisAsNanos();
            }
            else if (keyIs(ks, kl, PREDICTED_MS))
            {
                engineDecodeNs = readMillisAsNanos();
            }
            else if (keyIs(ks, kl, PREDICTED_N))
            {
                enginePredictedTokens = readLongOrSkip();
            }
            else if (keyIs(ks, kl, DRAFT_N))
            {
                engineDraftTokens = readLongOrSkip();
            }
            else if (keyIs(ks, kl, DRAFT_N_ACCEPTED))
            {
                engineDraftAccepted = readLongOrSkip();
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
    }

    /**
     * Reads a JSON number of milliseconds (fraction and exponent allowed, e.g. {@code 42.771} or {@code 1.5e-3}) as
     * whole nanoseconds, rounded to the nearest, without building a double or a String: the decimal digits become a
     * mantissa (up to 18 significant) and a power of ten. Anything else is skipped and reads as -1, as does a
     * negative number; a value beyond a long's range reads as {@link Long#MAX_VALUE}.
     */
    private long readMillisAsNanos()
    {
        skipWs();
        if (pos >= end || buf[pos] < '0' || buf[pos] > '9')
        {
            skipValue();
            return -1;
        }
        long mantissa = 0;
        int power = 6; // milliseconds to nanoseconds
        for (; pos < end && buf[pos] >= '0' && buf[pos] <= '9'; pos++)
        {
            if (mantissa < MANTISSA_LIMIT)
            {
                mantissa = mantissa * 10 + (buf[pos] - '0');
            }
            else
            {
                power++;
            }
        }
        if (pos < end && buf[pos] == '.')
        {
            for (pos++; pos < end && buf[pos] >= '0' && buf[pos] <= '9'; pos++)
            {
                if (mantissa < MANTISSA_LIMIT)
                {
                    mantissa = mantissa * 10 + (buf[pos] - '0');
                    power--;
                }
            }
        }
        if (pos < end && (buf[pos] == 'e' || buf[pos] == 'E'))
        {
            power += readExponent();
        }
        return scaleByPowerOfTen(mantissa, power);
    }

    private int readExponent()
    {
        pos++;
        final boolean negative = pos < end && buf[pos] == '-';
        if (pos < end && (buf[pos] == '-' || buf[pos] == '+'))
        {
            pos++;
        }
        int exponent = 0;
        for (; pos < end && buf[pos] >= '0' && buf[pos] <= '9'; pos++)
        {
            exponent = Math.min(exponent * 10 + (buf[pos] - '0'), 1_000);
        }
        return negative ? -exponent : exponent;
    }

    private static long scaleByPowerOfTen(final long mantissa, final int power)
    {
        if (power < 0)
        {
            if (power < -18)
            {
                return 0;
            }
            final long divisor = POWERS_OF_TEN[-power];
            return (mantissa + divisor / 2) / divisor;
        }
        long value = mantissa;
        for (int i = 0; i < power && value != 0; i++)
        {
            if (value > MANTISSA_LIMIT)
            {
                return Long.MAX_VALUE;
            }
            value *= 10;
        }
        return value;
    }

    private int classifyFinish(final int start, final int length)
    {
        if (keyIs(start, length, STOP))
        {
            return FINISH_STOP;
        }
        if (keyIs(start, length, LENGTH))
        {
            return FINISH_LENGTH;
        }
        if (keyIs(start, length, TOOL_CALLS_REASON))
        {
            return FINISH_TOOL_CALLS;
        }
        if (keyIs(start, length, CONTENT_FILTER))
        {
            return FINISH_CONTENT_FILTER;
        }
        return FINISH_OTHER;
    }

    private void readKey()
    {
        skipWs();
        readString();
        skipWs();
        expect(':');
        skipWs();
    }

    /** After a member, consumes ',' and returns true, or consumes {@code close} and returns false. */
    private boolean nextMember(final char close)
    {
        skipWs();
        if (pos >= end)
        {
            throw MALFORMED;
        }
        final byte b = buf[pos++];
        if (b == ',')
        {
            skipWs();
            return true;
        }
        if (b == close)
        {
            return false;
        }
        throw MALFORMED;
    }

    private boolean readNullableString()
    {
        skipWs();
        if (peekLiteralNull())
        {
            pos += 4;
            return false;
        }
        readString();
        return true;
    }

    private void readString()
    {
        expect('"');
        final int start = pos;
        final byte[] b = buf;
        final int limit = end;
        // Byte by byte on purpose: most strings here are short keys, where a SWAR scan measured slower (JMH).
        int i = start;
        while (i < limit)
        {
            final byte c = b[i];
            if (c == '"')
            {
                strStart = start;
                strEnd = i;
                pos = i + 1;
                return;
            }
            i += c == '\\' ? 2 : 1;
        }
        throw MALFORMED;
    }

    private long readLongOrSkip()
    {
        skipWs();
        if (pos < end && (buf[pos] == '-' || (buf[pos] >= '0' && buf[pos] <= '9')))
        {
            final boolean negative = buf[pos] == '-';
            if (negative)
            {
                pos++;
            }
            long value = 0;
            while (pos < end && buf[pos] >= '0' && buf[pos] <= '9')
            {
                value = value * 10 + (buf[pos++] - '0');
            }
            skipNumberTail();
            return negative ? -value : value;
        }
        skipValue();
        return -1;
    }

    private void skipValue()
    {
        skipWs();
        if (pos >= end)
        {
            throw MALFORMED;
        }
        final byte b = buf[pos];
        switch (b)
        {
            case '"' -> readString();
            case '{', '[' -> skipContainer();
            case 't', 'f', 'n' -> skipLiteral();
            default ->
            {
                if (b == '-' || (b >= '0' && b <= '9'))
                {
                    pos++;
                    skipNumberTail();
                }
                else
                {
                    throw MALFORMED;
                }
            }
        }
    }

    private void skipContainer()
    {
        int depth = 0;
        final byte[] b = buf;
        while (pos < end)
        {
            final byte c = b[pos];
            if (c == '"')
            {
                readString();
                continue;
            }
            pos++;
            if (c == '{' || c == '[')
            {
                depth++;
            }
            else if (c == '}' || c == ']')
            {
                if (--depth == 0)
                {
                    return;
                }
            }
        }
        throw MALFORMED;
    }

    private void skipLiteral()
    {
        final int start = pos;
        while (pos < end && buf[pos] >= 'a' && buf[pos] <= 'z')
        {
            pos++;
        }
        final int n = pos - start;
        if (n != 4 && n != 5)
        {
            throw MALFORMED;
        }
    }

    private void skipNumberTail()
    {
        while (pos < end)
        {
            final byte c = buf[pos];
            if ((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')
            {
                pos++;
            }
            else
            {
                return;
            }
        }
    }

    private boolean skipIfNull()
    {
        skipWs();
        if (peekLiteralNull())
        {
            pos += 4;
            return true;
        }
        return false;
    }

    private boolean peekLiteralNull()
    {
        return end - pos >= 4 && buf[pos] == 'n' && buf[pos + 1] == 'u' && buf[pos + 2] == 'l' && buf[pos + 3] == 'l';
    }

    private boolean isEmptyArrayAhead()
    {
        if (pos >= end || buf[pos] != '[')
        {
            return false;
        }
        int i = pos + 1;
        while (i < end && isWs(buf[i]))
        {
            i++;
        }
        return i < end && buf[i] == ']';
    }

    private boolean peekIs(final char c)
    {
        skipWs();
        return pos < end && buf[pos] == c;
    }

    private void expect(final char c)
    {
        skipWs();
        if (pos >= end || buf[pos] != c)
        {
            throw MALFORMED;
        }
        pos++;
    }

    private void skipWs()
    {
        while (pos < end && isWs(buf[pos]))
        {
            pos++;
        }
    }

    private static boolean isWs(final byte b)
    {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    private boolean keyIs(final int start, final int length, final byte[] key)
    {
        return length == key.length && regionEquals(buf, start, length, key);
    }

    private static boolean regionEquals(final byte[] src, final int start, final int length, final byte[] key)
    {
        for (int i = 0; i < length; i++)
        {
            if (src[start + i] != key[i])
            {
                return false;
            }
        }
        return true;
    }

    private static long[] powersOfTen()
    {
        final long[] powers = new long[19];
        powers[0] = 1;
        for (int i = 1; i < powers.length; i++)
        {
            powers[i] = powers[i - 1] * 10;
        }
        return powers;
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Thrown to unwind a malformed parse; preallocated and stackless so that bad input costs no allocation. */
    private static final class Malformed extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        Malformed()
        {
            super("malformed chunk", null, false, false);
        }
    }
}
