package io.tokenclock.load;

import java.util.List;

/**
 * How a simulated user's turn ended, as the next turn needs it: the answer text, any tool calls the model made, and
 * when the answer ended; and what an agent's task needs of its step: the request's id, its latency verdict and its
 * output tokens. Built on the request stage's thread from a finished request; plain data.
 *
 * @param ok           the request ended ok.
 * @param text         the answer text (empty for a pure tool call).
 * @param toolCalls    tool calls the model asked for, in order; empty for a final answer.
 * @param finishReason {@code stop}, {@code length}, {@code tool_calls}, ..., or null.
 * @param endNs        end of the response, on the run's clock.
 * @param responseId   the server's id of the response, or null (a Responses API session chains the next turn to it).
 * @param requestId    the request's id (its line in requests.jsonl), or -1.
 * @param sloVerdict   the SLO bounds the request missed, as the goodput book counts them ({@code goodput}'s verdict
 *                     bits; 0: met them all, or the run has no SLO).
 * @param outputTokens the answer's tokens.
 */
public record TurnResult(boolean ok, String text, List<ToolCall> toolCalls, String finishReason, long endNs,
    String responseId, long requestId, int sloVerdict, long outputTokens)
{
    /** A turn's end without a request behind it (tests, tools). */
    public TurnResult(final boolean ok, final String text, final List<ToolCall> toolCalls, final String finishReason,
        final long endNs)
    {
        this(ok, text, toolCalls, finishReason, endNs, null, -1, 0, 0);
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
