package io.tokenclock.metrics;

/**
 * Every count a run's result carries, each declared once with its key in {@code record.json}: the result
 * ({@code run.RunResult.Counts}) holds them keyed by this enum, {@code report.RecordWriter} writes them under
 * their keys, in this order, and every reader ({@code results.record.ReportSection.Counts}, repetitions, A/B, {@code compare})
 * reads them by the same entries ({@code merge} sums every integer of the section, whatever its key, so it needs
 * none). The report's HTML reads {@code record.json}'s documented keys. A new counter is one entry here plus its
 * use: where it is counted (for a per-request count, a slot of {@code recording.Collector} and its mapping in
 * {@code runner.Measurement}) and where it is printed. The collector's own counters stay int-indexed slots of one array: the hot path adds to them
 * without a lookup (docs/ARCHITECTURE.md).
 */
public enum Counter
{
    /** Measured requests that ended well. */
    OK("ok", Section.COUNTS),
    /** Measured requests that failed. */
    ERRORS("error", Section.COUNTS),
    /** Measured requests cancelled by the run's cancellation rule or its end. */
    CANCELLED("cancelled", Section.COUNTS),
    /** Warm-up requests that finished. */
    WARMUP_REQUESTS("warmup", Section.COUNTS),
    /** Chunks stamped, all phases. */
    CHUNKS("chunks_all_phases", Section.COUNTS),
    /** Output tokens of measured requests. */
    OUTPUT_TOKENS("output_tokens", Section.COUNTS),
    /** Input tokens of measured requests. */
    INPUT_TOKENS("input_tokens", Section.COUNTS),
    /**
     * Inputs of the measured requests that ended ok: one per request, or the texts embedded and the documents ranked
     * of an embeddings or rerank request ({@code --embed-batch}).
     */
    INPUTS("inputs", Section.COUNTS),
    /** Output tokens streamed to measured requests that were then cancelled. */
    WASTED_OUTPUT_TOKENS("cancelled_output_tokens", Section.COUNTS),
    /** Measured requests that ended after the window closed. */
    LATE_COMPLETIONS("late_completions", Section.COUNTS),
    /** Measured streams that ended with neither finish_reason nor [DONE], accepted or not. */
    TRUNCATED("truncated", Section.COUNTS),
    /** Times measured requests were sent again after a 429 ({@code --retry-429}). */
    RETRIES_429("retries_429", Section.COUNTS),
    /**
     * Times measured requests were sent again, once at most, on a new connection because the kept-alive one they went
     * out on closed before any byte of the answer (a server that closes after each response, as llama.cpp's does).
     */
    STALE_CONNECTION_RESENDS("stale_connection_resends", Section.COUNTS),
    /**
     * Events of measured requests whose type the API's grammar does not know (a Responses API built-in tool's
     * progress, a Messages event added later): counted, never a failure.
     */
    UNKNOWN_EVENTS("unknown_events", Section.COUNTS),
    /** Times a producer waited for room in the chunk ring. */
    RING_FULL_WAITS("ring_full_waits", Section.HARNESS),
    /** Values clamped to a histogram's range. */
    CLAMPED_VALUES("clamped_values", Section.HARNESS),
    /** Input tokens of measured requests cancelled, or failed after the server took them on (feeds the cost). */
    WASTED_INPUT_TOKENS("wasted_input_tokens", Section.COST),
    /** Output tokens streamed to measured requests that then failed (feeds the cost). */
    FAILED_OUTPUT_TOKENS("failed_output_tokens", Section.COST),
    /**
     * The part of {@link #WASTED_INPUT_TOKENS} counted by the harness's tokenizer (the server reported no usage for
     * those requests); the rest is the server's count (feeds the cost).
     */
    WASTED_INPUT_TOKENS_FROM_TOKENIZER("wasted_input_tokens_from_tokenizer", Section.COST),
    /** Prompt tokens the server said it served from its prefix cache, over measured ok requests that said. */
    CACHED_TOKENS("cached_tokens", Section.CACHE),
    /** Measured ok requests whose server reported their cached tokens. */
    CACHE_REPORTING_REQUESTS("reporting_requests", Section.CACHE),
    /** The input tokens of those requests. */
    CACHE_REPORTING_INPUT_TOKENS("reporting_input_tokens", Section.CACHE),
    /** Prompt tokens an infinite prefix cache would have held (a trace's blocks seen before, a session's history). */
    IDEAL_CACHED_TOKENS("ideal_cached_tokens", Section.CACHE),
    /** The input tokens, as the workload counted them, of the requests the ideal covers. */
    IDEAL_INPUT_TOKENS("ideal_input_tokens", Section.CACHE),
    /** Tokens the engine's speculative decoder drafted, as measured ok requests reported them. */
    ENGINE_DRAFT_TOKENS("engine_draft_tokens", Section.CACHE),
    /** Drafted tokens the engine accepted, as the same requests reported them. */
    ENGINE_DRAFT_ACCEPTED("engine_draft_accepted", Section.CACHE);

    /** Where in {@code record.json} a counter is written. */
    public enum Section
    {
        /** {@code report.counts}, under the counter's key. */
        COUNTS,
        /** {@code report.harness}, under the counter's key. */
        HARNESS,
        /**
         * Not written under its own key: {@code report.cost} derives its wasted tokens and money from it
         * (docs/COST_ENERGY.md), so its key only names it.
         */
        COST,
        /**
         * {@code report.cache}, under the counter's key, with the hit rates derived from them (docs/RESULTS.md):
         * what the prefix cache and the speculative decoder did, per request.
         */
        CACHE
    }

    private final String key;
    private final Section section;

    Counter(final String key, final Section section)
    {
        this.key = key;
        this.section = section;
    }

    /** @return its key in its section of {@code record.json}. */
    public String key()
    {
        return key;
    }

    /** @return where it is written. */
    public Section section()
    {
        return section;
    }
}
