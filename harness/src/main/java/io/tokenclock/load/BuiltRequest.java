package io.tokenclock.load;

/**
 * One request as its filler built it, ahead of its intended start: the body, and what the record needs to know of it.
 * Everything about request {@code i} travels in this one value, so no filler has to remember "the last request built"
 * for a later call to read. The body is handed over, not copied: the filler must not touch it again.
 *
 * @param body             the UTF-8 request body.
 * @param promptTokensHint the prompt's approximate length in tokens, or -1 when unknown (a dataset's own messages).
 * @param group            the request's group (segment) index, 0 when the workload has none.
 * @param inputs           the inputs the request carries: 1, or an embeddings request's texts, a rerank request's
 *                         documents ({@code --embed-batch}).
 * @param answerLimit      the most items the request asks its answer for (a rerank request's {@code top_n}), or 0:
 *                         one per input. An answer read whole with fewer than the lesser of the two is truncated.
 * @param tag              where the request stands in a session or an agent task, or {@link RequestTag#NONE}.
 */
public record BuiltRequest(byte[] body, int promptTokensHint, int group, int inputs, int answerLimit, RequestTag tag)
{
    /** A request of one input that belongs to no session or task. */
    public BuiltRequest(final byte[] body, final int promptTokensHint, final int group)
    {
        this(body, promptTokensHint, group, 1, 0, RequestTag.NONE);
    }

    /**
     * A request of {@code inputs} inputs (embeddings, rerank) that asks for at most {@code answerLimit} answer items
     * (0: one per input) and belongs to no session or task.
     */
    public BuiltRequest(final byte[] body, final int promptTokensHint, final int group, final int inputs,
        final int answerLimit)
    {
        this(body, promptTokensHint, group, inputs, answerLimit, RequestTag.NONE);
    }

    /** A request of one input, tagged with its place in a session or a task. */
    public BuiltRequest(final byte[] body, final int promptTokensHint, final int group, final RequestTag tag)
    {
        this(body, promptTokensHint, group, 1, 0, tag);
    }
}
