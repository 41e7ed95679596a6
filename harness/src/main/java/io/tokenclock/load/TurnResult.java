package io.tokenclock.load;

import java.util.List;

/**
 * How a simulated user's turn ended, as the next turn needs it: the answer text, any tool calls the model made, and
 * when the answer ended. Built on the request stage's thread from a finished request; plain data.
 *
 * @param ok           the request ended ok.
 * @param text         the answer text (empty for a pure tool call).
 * @param toolCalls    tool calls the model asked for, in order; empty for a final answer.
 * @param finishReason {@code stop}, {@code length}, {@code tool_calls}, ..., or null.
 * @param endNs        end of the response, on the run's clock.
 * @param responseId   the server's id of the response, or null (a Responses API session chains the next turn to it).
 */
public record TurnResult(boolean ok, String text, List<ToolCall> toolCalls, String finishReason, long endNs,
    String responseId)
{
    /** A turn's result without the response's id. */
    public TurnResult(
        final boolean ok, final String text, final List<ToolCall> toolCalls, final String finishReason,
        final long endNs)
    {
        this(ok, text, toolCalls, finishReason, endNs, null);
    }

    /** One tool call: its id, the function's name, and its arguments (JSON text as the model wrote it). */
    public record ToolCall(String id, String name, String arguments)
    {
    }

    /** @return true if the model asked for tools rather than answering. */
    public boolean wantsTools()
    {
        return ok && !toolCalls.isEmpty();
    }
}
