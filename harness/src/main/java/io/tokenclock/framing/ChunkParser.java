package io.tokenclock.framing;

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
 * {@code usage.completion_tokens}; the engine's own timings when the server reports them as llama.cpp's server does,
 * in a top-level {@code timings} object ({@code prompt_ms}, {@code predicted_n}, {@code predicted_ms}); whether a
 * top-level {@code error} object is present; whether the payload is the {@code [DONE]} sentinel. Everything else is
 * skipped structurally (strings with escapes, nested values).
 * Only {@code choices[0]} is read: tokenclock requests one choice per request.
 * <p>
 * Strings are reported as offsets of their <em>raw, still-escaped</em> bytes in the source array. Concatenating the
 * raw bodies of several JSON strings yields a valid raw body of their concatenation, so the transport can append raw
 * content bytes per chunk and decode the whole text once, off the hot path.
 * <p>
 * The scanning primitives and the results are {@link EventParser}'s, shared with the other APIs' grammars. One parser
 * per I/O thread; not thread-safe. Results describe the last {@link #parse} call only.
 */
public final class ChunkParser extends EventParser
{
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
    private static final byte[] STOP = bytes("stop");
    private static final byte[] LENGTH = bytes("length");
    private static final byte[] TOOL_CALLS_REASON = bytes("tool_calls");
    private static final byte[] CONTENT_FILTER = bytes("content_filter");

    @Override
    void parseTop()
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
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
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
}
