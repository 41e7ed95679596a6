package io.tokenclock.framing;

/**
 * Anthropic's Messages API stream ({@code POST /v1/messages} with {@code stream: true}), one event's data at a time,
 * on bytes and without allocating. Every event is a JSON object with a {@code type}, members in any order, read by
 * type once the object is closed:
 * <pre>
 * {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" Hi"}}
 * </pre>
 * <table>
 * <caption>What each event type means to the harness</caption>
 * <tr><th>type</th><th>read as</th></tr>
 * <tr><td>{@code content_block_delta}</td><td>by {@code delta.type}: {@code text_delta} is answer text
 *     ({@code delta.text}), {@code thinking_delta} reasoning ({@code delta.thinking}), {@code input_json_delta} a tool
 *     call (the raw text of {@code delta.partial_json}, when not empty); {@code signature_delta} and
 *     {@code citations_delta} carry nothing measured; another delta type is unknown</td></tr>
 * <tr><td>{@code content_block_start}</td><td>a {@code tool_use} (or {@code server_tool_use}) block is a tool call
 *     (its name is generated output, as a chat tool call's first chunk is); a text or thinking block that opens with
 *     text is that text</td></tr>
 * <tr><td>{@code message_start}</td><td>the response id ({@code message.id}) and the prompt's usage:
 *     {@code input_tokens}, {@code cache_read_input_tokens}, {@code cache_creation_input_tokens}</td></tr>
 * <tr><td>{@code message_delta}</td><td>{@code delta.stop_reason} ({@code end_turn} and {@code stop_sequence}:
 *     stop; {@code max_tokens}: length; {@code tool_use}: tool calls; {@code refusal}: content filter; else other) and
 *     {@code usage.output_tokens} (cumulative), with the prompt's counts when it repeats them</td></tr>
 * <tr><td>{@code message_stop}</td><td>the end of the stream</td></tr>
 * <tr><td>{@code content_block_stop}, {@code ping}</td><td>nothing (known, ignored)</td></tr>
 * <tr><td>{@code error} (or a top-level {@code error} member)</td><td>an error event</td></tr>
 * <tr><td>anything else</td><td>unknown: counted, not failed</td></tr>
 * </table>
 * <b>The prompt's tokens.</b> Anthropic's {@code input_tokens} counts only the tokens after the last cache
 * breakpoint; the prompt is {@code input_tokens + cache_read_input_tokens + cache_creation_input_tokens}, which is
 * what {@link #promptTokens()} reports (the same quantity as chat's {@code prompt_tokens}), and
 * {@code cache_read_input_tokens} is {@link #cachedTokens()} (as the OpenAI APIs' {@code cached_tokens}).
 */
public final class MessagesEventParser extends EventParser
{
    private static final byte[] TYPE = bytes("type");
    private static final byte[] MESSAGE = bytes("message");
    private static final byte[] CONTENT_BLOCK = bytes("content_block");
    private static final byte[] DELTA = bytes("delta");
    private static final byte[] USAGE = bytes("usage");
    private static final byte[] ERROR = bytes("error");
    private static final byte[] ID = bytes("id");
    private static final byte[] TEXT = bytes("text");
    private static final byte[] THINKING = bytes("thinking");
    private static final byte[] PARTIAL_JSON = bytes("partial_json");
    private static final byte[] STOP_REASON = bytes("stop_reason");
    private static final byte[] INPUT_TOKENS = bytes("input_tokens");
    private static final byte[] OUTPUT_TOKENS = bytes("output_tokens");
    private static final byte[] CACHE_READ = bytes("cache_read_input_tokens");
    private static final byte[] CACHE_CREATION = bytes("cache_creation_input_tokens");

    private static final byte[] CONTENT_BLOCK_DELTA = bytes("content_block_delta");
    private static final byte[] CONTENT_BLOCK_START = bytes("content_block_start");
    private static final byte[] CONTENT_BLOCK_STOP = bytes("content_block_stop");
    private static final byte[] MESSAGE_START = bytes("message_start");
    private static final byte[] MESSAGE_DELTA = bytes("message_delta");
    private static final byte[] MESSAGE_STOP = bytes("message_stop");
    private static final byte[] PING = bytes("ping");
    private static final byte[] ERROR_TYPE = bytes("error");
    private static final byte[] TEXT_DELTA = bytes("text_delta");
    private static final byte[] THINKING_DELTA = bytes("thinking_delta");
    private static final byte[] INPUT_JSON_DELTA = bytes("input_json_delta");
    private static final byte[] SIGNATURE_DELTA = bytes("signature_delta");
    private static final byte[] CITATIONS_DELTA = bytes("citations_delta");
    private static final byte[] TOOL_USE = bytes("tool_use");
    private static final byte[] SERVER_TOOL_USE = bytes("server_tool_use");
    private static final byte[] END_TURN = bytes("end_turn");
    private static final byte[] STOP_SEQUENCE = bytes("stop_sequence");
    private static final byte[] MAX_TOKENS = bytes("max_tokens");
    private static final byte[] REFUSAL = bytes("refusal");

    private long type;
    /** The inner type of {@code delta} or {@code content_block}; the event has one or the other. */
    private long innerType;
    private long text;
    private long thinking;
    private long json;
    private long block;
    private int stopReason;
    private long inputTokens;
    private long outputTokens;
    private long cacheRead;
    private long cacheCreation;

    @Override
    void parseTop()
    {
        type = NO_SPAN;
        innerType = NO_SPAN;
        text = NO_SPAN;
        thinking = NO_SPAN;
        json = NO_SPAN;
        block = NO_SPAN;
        stopReason = FINISH_NONE;
        inputTokens = -1;
        outputTokens = -1;
        cacheRead = -1;
        cacheCreation = -1;
        if (openTop())
        {
            do
            {
                readKey();
                member(strStart, strEnd - strStart);
            }
            while (nextMember('}'));
        }
        classify();
    }

