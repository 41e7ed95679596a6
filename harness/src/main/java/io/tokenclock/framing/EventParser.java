package io.tokenclock.framing;

import java.nio.charset.StandardCharsets;

/**
 * What the harness needs out of one streamed event, pulled from its JSON on bytes, without a JSON tree and without
 * allocating: the base of each API's event grammar ({@link ChunkParser} for chat and text completions,
 * {@link ResponsesEventParser} for the OpenAI Responses API, {@link MessagesEventParser} for Anthropic's Messages
 * API). A grammar implements {@link #parseTop()} with the scanning primitives here and sets the results; every
 * grammar reports the same results, so the recorder reads one shape whatever the API:
 * <ul>
 *   <li>the answer text, the reasoning text and a tool call, each as offsets of its <em>raw, still-escaped</em> bytes
 *       in the source array (concatenating the raw bodies of several JSON strings yields a valid raw body of their
 *       concatenation, so the transport appends raw bytes per event and decodes the whole text once, off the hot
 *       path);</li>
 *   <li>the response id, the finish reason ({@code FINISH_*}), whether the event ends the stream ({@link #isDone()}),
 *       whether it reports an error, and whether its type is one the grammar does not know ({@link #isUnknown()}:
 *       counted, never failed);</li>
 *   <li>the server's token counts (prompt, output, cached prompt, reasoning) and the engine's own timings, where the
 *       event carries them.</li>
 * </ul>
 * Why one base class and not an interface: the accessors are final fields' getters, inlined wherever the recorder
 * calls them, and {@link #parse} is the one virtual call per event; a run uses one grammar, so that call site sees one
 * class. A grammar's strings and numbers are scanned byte by byte (most strings here are short keys, where a SWAR scan
 * measured slower in JMH); a malformed payload unwinds through one preallocated, stackless exception.
 * <p>
 * One parser per I/O thread (one per connection); not thread-safe. Results describe the last {@link #parse} call only.
 */
public abstract class EventParser
{
    public static final int FINISH_NONE = 0;
    public static final int FINISH_STOP = 1;
    public static final int FINISH_LENGTH = 2;
    public static final int FINISH_TOOL_CALLS = 3;
    public static final int FINISH_CONTENT_FILTER = 4;
    public static final int FINISH_OTHER = 5;

    static final byte[] TIMINGS = bytes("timings");
    private static final byte[] PROMPT_MS = bytes("prompt_ms");
    private static final byte[] PREDICTED_N = bytes("predicted_n");
    private static final byte[] PREDICTED_MS = bytes("predicted_ms");
    private static final byte[] DRAFT_N = bytes("draft_n");
    private static final byte[] DRAFT_N_ACCEPTED = bytes("draft_n_accepted");
    private static final byte[] DONE = bytes("[DONE]");

    /** Thrown by the scanning primitives on bad JSON; see {@link Malformed}. */
    static final Malformed MALFORMED = new Malformed();

    /** Above this a decimal mantissa takes no more digits (one more could overflow a long). */
    private static final long MANTISSA_LIMIT = Long.MAX_VALUE / 10;
    private static final long[] POWERS_OF_TEN = powersOfTen();

    byte[] buf;
    int pos;
    int end;
    int strStart;
    int strEnd;

    boolean done;
    boolean malformed;
    boolean error;
    boolean toolCall;
    boolean unknown;
    int finishReason;
    int idOffset;
    int idLength;
    int contentOffset;
    int contentLength;
    int reasoningOffset;
    int reasoningLength;
    int toolCallsOffset;
    int toolCallsLength;
    long promptTokens;
    long completionTokens;
    long cachedTokens;
    long cacheWriteTokens;
    long reasoningTokens;
    long enginePromptNs;
    long engineDecodeNs;
    long enginePredictedTokens;
    long engineDraftTokens;
    long engineDraftAccepted;
    long items;

    private final boolean wholeBody;

