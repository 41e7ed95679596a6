package io.tokenclock.framing;

/**
 * The OpenAI Responses API's stream ({@code POST /v1/responses} with {@code stream: true}), one event's data at a
 * time, on bytes and without allocating. Every event is a JSON object with a {@code type}; a JSON object's members
 * come in any order (OpenAI and llama.cpp's server put {@code type} first, a server whose JSON library sorts its
 * members puts {@code delta} before it), so the members that matter are located first and read by type once the
 * object is closed:
 * <pre>
 * {"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"delta":" Hi","sequence_number":4}
 * </pre>
 * <table>
 * <caption>What each event type means to the harness</caption>
 * <tr><th>type</th><th>read as</th></tr>
 * <tr><td>{@code response.output_text.delta}, {@code response.refusal.delta}</td>
 *     <td>answer text: {@code delta}</td></tr>
 * <tr><td>{@code response.reasoning_text.delta}, {@code response.reasoning_summary_text.delta}</td>
 *     <td>reasoning text: {@code delta}</td></tr>
 * <tr><td>{@code response.function_call_arguments.delta}</td><td>a tool call: the arguments' raw text</td></tr>
 * <tr><td>{@code response.output_item.added} of a {@code function_call} item</td>
 *     <td>a tool call: the item (its name is generated output, as a chat tool call's first chunk is)</td></tr>
 * <tr><td>{@code response.created}, {@code response.in_progress}, {@code response.queued}</td>
 *     <td>the response id ({@code response.id})</td></tr>
 * <tr><td>{@code response.completed}</td><td>the end: finish {@code stop} ({@code tool_calls} when the output holds a
 *     function call), {@code response.usage}: {@code input_tokens}, {@code output_tokens},
 *     {@code input_tokens_details.cached_tokens}, {@code output_tokens_details.reasoning_tokens}</td></tr>
 * <tr><td>{@code response.incomplete}</td><td>the end, cut by the server: finish {@code length} for
 *     {@code incomplete_details.reason} {@code max_output_tokens} (as chat's {@code finish_reason: length}: not an
 *     error), {@code content_filter} for {@code content_filter}, else {@code other}; usage as completed</td></tr>
 * <tr><td>{@code response.failed}, {@code error}, or a top-level {@code error} member (llama.cpp)</td>
 *     <td>an error event</td></tr>
 * <tr><td>the other documented output, content-part, text-done, summary-part, arguments-done and annotation
 *     events</td><td>nothing (known, ignored)</td></tr>
 * <tr><td>anything else</td><td>unknown: counted, not failed</td></tr>
 * </table>
 * llama.cpp's server adds its engine {@code timings} at the top of {@code response.completed}, read as on chat.
 */
public final class ResponsesEventParser extends EventParser
{
    private static final byte[] TYPE = bytes("type");
    private static final byte[] DELTA = bytes("delta");
    private static final byte[] RESPONSE = bytes("response");
    private static final byte[] ITEM = bytes("item");
    private static final byte[] ERROR = bytes("error");
    private static final byte[] ID = bytes("id");
    private static final byte[] USAGE = bytes("usage");
    private static final byte[] OUTPUT = bytes("output");
    private static final byte[] INCOMPLETE_DETAILS = bytes("incomplete_details");
    private static final byte[] REASON = bytes("reason");
    private static final byte[] INPUT_TOKENS = bytes("input_tokens");
    private static final byte[] OUTPUT_TOKENS = bytes("output_tokens");
    private static final byte[] INPUT_TOKENS_DETAILS = bytes("input_tokens_details");
    private static final byte[] OUTPUT_TOKENS_DETAILS = bytes("output_tokens_details");
    private static final byte[] CACHED_TOKENS = bytes("cached_tokens");
    private static final byte[] REASONING_TOKENS = bytes("reasoning_tokens");
    private static final byte[] FUNCTION_CALL = bytes("function_call");
    private static final byte[] MAX_OUTPUT_TOKENS = bytes("max_output_tokens");
    private static final byte[] CONTENT_FILTER = bytes("content_filter");

    private static final byte[] OUTPUT_TEXT_DELTA = bytes("response.output_text.delta");
    private static final byte[] REFUSAL_DELTA = bytes("response.refusal.delta");
    private static final byte[] REASONING_TEXT_DELTA = bytes("response.reasoning_text.delta");
    private static final byte[] REASONING_SUMMARY_TEXT_DELTA = bytes("response.reasoning_summary_text.delta");
    private static final byte[] FUNCTION_CALL_ARGUMENTS_DELTA = bytes("response.function_call_arguments.delta");
    private static final byte[] OUTPUT_ITEM_ADDED = bytes("response.output_item.added");
    private static final byte[] COMPLETED = bytes("response.completed");
    private static final byte[] INCOMPLETE = bytes("response.incomplete");
    private static final byte[] FAILED = bytes("response.failed");
    private static final byte[] ERROR_TYPE = bytes("error");
    /** Documented events that carry nothing the harness measures. */
    private static final byte[][] IGNORED =
    {
        bytes("response.created"), bytes("response.in_progress"), bytes("response.queued"),
        bytes("response.output_item.done"), bytes("response.content_part.added"), bytes("response.content_part.done"),
        bytes("response.output_text.done"), bytes("response.output_text.annotation.added"),
        bytes("response.refusal.done"), bytes("response.reasoning_text.done"),
        bytes("response.reasoning_summary_part.added"), bytes("response.reasoning_summary_part.done"),
        bytes("response.reasoning_summary_text.done"), bytes("response.function_call_arguments.done"),
    };