    private void member(final int ks, final int kl)
    {
        if (keyIs(ks, kl, DELTA))
        {
            parseInner();
        }
        else if (keyIs(ks, kl, TYPE))
        {
            type = readSpan();
        }
        else if (keyIs(ks, kl, CONTENT_BLOCK))
        {
            skipWs();
            final int start = pos;
            parseInner();
            block = span(start, pos - start);
        }
        else if (keyIs(ks, kl, MESSAGE))
        {
            parseMessage();
        }
        else if (keyIs(ks, kl, USAGE))
        {
            parseUsage();
        }
        else if (keyIs(ks, kl, ERROR))
        {
            error |= !peekLiteralNull();
            skipValue();
        }
        else if (keyIs(ks, kl, TIMINGS))
        {
            parseTimings();
        }
        else
        {
            skipValue();
        }
    }

    /** Reads the event's type, now that every member was seen, as the table of the class says. */
    private void classify()
    {
        final long t = type;
        if (t == NO_SPAN)
        {
            unknown = !error;
        }
        else if (spanIs(t, CONTENT_BLOCK_DELTA))
        {
            classifyDelta();
        }
        else if (spanIs(t, CONTENT_BLOCK_START))
        {
            classifyBlockStart();
        }
        else if (spanIs(t, MESSAGE_START) || spanIs(t, MESSAGE_DELTA))
        {
            takeUsage(spanIs(t, MESSAGE_DELTA));
        }
        else if (spanIs(t, MESSAGE_STOP))
        {
            done = true;
        }
        else if (spanIs(t, ERROR_TYPE))
        {
            error = true;
        }
        else if (!spanIs(t, CONTENT_BLOCK_STOP) && !spanIs(t, PING))
        {
            unknown = true;
        }
    }

    private void classifyDelta()
    {
        final long inner = innerType;
        if (spanIs(inner, TEXT_DELTA))
        {
            takeContent(text);
        }
        else if (spanIs(inner, THINKING_DELTA))
        {
            takeReasoning(thinking);
        }
        else if (spanIs(inner, INPUT_JSON_DELTA))
        {
            takeToolCall(json);
        }
        else if (!spanIs(inner, SIGNATURE_DELTA) && !spanIs(inner, CITATIONS_DELTA))
        {
            unknown = true;
        }
    }

    private void classifyBlockStart()
    {
        if (spanIs(innerType, TOOL_USE) || spanIs(innerType, SERVER_TOOL_USE))
        {
            takeToolCall(block);
        }
        else if (text != NO_SPAN)
        {
            takeContent(text);
        }
        else
        {
            takeReasoning(thinking);
        }
    }

    /**
     * The usage of {@code message_start} (the prompt's counts; its {@code output_tokens} is a placeholder, not taken)
     * or of {@code message_delta} (the output so far, and the prompt's counts if it repeats them), and the stop reason.
     */
    private void takeUsage(final boolean delta)
    {
        if (inputTokens >= 0)
        {
            promptTokens = inputTokens + Math.max(0, cacheRead) + Math.max(0, cacheCreation);
            cachedTokens = cacheRead;
        }
        if (delta)
        {
            completionTokens = outputTokens;
            finishReason = stopReason;
        }
    }

    /** The {@code delta} or {@code content_block} object: its type, its text, thinking or partial JSON, a stop. */
    private void parseInner()
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
            if (keyIs(ks, kl, TYPE))
            {
                innerType = readSpan();
            }
            else if (keyIs(ks, kl, TEXT))
            {
                text = readSpan();
            }
            else if (keyIs(ks, kl, THINKING))
            {
                thinking = readSpan();
            }
            else if (keyIs(ks, kl, PARTIAL_JSON))
            {
                json = readSpan();
            }
            else if (keyIs(ks, kl, STOP_REASON))
            {
                stopReason = stopReasonOf(readSpan());
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
    }

    /** The {@code message} of {@code message_start}: its id and usage. */
    private void parseMessage()
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
            if (keyIs(ks, kl, ID))
            {
                final long id = readSpan();
                if (id != NO_SPAN)
                {
                    idOffset = spanOffset(id);
                    idLength = spanLength(id);
                }
            }
            else if (keyIs(ks, kl, USAGE))
            {
                parseUsage();
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
        if (!openObject())
        {
            return;
        }
        do
        {
            readKey();
            final int ks = strStart;
            final int kl = strEnd - strStart;
            if (keyIs(ks, kl, INPUT_TOKENS))
            {
                inputTokens = readLongOrSkip();
            }
            else if (keyIs(ks, kl, OUTPUT_TOKENS))
            {
                outputTokens = readLongOrSkip();
            }
            else if (keyIs(ks, kl, CACHE_READ))
            {
                cacheRead = readLongOrSkip();
            }
            else if (keyIs(ks, kl, CACHE_CREATION))
            {
                cacheCreation = readLongOrSkip();
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
    }

    /** @return the finish reason of a {@code stop_reason}: none for null (the stream goes on). */
    private int stopReasonOf(final long reason)
    {
        if (reason == NO_SPAN)
        {
            return FINISH_NONE;
        }
        if (spanIs(reason, END_TURN) || spanIs(reason, STOP_SEQUENCE))
        {
            return FINISH_STOP;
        }
        if (spanIs(reason, MAX_TOKENS))
        {
            return FINISH_LENGTH;
        }
        if (spanIs(reason, TOOL_USE))
        {
            return FINISH_TOOL_CALLS;
        }
        return spanIs(reason, REFUSAL) ? FINISH_CONTENT_FILTER : FINISH_OTHER;
    }
}