    EventParser()
    {
        this(false);
    }

    /** @param wholeBody whether the grammar reads one whole JSON body ({@link #wholeBody()}) rather than events. */
    EventParser(final boolean wholeBody)
    {
        this.wholeBody = wholeBody;
    }

    /**
     * @return whether this grammar reads an answer that is one JSON body (embeddings, rerank), skimmed by a
     * {@link BodySkim} as it arrives and parsed once, at its end, rather than a stream of SSE events.
     */
    public final boolean wholeBody()
    {
        return wholeBody;
    }

    /**
     * @return the answer's items, a whole body's count of embeddings or rerank results (as {@link BodySkim} counted
     * them), or -1 if the body had none or the grammar is a stream's.
     */
    public final long items()
    {
        return items;
    }

    /**
     * Parses one event's data.
     *
     * @return true if the payload was a well-formed event of the grammar or the {@code [DONE]} sentinel; false if
     * malformed.
     */
    public final boolean parse(final byte[] src, final int offset, final int length)
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
            buf = null;
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

    /**
     * Parses the top-level JSON value at {@link #pos} and sets the results; throws {@link #MALFORMED} on bad JSON.
     * The results start cleared ({@link #clear()}); a grammar's own per-event state it clears itself.
     */
    abstract void parseTop();

    /**
     * @return true if the event ends the stream by the API's own marker: {@code [DONE]} (chat, completions),
     * {@code response.completed}, {@code response.incomplete} or {@code response.failed} (Responses),
     * {@code message_stop} (Messages).
     */
    public final boolean isDone()
    {
        return done;
    }

    /** @return true if the event reported an error (an {@code error} member, an error event type). */
    public final boolean isError()
    {
        return error;
    }

    /** @return true if the event's type is one this grammar does not know: counted, never a failure. */
    public final boolean isUnknown()
    {
        return unknown;
    }

    /** @return one of the {@code FINISH_*} constants. */
    public final int finishReason()
    {
        return finishReason;
    }

    /** @return offset of the raw response id string, or -1 if absent. */
    public final int idOffset()
    {
        return idOffset;
    }

    public final int idLength()
    {
        return idLength;
    }

    /** @return offset of the raw (escaped) answer text, or -1 if absent or null. */
    public final int contentOffset()
    {
        return contentOffset;
    }

    /** @return length in bytes of the raw answer text; 0 for {@code ""}. */
    public final int contentLength()
    {
        return contentLength;
    }

    /** @return offset of the raw reasoning text, or -1 if absent or null. */
    public final int reasoningOffset()
    {
        return reasoningOffset;
    }

    public final int reasoningLength()
    {
        return reasoningLength;
    }

    /** @return offset of the raw tool call (its JSON, or its arguments' raw text), or -1 if the event has none. */
    public final int toolCallsOffset()
    {
        return toolCallsOffset;
    }

    /** @return length in bytes of the raw tool call. */
    public final int toolCallsLength()
    {
        return toolCallsLength;
    }

    /** @return the prompt's tokens as the server counted them (cached ones included), or -1 if absent. */
    public final long promptTokens()
    {
        return promptTokens;
    }

    /** @return the output's tokens as the server counted them so far, or -1 if absent. */
    public final long completionTokens()
    {
        return completionTokens;
    }

    /** @return the prompt's tokens the server read from its cache, or -1 if absent. */
    public final long cachedTokens()
    {
        return cachedTokens;
    }

    /**
     * @return the prompt's tokens the server wrote to its cache for later requests, or -1 if absent: only Anthropic's
     * Messages API says ({@code cache_creation_input_tokens}).
     */
    public final long cacheWriteTokens()
    {
        return cacheWriteTokens;
    }

    /** @return the output's reasoning tokens as the server counted them, or -1 if absent. */
    public final long reasoningTokens()
    {
        return reasoningTokens;
    }

