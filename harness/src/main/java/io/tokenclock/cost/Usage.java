package io.tokenclock.cost;

/**
 * What a run's measured requests consumed, as a price model needs it: requests, tokens and the window. Warm-up
 * requests are not in it.
 * <p>
 * Immutable and thread-safe.
 *
 * @param attempted          measured requests sent: completed, failed and cancelled.
 * @param completed          measured requests that ended ok.
 * @param wastedRequests     measured requests that failed or were cancelled.
 * @param inputTokens        input tokens of the completed requests.
 * @param outputTokens       output tokens of the completed requests.
 * @param cachedInputTokens  input tokens the server reported as served from its cache, or -1 when not recorded.
 * @param wastedInputTokens  input tokens of the failed and cancelled requests that the server had taken on.
 * @param wastedOutputTokens output tokens streamed to requests that then failed or were cancelled.
 * @param windowSeconds      the measured window, s.
 * @param wastedInputTokensFromTokenizer the part of {@code wastedInputTokens} counted by the harness's tokenizer,
 *                           for requests the server reported no usage for (a 500, a timeout); the rest is the
 *                           server's own count.
 */
public record Usage(long attempted, long completed, long wastedRequests, long inputTokens, long outputTokens,
    long cachedInputTokens, long wastedInputTokens, long wastedOutputTokens, double windowSeconds,
    long wastedInputTokensFromTokenizer)
{
    /** Usage whose wasted input tokens are all the server's own count. */
    public Usage(final long attempted, final long completed, final long wastedRequests, final long inputTokens,
        final long outputTokens, final long cachedInputTokens, final long wastedInputTokens,
        final long wastedOutputTokens, final double windowSeconds)
    {
        this(attempted, completed, wastedRequests, inputTokens, outputTokens, cachedInputTokens, wastedInputTokens,
            wastedOutputTokens, windowSeconds, 0);
    }

    /**
     * @return where the wasted tokens were counted, in words: how many input tokens the server reported, how many
     * the harness's tokenizer counted, and the output tokens streamed.
     */
    public String wastedTokenSources()
    {
        return String.format(java.util.Locale.ROOT, "wasted input %d tokens: %d as reported by the server, %d " +
            "counted by the harness's tokenizer where the server reported none; wasted output %d tokens as streamed",
            wastedInputTokens, wastedInputTokens - wastedInputTokensFromTokenizer, wastedInputTokensFromTokenizer,
            wastedOutputTokens);
    }

    /** @return every token processed: input and output, completed and wasted. */
    public long allTokens()
    {
        return inputTokens + outputTokens + wastedInputTokens + wastedOutputTokens;
    }
}
