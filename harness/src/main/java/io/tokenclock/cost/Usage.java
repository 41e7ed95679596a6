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
 */
public record Usage(long attempted, long completed, long wastedRequests, long inputTokens, long outputTokens,
    long cachedInputTokens, long wastedInputTokens, long wastedOutputTokens, double windowSeconds)
{
    /** @return every token processed: input and output, completed and wasted. */
    public long allTokens()
    {
        return inputTokens + outputTokens + wastedInputTokens + wastedOutputTokens;
    }
}