    /**
     * @return the engine's prompt time, {@code timings.prompt_ms}, in nanoseconds (rounded to the nearest), or -1 if
     * absent or not a non-negative number.
     */
    public final long enginePromptNs()
    {
        return enginePromptNs;
    }

    /**
     * @return the engine's decode time, {@code timings.predicted_ms}, in nanoseconds (rounded to the nearest), or -1
     * if absent or not a non-negative number.
     */
    public final long engineDecodeNs()
    {
        return engineDecodeNs;
    }

    /** @return the engine's count of generated tokens, {@code timings.predicted_n}, or -1 if absent. */
    public final long enginePredictedTokens()
    {
        return enginePredictedTokens;
    }

    /** @return the tokens the engine's speculative decoder drafted, {@code timings.draft_n}, or -1 if absent. */
    public final long engineDraftTokens()
    {
        return engineDraftTokens;
    }

    /** @return the drafted tokens the model accepted, {@code timings.draft_n_accepted}, or -1 if absent. */
    public final long engineDraftAccepted()
    {
        return engineDraftAccepted;
    }

    /**
     * The first-token rule: an event is a generated token only if it carries non-empty answer text, non-empty
     * reasoning or a tool call. A role-only chunk, a usage-only chunk, a stream's opening or closing events are not.
     *
     * @return true if this event carries generated output.
     */
    public final boolean isContentBearing()
    {
        return contentLength > 0 || reasoningLength > 0 || toolCall;
    }

    /** @return true if this event carries non-empty output that is not reasoning (answer text or a tool call). */
    public final boolean isOutputBearing()
    {
        return contentLength > 0 || toolCall;
    }

    private void clear()
    {
        done = false;
        malformed = false;
        error = false;
        toolCall = false;
        unknown = false;
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
        cacheWriteTokens = -1;
        reasoningTokens = -1;
        enginePromptNs = -1;
        engineDecodeNs = -1;
        enginePredictedTokens = -1;
        engineDraftTokens = -1;
        engineDraftAccepted = -1;
        items = -1;
    }

    /** No span: the member was absent, null or not a string. */
    static final long NO_SPAN = -1;

    /**
     * Reads a string's raw span if the value is one, else skips the value: the span packed in one long,
     * {@code offset << 32 | length}, so that a grammar keeps what it found in one field per member and reads it once
     * the object is closed, whatever the order of its members.
     *
     * @return the span, or {@link #NO_SPAN}.
     */
    final long readSpan()
    {
        return readStringOrSkip() ? span(strStart, strEnd - strStart) : NO_SPAN;
    }

    static long span(final int offset, final int length)
    {
        return ((long)offset << 32) | length;
    }

    static int spanOffset(final long span)
    {
        return (int)(span >>> 32);
    }

    static int spanLength(final long span)
    {
        return (int)span;
    }

    /** @return true if {@code span} is a string equal to {@code key}. */
    final boolean spanIs(final long span, final byte[] key)
    {
        return span != NO_SPAN && keyIs(spanOffset(span), spanLength(span), key);
    }

    /** Keeps {@code span}, if any, as the answer text. */
    final void takeContent(final long span)
    {
        if (span != NO_SPAN)
        {
            contentOffset = spanOffset(span);
            contentLength = spanLength(span);
        }
    }

    /** Keeps {@code span}, if any, as the reasoning text. */
    final void takeReasoning(final long span)
    {
        if (span != NO_SPAN)
        {
            reasoningOffset = spanOffset(span);
            reasoningLength = spanLength(span);
        }
    }

    /** Marks the event a tool call whose raw bytes are {@code span}, if it is a non-empty one. */
    final void takeToolCall(final long span)
    {
        if (span != NO_SPAN && spanLength(span) > 0)
        {
            toolCall = true;
            toolCallsOffset = spanOffset(span);
            toolCallsLength = spanLength(span);
        }
    }

