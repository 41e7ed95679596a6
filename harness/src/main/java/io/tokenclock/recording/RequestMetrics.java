package io.tokenclock.recording;

import io.tokenclock.metrics.Formulas;

/**
 * The metrics of one finished request, derived from its slot by the {@link RequestStage}, off the ring's consumer.
 * A reusable flyweight: valid until the next {@link #compute}. Durations are in nanoseconds; -1 means undefined for
 * this request.
 */
public final class RequestMetrics
{
    public static final String SOURCE_USAGE = "usage";
    public static final String SOURCE_CHUNKS = "chunks";
    public static final String SOURCE_TOKENIZER = "tokenizer";

    public long ttftNs;
    /** Send to the response headers' arrival, or -1 when no response head came. */
    public long streamSetupNs;
    public long ttftFromScheduleNs;
    public long ttfotNs;
    public long ttstNs;
    public double tpotNs;
    public long e2eNs;
    public long e2eFromScheduleNs;
    public long sendLagNs;
    public long inputTokens;
    public long outputTokens;
    public String tokenCountSource;
    public double outputTokensPerSecond;
    /** The engine's own TTFT (its reported prompt time), or -1 when the server reported none. */
    public long engineTtftNs;
    /** The engine's own TPOT (its reported decode time over its tokens - 1), or -1. */
    public double engineTpotNs;

    /**
     * Derives every per-request metric from the slot's stamps. A request whose answer came whole (embeddings, rerank)
     * has no chunk, so its TTFT, TPOT and the rest come out -1 (undefined, never recorded) and its output tokens -1. Output tokens come from the server's {@code usage}
     * when it reported one, else from the harness's own tokenizer when one is configured, else from the count of
     * content-bearing chunks (exact for one-token-per-chunk servers, an undercount otherwise);
     * {@link #tokenCountSource} says which.
     */
    public RequestMetrics compute(final RequestSlot s)
    {
        final int n = s.chunkCount;
        final long first = n > 0 ? s.chunkNs[0] : 0;
        final long last = n > 0 ? s.chunkNs[n - 1] : 0;
        if (s.wholeAnswer)
        {
            outputTokens = -1; // no token generated: no count at all, not a count of 0
            tokenCountSource = null;
        }
        else if (s.usageCompletionTokens >= 0)
        {
            outputTokens = s.usageCompletionTokens;
            tokenCountSource = SOURCE_USAGE;
        }
        else if (s.harnessOutputTokens >= 0)
        {
            outputTokens = s.harnessOutputTokens;
            tokenCountSource = SOURCE_TOKENIZER;
        }
        else
        {
            outputTokens = n;
            tokenCountSource = SOURCE_CHUNKS;
        }
        inputTokens = s.usagePromptTokens >= 0 ? s.usagePromptTokens : s.promptTokensHint;
        ttftNs = Formulas.ttftNs(s.sentNs, first);
        streamSetupNs = Formulas.streamSetupNs(s.sentNs, s.headersNs);
        ttftFromScheduleNs = Formulas.ttftFromScheduleNs(s.scheduledNs, first);
        ttfotNs = Formulas.ttftNs(s.sentNs, s.firstOutputNs);
        ttstNs = Formulas.ttstNs(s.chunkNs, n);
        tpotNs = Formulas.tpotNs(first, last, outputTokens);
        outputTokensPerSecond = Formulas.outputTokensPerSecond(first, last, outputTokens);
        e2eNs = Formulas.e2eNs(s.sentNs, s.endNs);
        e2eFromScheduleNs = s.scheduledNs > 0 ? Formulas.e2eNs(s.scheduledNs, s.endNs) : -1;
        sendLagNs = Formulas.sendLagNs(s.scheduledNs, s.sentNs);
        engineTtftNs = s.enginePromptNs;
        engineTpotNs = Formulas.engineTpotNs(s.engineDecodeNs, s.enginePredictedTokens);
        s.outputTokens = outputTokens;
        s.tokenCountSource = tokenCountSource;
        return this;
    }
}
