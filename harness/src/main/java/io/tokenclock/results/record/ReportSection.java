package io.tokenclock.results.record;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;

import io.tokenclock.metrics.Counter;

/**
 * The record's {@code report} section: what the measured requests gave, in all, per segment and per task, with the
 * goodput, quality, server, cost and energy sections when the run has them (null otherwise). Keys: docs/RESULTS.md.
 *
 * @param distributions one per metric key ({@code ttft}, {@code tpot}, ...), in the order written.
 * @param tasks         the agent tasks' outcomes, or null.
 * @param quality       the quality rule's verdicts, or null: a tree, since its {@code rule} is the contract's own
 *                      declaration of checks and judge, whose shape is the contract's.
 * @param server        the server's own figures over the window, or null: a tree, since which gauges and engine
 *                      latencies it holds depends on what the engine's {@code /metrics} exposed.
 * @param cache         what the prefix cache and the speculative decoder did, per request, with the ideal beside
 *                      it; null when no request said.
 * @param sessions      a session trace's sessions, or null for any other workload.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ReportSection(Window window, Counts counts, Map<String, Long> errorsByClass, Throughput throughput,
    Map<String, Dist> distributions, List<String> tailWarnings, JsonNode clientReceiveDelay,
    JsonNode clientSendDelay, ColdStart coldStart,
    Tasks tasks, Map<String, Segment> segments, Harness harness, Goodput goodput, JsonNode quality,
    RepetitionRef repetitions, JsonNode server, Cost cost, Energy energy, Cache cache, Sessions sessions)
{
    /** A section without cache or session figures (peers' results read in, older writers). */
    public ReportSection(final Window window, final Counts counts, final Map<String, Long> errorsByClass,
        final Throughput throughput, final Map<String, Dist> distributions, final List<String> tailWarnings,
        final JsonNode clientReceiveDelay, final JsonNode clientSendDelay, final ColdStart coldStart,
        final Tasks tasks, final Map<String, Segment> segments, final Harness harness, final Goodput goodput,
        final JsonNode quality, final RepetitionRef repetitions, final JsonNode server, final Cost cost,
        final Energy energy)
    {
        this(window, counts, errorsByClass, throughput, distributions, tailWarnings, clientReceiveDelay,
            clientSendDelay, coldStart, tasks, segments, harness, goodput, quality, repetitions, server, cost, energy,
            null, null);
    }

    /** @return the distribution of metric {@code key}, or an empty one when the record has none. */
    public Dist distribution(final String key)
    {
        final Dist d = distributions == null ? null : distributions.get(key);
        return d == null ? Dist.empty("ms") : d;
    }

    /** The measurement window on the run's clock. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Window(long startNs, long endNs, double durationS, double wallS)
    {
    }

    /**
     * Every measured request and what it carried, by outcome: {@code measured} (ok, error and cancelled), each
     * {@link Counter} of section {@link Counter.Section#COUNTS} under its key, in the enum's order, and the rate of
     * 429 answers over the window.
     *
     * @param measured    every measured request.
     * @param values      each counter of the section (0 when not given).
     * @param http429PerS 429 answers per second of the window.
     */
    @JsonSerialize(using = CounterJson.CountsWriter.class)
    @JsonDeserialize(using = CounterJson.CountsReader.class)
    public record Counts(long measured, Map<Counter, Long> values, double http429PerS)
    {
        /** The key of {@link #measured()}. */
        public static final String MEASURED = "measured";
        /** The key of {@link #http429PerS()}. */
        public static final String HTTP_429_PER_S = "http_429_per_s";

        public Counts
        {
            values = CounterJson.section(values, Counter.Section.COUNTS);
        }

        /** @return the value of counter {@code c}, 0 for one of another section. */
        public long get(final Counter c)
        {
            return values.getOrDefault(c, 0L);
        }
    }

    /**
     * Rates over the window.
     *
     * @param outputTokensPerS output tokens of the requests that ended ok per second; null, and absent, for an API
     *                   that generates none (embeddings, rerank): never 0 for a rate that does not exist.
     * @param inputsPerS the inputs (texts embedded, documents ranked) of the requests that ended ok per second, for
     *                   an API that answers whole (embeddings, rerank); null, and absent, for the others.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Throughput(double requestsPerS,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double outputTokensPerS, double inputTokensPerS,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double inputsPerS)
    {
        /** Rates without inputs: a streamed API's, or a peer's file. */
        public Throughput(final double requestsPerS, final double outputTokensPerS, final double inputTokensPerS)
        {
            this(requestsPerS, outputTokensPerS, inputTokensPerS, null);
        }

        /** @return output tokens per second, or NaN for an API that generates none (embeddings, rerank). */
        public double outputTokensPerSOrNaN()
        {
            return outputTokensPerS == null ? Double.NaN : outputTokensPerS;
        }

        /** @return inputs per second, or NaN where the record states none (a streamed API, a peer's file). */
        public double inputsPerSOrNaN()
        {
            return inputsPerS == null ? Double.NaN : inputsPerS;
        }
    }

    /**
     * The agent tasks (an agent workload): how many finished and succeeded (their final answer judged, when a quality
     * rule judges outputs), why the others failed, their latency, steps and time split. {@code tasks} is the tasks
     * attempted; {@code failed} is {@code failed_requests + step_limited + wrong_answers}, {@code unjudged} answers are
     * neither.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Tasks(long tasks, long succeeded, long failedRequests, long stepLimited, double successRate,
        double tasksPerS, Dist taskLatency, Dist steps, double modelTimeS, double toolTimeS, long retries,
        Long wrongAnswers, Long unjudged, Long failed)
    {
    }

    /**
     * {@code report.cache}: the prompt tokens the server said it served from its prefix cache, over the measured ok
     * requests whose server said so, against the tokens an infinite cache would have held (the workload's ideal), and
     * the engine's own per-request speculative drafts; each count is a {@link Counter} of section
     * {@link Counter.Section#CACHE} under its key, each rate derived from them (null when its denominator is 0).
     * {@code server_hit_rate} restates {@code report.server.prefix_cache_hit_rate} beside the client's figures.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Cache(long reportingRequests, long reportingInputTokens, long cachedTokens, Double hitRate,
        long idealInputTokens, long idealCachedTokens, Double idealHitRate, Double serverHitRate,
        long engineDraftTokens, long engineDraftAccepted, Double engineAcceptanceRate)
    {
    }

    /**
     * {@code report.sessions}: a session trace's sessions, the time its sessions spent in requests against the waits
     * that were the trace's own (its delays, tool and think times, divided by the speed-up).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Sessions(String format, double traceSpeedup, long sessions, long completed, long turns,
        long subagents, Dist turnsPerSession, Dist sessionE2e, double inRequestsS, double traceWaitsS,
        Double traceWaitShare)
    {
    }

    /**
     * The cold-start request, measured alone before the run. Its TTFT, TPOT and output tokens are null, and absent,
     * for an API that answers whole (embeddings, rerank).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ColdStart(String status, String error, @JsonInclude(JsonInclude.Include.NON_NULL) Double ttftMs,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double tpotMs, double e2eMs,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long outputTokens)
    {
    }

    /**
     * One segment (or stage): counts, rates over its own window, and distributions; with goodput, the whole section
     * under {@code goodput} and its four record-format-3 fields beside it ({@code slo} is then a text or a JSON null,
     * and absent without goodput).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Segment(long ok, long error, long cancelled, long outputTokens, long inputTokens, double windowS,
        double requestsPerS, double outputTokensPerS, @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode slo,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long good,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double goodFraction,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double goodputPerS,
        @JsonInclude(JsonInclude.Include.NON_NULL) Goodput goodput, Map<String, Dist> distributions)
    {
    }

    /**
     * The harness's own back-pressure (waits on a full ring, values clamped into the histograms): each
     * {@link Counter} of section {@link Counter.Section#HARNESS} under its key.
     */
    @JsonSerialize(using = CounterJson.HarnessWriter.class)
    @JsonDeserialize(using = CounterJson.HarnessReader.class)
    public record Harness(Map<Counter, Long> values)
    {
        public Harness
        {
            values = CounterJson.section(values, Counter.Section.HARNESS);
        }

        /** @return the value of counter {@code c}, 0 for one of another section. */
        public long get(final Counter c)
        {
            return values.getOrDefault(c, 0L);
        }
    }

    /** Which repetition this run is, and where the spread is. */
    public record RepetitionRef(int index, int of, String summary)
    {
    }

    /**
     * Goodput: good requests against the SLO and the quality rule, and what every other request missed.
     * {@code measured} and {@code goodput_per_s} are record format 3's names, kept as aliases.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Goodput(String slo, boolean qualityRule, long attempted, long good, double goodFraction,
        double requestsPerS, double outputTokensPerS, long goodOutputTokens, Misses misses, long excluded,
        long measured, double goodputPerS, @JsonInclude(JsonInclude.Include.NON_NULL) String unit)
    {
        /** Request goodput, as records before agent tasks' had it (no {@code unit}). */
        public Goodput(final String slo, final boolean qualityRule, final long attempted, final long good,
            final double goodFraction, final double requestsPerS, final double outputTokensPerS,
            final long goodOutputTokens, final Misses misses, final long excluded, final long measured,
            final double goodputPerS)
        {
            this(slo, qualityRule, attempted, good, goodFraction, requestsPerS, outputTokensPerS, goodOutputTokens,
                misses, excluded, measured, goodputPerS, null);
        }
    }

    /** Requests that missed, per constraint. */
    public record Misses(long ttft, long tpot, long itl, long e2e, long quality, long failed, long cancelled)
    {
    }

    /** {@code report.cost}: docs/COST_ENERGY.md. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Cost(String currency, String boundary, String prices, double runTotal, Double perRequest,
        Double perOutputToken, Double perSuccessfulTask, long successes, String successBasis, double wasted,
        String wastedBasis, String arithmetic, WastedTokens wastedTokens)
    {
    }

    /**
     * {@code report.cost.wasted_tokens}: where the wasted tokens were counted, the server's usage or the harness's
     * tokenizer (docs/COST_ENERGY.md).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record WastedTokens(long inputFromServer, long inputFromTokenizer, long outputStreamed)
    {
    }

    /** {@code report.energy}: docs/COST_ENERGY.md. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Energy(String boundary, Map<String, List<String>> boundarySources, Double joules,
        Double uncertaintyJoules, double windowS, Double averageWatts, Double perRequestJ, Double perOutputTokenJ,
        Double perSuccessfulTaskJ, long successes, String successBasis, Double tokensPerJoule,
        Double goodputPerWatt, String goodputBasis, String uncertaintyMethod, List<EnergyComponent> components,
        List<String> unavailable, List<String> sources, List<String> synthetic, String samplesFile)
    {
    }

    /** One channel's energy over the window. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record EnergyComponent(String channel, String component, boolean inBoundary, String method,
        double joules, double uncertaintyJoules, int samples, double meanIntervalMs, double maxIntervalMs)
    {
    }
}