    /**
     * Parses llama.cpp's {@code timings} object ({@code prompt_ms}, {@code predicted_n}, {@code predicted_ms}, and
     * with a draft model {@code draft_n} and {@code draft_n_accepted}).
     */
    final void parseTimings()
    {
        if (!openObject())
        {
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
     * @return the count named {@code key} in a usage details object ({@code prompt_tokens_details},
     * {@code input_tokens_details}, ...), or -1 when it is absent or the object null: a server that omits the details
     * reports nothing, not zero.
     */
    final long readDetail(final byte[] key)
    {
        long value = -1;
        if (!openObject())
        {
            return value;
        }
        do
        {
            readKey();
            if (keyIs(strStart, strEnd - strStart, key))
            {
                value = readLongOrSkip();
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
        return value;
    }

    /** Opens the event's top-level object (anything else is malformed): true when positioned at its first key. */
    final boolean openTop()
    {
        expect('{');
        if (peekIs('}'))
        {
            pos++;
            return false;
        }
        return true;
    }

    /**
     * Opens an object member's value: false for {@code null}, {@code {}} or a value that is no object (consumed,
     * nothing to read: an error's {@code "message": "..."} is a string where a Messages event's {@code message} is an
     * object), true when positioned at its first key.
     */
    final boolean openObject()
    {
        skipWs();
        if (pos >= end || buf[pos] != '{')
        {
            skipValue();
            return false;
        }
        pos++;
        if (peekIs('}'))
        {
            pos++;
            return false;
        }
        return true;
    }

    /**
     * Reads a JSON number of milliseconds (fraction and exponent allowed, e.g. {@code 42.771} or {@code 1.5e-3}) as
     * whole nanoseconds, rounded to the nearest, without building a double or a String: the decimal digits become a
     * mantissa (up to 18 significant) and a power of ten. Anything else is skipped and reads as -1, as does a
     * negative number; a value beyond a long's range reads as {@link Long#MAX_VALUE}.
     */
    final long readMillisAsNanos()
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

    final void readKey()
    {
        skipWs();
        readString();
        skipWs();
        expect(':');
        skipWs();
    }

    /** After a member, consumes ',' and returns true, or consumes {@code close} and returns false. */
    final boolean nextMember(final char close)
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

    /** Reads a string into {@link #strStart}..{@link #strEnd} and returns true, or consumes {@code null}: false. */
    final boolean readNullableString()
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

    /** Reads a string if the value is one (true), else skips the value, whatever it is (false). */
    final boolean readStringOrSkip()
    {
        skipWs();
        if (pos < end && buf[pos] == '"')
        {
            readString();
            return true;
        }
        skipValue();
        return false;
    }

    final void readString()
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

    final long readLongOrSkip()
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

    final void skipValue()
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

    final boolean skipIfNull()
    {
        skipWs();
        if (peekLiteralNull())
        {
            pos += 4;
            return true;
        }
        return false;
    }

    final boolean peekLiteralNull()
    {
        return end - pos >= 4 && buf[pos] == 'n' && buf[pos + 1] == 'u' && buf[pos + 2] == 'l' && buf[pos + 3] == 'l';
    }

    final boolean isEmptyArrayAhead()
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

    final boolean peekIs(final char c)
    {
        skipWs();
        return pos < end && buf[pos] == c;
    }

    final void expect(final char c)
    {
        skipWs();
        if (pos >= end || buf[pos] != c)
        {
            throw MALFORMED;
        }
        pos++;
    }

    final void skipWs()
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

    final boolean keyIs(final int start, final int length, final byte[] key)
    {
        return length == key.length && regionEquals(buf, start, length, key);
    }

    static boolean regionEquals(final byte[] src, final int start, final int length, final byte[] key)
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

    static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Thrown to unwind a malformed parse; preallocated and stackless so that bad input costs no allocation. */
    static final class Malformed extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        Malformed()
        {
            super("malformed event", null, false, false);
        }
    }
}
