package io.tokenclock.metrics;

/**
 * The distributions a run records, each with its public name, its unit, and the scale from the recorded integer to
 * that unit. Latencies are recorded in nanoseconds (HdrHistogram at 3 significant digits keeps better than 0.1%
 * relative resolution, i.e. microseconds or better at every scale that matters) and reported in milliseconds.
 * Formulas: docs/METRICS.md.
 */
public enum Metric
{
    TTFT("ttft", "ms", 1e6),
    TTFT_FROM_SCHEDULE("ttft_from_schedule", "ms", 1e6),
    TTFOT("ttfot", "ms", 1e6),
    TTST("ttst", "ms", 1e6),
    INTER_CHUNK_LATENCY("inter_chunk_latency", "ms", 1e6),
    TOKEN_ITL("token_itl", "ms", 1e6),
    TPOT("tpot", "ms", 1e6),
    E2E("e2e", "ms", 1e6),
    E2E_FROM_SCHEDULE("e2e_from_schedule", "ms", 1e6),
    SEND_LAG("send_lag", "ms", 1e6),
    OUTPUT_TOKENS("output_tokens", "tokens", 1),
    INPUT_TOKENS("input_tokens", "tokens", 1),
    /** Per-request decode rate, recorded in milli-tokens per second. */
    OUTPUT_TPS_PER_REQUEST("output_tps_per_request", "tokens/s", 1e3),
    CHUNK_TOKENS("tokens_per_chunk", "tokens", 1),
    /** The engine's own TTFT, its reported prompt time; recorded only for servers that report timings. */
    ENGINE_TTFT("engine_ttft", "ms", 1e6),
    /** The engine's own TPOT from its reported decode time; recorded only for servers that report timings. */
    ENGINE_TPOT("engine_tpot", "ms", 1e6),
    /** Send to the response headers: the header-level timers' "response time", reported beside TTFT. */
    STREAM_SETUP("stream_setup", "ms", 1e6);

    private static final Metric[] VALUES = values();

    private final String key;
    private final String unit;
    private final double scale;

    Metric(final String key, final String unit, final double scale)
    {
        this.key = key;
        this.unit = unit;
        this.scale = scale;
    }

    /** @return the name used in record.json and the summary. */
    public String key()
    {
        return key;
    }

    public String unit()
    {
        return unit;
    }

    /** @return divide a recorded value by this to get {@link #unit()}. */
    public double scale()
    {
        return scale;
    }

    /**
     * @return whether the metric comes from the server's own report, present only for servers that report timings;
     * such a metric is left out of the record and the summary when nothing was recorded.
     */
    public boolean serverReported()
    {
        return this == ENGINE_TTFT || this == ENGINE_TPOT;
    }

    /**
     * @return whether the metric exists only for an answer that streams tokens: TTFT and every latency after the first
     * token, the output's tokens and rates, the engine's token timings. An API that answers whole (embeddings, rerank)
     * has none of them: they are left out of its record, summary, CSV and report, never written as 0; what it has is
     * {@link #E2E}, {@link #E2E_FROM_SCHEDULE}, {@link #SEND_LAG}, {@link #STREAM_SETUP} and {@link #INPUT_TOKENS}.
     */
    public boolean streamOnly()
    {
        return switch (this)
        {
            case E2E, E2E_FROM_SCHEDULE, SEND_LAG, STREAM_SETUP, INPUT_TOKENS -> false;
            default -> true;
        };
    }

    /** @return whether the metric exists for a run whose API streams ({@code streamed}) or answers whole. */
    public boolean appliesTo(final boolean streamed)
    {
        return streamed || !streamOnly();
    }

    public static Metric of(final int ordinal)
    {
        return VALUES[ordinal];
    }

    public static int count()
    {
        return VALUES.length;
    }
}
