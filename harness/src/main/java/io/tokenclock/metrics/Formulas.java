package io.tokenclock.metrics;

/**
 * The per-request metric formulas, as pure functions of clock stamps and counts, so that each can be checked on
 * hand-computed cases and cited from docs/METRICS.md. Stamps are nanoseconds on the run's one monotonic clock.
 * A result of -1 means "not defined for this request" (e.g. TPOT of a one-token answer) and is never recorded.
 */
public final class Formulas
{
    private Formulas()
    {
    }

    /** TTFT = t(first content-bearing chunk) - t(sent). */
    public static long ttftNs(final long sentNs, final long firstTokenNs)
    {
        return sentNs > 0 && firstTokenNs > 0 ? firstTokenNs - sentNs : -1;
    }

    /**
     * Stream setup = t(response headers received) - t(sent): what header-level timers (Gatling's, JMeter's response
     * time to first byte) measure, and with most servers far less than TTFT, which waits for the first token.
     */
    public static long streamSetupNs(final long sentNs, final long headersNs)
    {
        return sentNs > 0 && headersNs >= sentNs ? headersNs - sentNs : -1;
    }

    /** TTFT from schedule = t(first content-bearing chunk) - t(intended start): includes the client's send lag. */
    public static long ttftFromScheduleNs(final long scheduledNs, final long firstTokenNs)
    {
        return scheduledNs > 0 && firstTokenNs > 0 ? firstTokenNs - scheduledNs : -1;
    }

    /** Time to second token (AIPerf's TTST) = t(second content-bearing chunk) - t(first). */
    public static long ttstNs(final long[] chunkNs, final int chunkCount)
    {
        return chunkCount >= 2 ? chunkNs[1] - chunkNs[0] : -1;
    }

    /** End-to-end latency = t(end of response body) - t(sent). */
    public static long e2eNs(final long sentNs, final long endNs)
    {
        return sentNs > 0 && endNs >= sentNs ? endNs - sentNs : -1;
    }

    /** Send lag = t(sent) - t(intended start); positive when the client fell behind its schedule. */
    public static long sendLagNs(final long scheduledNs, final long sentNs)
    {
        return scheduledNs > 0 && sentNs > 0 ? sentNs - scheduledNs : -1;
    }

    /**
     * TPOT = (t_last - t_first) / (n_out - 1), where t_first and t_last are the arrivals of the first and last
     * content-bearing chunks and n_out the request's output tokens. Undefined for n_out < 2.
     */
    public static double tpotNs(final long firstNs, final long lastNs, final long outputTokens)
    {
        return outputTokens >= 2 && lastNs >= firstNs ? (double)(lastNs - firstNs) / (outputTokens - 1) : -1;
    }

    /**
     * Engine TPOT = decode / (n_engine - 1): the engine's own decode time (first generated token to last, llama.cpp's
     * {@code predicted_ms}) over its own token count ({@code predicted_n}), the same formula as the client's TPOT so
     * that the two compare like for like. (llama.cpp's {@code predicted_per_token_ms} divides by n_engine instead.)
     * Undefined for fewer than 2 tokens or an unreported decode time.
     */
    public static double engineTpotNs(final long decodeNs, final long predictedTokens)
    {
        return predictedTokens >= 2 && decodeNs >= 0 ? (double)decodeNs / (predictedTokens - 1) : -1;
    }

    /** Per-request decode rate in tokens/s = (n_out - 1) / (t_last - t_first); equals 1 / TPOT. */
    public static double outputTokensPerSecond(final long firstNs, final long lastNs, final long outputTokens)
    {
        return outputTokens >= 2 && lastNs > firstNs ? (outputTokens - 1) * 1e9 / (lastNs - firstNs) : -1;
    }

    /**
     * Token ITL of chunk i (i >= 1) = (t_i - t_{i-1}) / tokens_i: the chunk's gap shared evenly by the tokens it
     * carried, defined only when the count is known and positive.
     */
    public static double tokenItlNs(final long previousNs, final long chunkNs, final int chunkTokens)
    {
        return chunkTokens > 0 ? (double)(chunkNs - previousNs) / chunkTokens : -1;
    }

    /**
     * Token ITL of chunk i as the histograms store it: {@link #tokenItlNs} truncated to whole nanoseconds. For any
     * gap under 2^53 ns (104 days) this equals the integer quotient (t_i - t_{i-1}) / tokens_i exactly: the double
     * quotient's rounding error is below 1 / tokens_i, the least distance from a non-integer quotient to an integer.
     */
    public static long tokenItlWholeNs(final long previousNs, final long chunkNs, final int chunkTokens)
    {
        return (long)tokenItlNs(previousNs, chunkNs, chunkTokens);
    }

    /**
     * A window's length in seconds = (t_end - t_start) / 1e9; 0 for an empty or inverted window. Every rate in the
     * record divides by this same value, so that a count divided by the reported {@code duration_s} or
     * {@code window_s} gives the reported rate exactly.
     */
    public static double windowSeconds(final long startNs, final long endNs)
    {
        return endNs > startNs ? (endNs - startNs) / 1e9 : 0.0;
    }

    /**
     * Aggregate rate (throughput) = count / window, per second, e.g. requests/s, output tokens/s, goodput;
     * 0 for an empty window.
     *
     * @param count   what happened in the window: requests, tokens, errors.
     * @param windowS the window in seconds, from {@link #windowSeconds}.
     */
    public static double rate(final double count, final double windowS)
    {
        return windowS > 0 ? count / windowS : 0.0;
    }
}
