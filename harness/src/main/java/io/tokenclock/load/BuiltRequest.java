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
 * @param tag              where the request stands in a session or an agent task, or {@link RequestTag#NONE}.
 */
public record BuiltRequest(byte[] body, int promptTokensHint, int group, int inputs, RequestTag tag)
{
    /** A request of one input that belongs to no session or task. */
    public BuiltRequest(final byte[] body, final int promptTokensHint, final int group)
    {
        this(body, promptTokensHint, group, 1, RequestTag.NONE);
    }

    /** A request of {@code inputs} inputs (embeddings, rerank) that belongs to no session or task. */
    public BuiltRequest(final byte[] body, final int promptTokensHint, final int group, final int inputs)
    {
        this(body, promptTokensHint, group, inputs, RequestTag.NONE);
    }

    /** A request of one input, tagged with its place in a session or a task. */
    public BuiltRequest(final byte[] body, final int promptTokensHint, final int group, final RequestTag tag)
    {
        this(body, promptTokensHint, group, 1, tag);
    }
}