    private long type;
    private long delta;
    private long item;
    private boolean itemIsFunctionCall;
    private boolean outputHasFunctionCall;
    private int incompleteReason;

    @Override
    void parseTop()
    {
        type = NO_SPAN;
        delta = NO_SPAN;
        item = NO_SPAN;
        itemIsFunctionCall = false;
        outputHasFunctionCall = false;
        incompleteReason = FINISH_OTHER;
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
            delta = readSpan();
        }
        else if (keyIs(ks, kl, TYPE))
        {
            type = readSpan();
        }
        else if (keyIs(ks, kl, RESPONSE))
        {
            parseResponse();
        }
        else if (keyIs(ks, kl, ITEM))
        {
            skipWs();
            final int start = pos;
            itemIsFunctionCall = isFunctionCallItem();
            item = span(start, pos - start);
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
            // no type: an event of no known shape, unless a top-level error member said what it is
            unknown = !error;
        }
        else if (spanIs(t, OUTPUT_TEXT_DELTA) || spanIs(t, REFUSAL_DELTA))
        {
            takeContent(delta);
        }
        else if (spanIs(t, REASONING_TEXT_DELTA) || spanIs(t, REASONING_SUMMARY_TEXT_DELTA))
        {
            takeReasoning(delta);
        }
        else if (spanIs(t, FUNCTION_CALL_ARGUMENTS_DELTA))
        {
            takeToolCall(delta);
        }
        else
        {
            classifyRare(t);
        }
    }

    /** The events that come once or a few times per response: start, end, failure, output items. */
    private void classifyRare(final long t)
    {
        if (spanIs(t, OUTPUT_ITEM_ADDED))
        {
            if (itemIsFunctionCall)
            {
                takeToolCall(item);
            }
        }
        else if (spanIs(t, COMPLETED))
        {
            done = true;
            finishReason = outputHasFunctionCall ? FINISH_TOOL_CALLS : FINISH_STOP;
        }
        else if (spanIs(t, INCOMPLETE))
        {
            done = true;
            finishReason = incompleteReason;
        }
        else if (spanIs(t, FAILED))
        {
            done = true;
            error = true;
        }
        else if (spanIs(t, ERROR_TYPE))
        {
            error = true;
        }
        else if (!ignored(t))
        {
            unknown = true;
        }
    }

    private boolean ignored(final long t)
    {
        for (final byte[] known : IGNORED)
        {
            if (spanIs(t, known))
            {
                return true;
            }
        }
        return false;
    }

    /** The {@code response} object of the lifecycle events: id, usage, output items, why it is incomplete. */
    private void parseResponse()
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
            else if (keyIs(ks, kl, OUTPUT))
            {
                parseOutput();
            }
            else if (keyIs(ks, kl, INCOMPLETE_DETAILS))
            {
                parseIncompleteDetails();
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
                promptTokens = readLongOrSkip();
            }
            else if (keyIs(ks, kl, OUTPUT_TOKENS))
            {
                completionTokens = readLongOrSkip();
            }
            else if (keyIs(ks, kl, INPUT_TOKENS_DETAILS))
            {
                cachedTokens = readDetail(CACHED_TOKENS);
            }
            else if (keyIs(ks, kl, OUTPUT_TOKENS_DETAILS))
            {
                reasoningTokens = readDetail(REASONING_TOKENS);
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
    }

    /** @return the count named {@code key} in a details object, or -1 when it is absent or the object null. */
    private long readDetail(final byte[] key)
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

    /** Looks through the output items for a function call (the finish reason of a completed response). */
    private void parseOutput()
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
        do
        {
            outputHasFunctionCall |= isFunctionCallItem();
        }
        while (nextMember(']'));
    }

    /** Consumes one output item (any value) and says whether it is an object of type {@code function_call}. */
    private boolean isFunctionCallItem()
    {
        skipWs();
        if (pos >= end || buf[pos] != '{')
        {
            skipValue();
            return false;
        }
        boolean functionCall = false;
        if (!openObject())
        {
            return false;
        }
        do
        {
            readKey();
            if (keyIs(strStart, strEnd - strStart, TYPE))
            {
                functionCall = spanIs(readSpan(), FUNCTION_CALL);
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
        return functionCall;
    }

    private void parseIncompleteDetails()
    {
        if (!openObject())
        {
            return;
        }
        do
        {
            readKey();
            if (keyIs(strStart, strEnd - strStart, REASON))
            {
                final long reason = readSpan();
                incompleteReason = spanIs(reason, MAX_OUTPUT_TOKENS) ? FINISH_LENGTH :
                    spanIs(reason, CONTENT_FILTER) ? FINISH_CONTENT_FILTER : FINISH_OTHER;
            }
            else
            {
                skipValue();
            }
        }
        while (nextMember('}'));
    }
}
