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
 */
public record BuiltRequest(byte[] body, int promptTokensHint, int group, int inputs)
{
    /** A request of one input. */
    public BuiltRequest(final byte[] body, final int promptTokensHint, final int group)
    {
        this(body, promptTokensHint, group, 1);
    }
}
