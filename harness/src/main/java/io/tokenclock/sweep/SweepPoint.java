package io.tokenclock.sweep;

import io.tokenclock.api.Api;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.Metric;
import io.tokenclock.run.RunResult;
import io.tokenclock.telemetry.EngineNames;
import io.tokenclock.telemetry.ServerMetricsSummary;

/**
 * One measured point of a sweep: the load offered and what the server did with it, taken from the point's own run
 * ({@link #of}). Latencies are in milliseconds, from the point's record.json. The rates are not the record's: the
 * record divides by a window that runs to the last measured request's end, drain included, so that a point barely
 * longer than one request reads as saturated (offered 15.4 req/s, 3 s requests, a 5 s point: 10.7 "achieved"). A
 * point's {@code achievedRps} is instead every request that ended ok inside its nominal window (from the window's
 * opening, for {@code --point-duration} seconds; a warm-up request that ends inside counts, a measured one that ends
 * in the drain does not), over that window: what the server completed per second while the load was offered
 * ({@link WindowCount}). Goodput and output tokens/s follow it: {@code achievedRps} times the share of ok requests
 * that were good, and times their mean output tokens. A figure with no sample is NaN. An API that answers whole
 * (embeddings, rerank: {@link Api#streamed()} false) has no TTFT, TPOT, output tokens or per-user decode rate: those
 * figures are NaN (and absent from sweep.json, never 0), and its throughput is {@code inputsPerS} and
 * {@code inputTokensPerS}, {@code achievedRps} times the mean inputs and prompt tokens of a measured ok request;
 * for a streamed API those two are NaN. Immutable and thread-safe.
 *
 * @param loop             how the load was offered: an open-loop rate or a closed-loop concurrency.
 * @param offered          the offered load: requests/s for {@link Loop#RATE}, requests in flight for
 *                         {@link Loop#CONCURRENCY}.
 * @param achievedRps      requests that ended ok inside the nominal window, per second of it (above).
 * @param ttftP50Ms        TTFT median, ms.
 * @param ttftP99Ms        TTFT 99th percentile, ms.
 * @param tpotP50Ms        TPOT median, ms.
 * @param tpotP99Ms        TPOT 99th percentile, ms.
 * @param e2eP99Ms         end-to-end latency 99th percentile, ms.
 * @param outputTokensPerS {@code achievedRps} times the mean output tokens of a measured ok request.
 * @param goodputRps       {@code achievedRps} times the share of measured ok requests that were good
 *                         ({@code report.goodput}; with neither an SLO nor a quality rule every ok request is good).
 * @param ok               measured requests that ended ok.
 * @param errors           measured requests that failed.
 * @param cancelled        measured requests that were cancelled (the workload's rule, or the end of the drain).
 * @param good             measured requests that met the SLO ({@code ok} when there is none).
 * @param queue            the queue during the window.
 * @param runDir           the point's run directory.
 * @param energyJPerToken  the energy in the power boundary per output token of a completed request, J (the point's
 *                         {@code report.energy.per_output_token_j}); NaN when no energy was measured.
 * @param e2eP50Ms         end-to-end latency median, ms: the point's window should be 10 times it
 *                         ({@link SweepAnalysis#warnings()}).
 * @param tpsPerUser       the median request's decode rate, output tokens/s ({@code output_tps_per_request} p50):
 *                         the Pareto plot's "per user" axis.
 * @param windowS          the point's nominal window, s ({@code --point-duration}).
 * @param okInWindow       requests that ended ok inside it.
 * @param streamed         whether the point's API streams its answers; false for embeddings and rerank.
 * @param inputsPerS       an API that answers whole: {@code achievedRps} times the mean inputs (texts embedded,
 *                         documents ranked) of a measured ok request; NaN for a streamed API.
 * @param inputTokensPerS  an API that answers whole: {@code achievedRps} times the mean prompt tokens (the server's
 *                         {@code usage.prompt_tokens}) of a measured ok request; NaN for a streamed API.
 */
public record SweepPoint(Loop loop, double offered, double achievedRps, double ttftP50Ms, double ttftP99Ms,
    double tpotP50Ms, double tpotP99Ms, double e2eP99Ms, double outputTokensPerS, double goodputRps, long ok,
    long errors, long cancelled, long good, Queue queue, String runDir, double energyJPerToken, double e2eP50Ms,
    double tpsPerUser, double windowS, long okInWindow, boolean streamed, double inputsPerS, double inputTokensPerS)
{
    /** A point's window should be at least this many e2e p50s long, or its rates read the drain, not the load. */
    public static final double MIN_WINDOW_E2E = 10;

    /** The definition of {@link #achievedRps()}, as sweep.json states it. */
    public static final String ACHIEVED_DEFINITION = "requests that ended ok (any phase) inside the point's " +
        "nominal window (from its opening, for point_duration_s), over that window; goodput and output tokens/s are " +
        "it times the good share and the mean output tokens of the measured ok requests";

    /** A point that measured no energy. */
    public SweepPoint(final Loop loop, final double offered, final double achievedRps, final double ttftP50Ms,
        final double ttftP99Ms, final double tpotP50Ms, final double tpotP99Ms, final double e2eP99Ms,
        final double outputTokensPerS, final double goodputRps, final long ok, final long errors,
        final long cancelled, final long good, final Queue queue, final String runDir)
    {
        this(loop, offered, achievedRps, ttftP50Ms, ttftP99Ms, tpotP50Ms, tpotP99Ms, e2eP99Ms, outputTokensPerS,
            goodputRps, ok, errors, cancelled, good, queue, runDir, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0,
            true, Double.NaN, Double.NaN);
    }

    /**
     * @return the latency the knee and the progress line read: the TTFT p99 for a streamed API, the e2e p99 for one
     * that answers whole (its only latency).
     */
    public double kneeLatencyMs()
    {
        return streamed ? ttftP99Ms : e2eP99Ms;
    }

    /** @return whether the window is shorter than {@link #MIN_WINDOW_E2E} e2e p50s: its rates read the drain. */
    public boolean shortWindow()
    {
        return windowS > 0 && e2eP50Ms > 0 && windowS * 1e3 < MIN_WINDOW_E2E * e2eP50Ms;
    }

    /** How a point offers its load. */
    public enum Loop
    {
        /** Open loop: arrivals at a rate, requests/s. */
        RATE("rate", "req/s"),
        /** Closed loop: a fixed number of requests in flight. */
        CONCURRENCY("concurrency", "requests in flight");

        private final String key;
        private final String unit;

        Loop(final String key, final String unit)
        {
            this.key = key;
            this.unit = unit;
        }

        /** @return the name in sweep.json and in run directory names. */
        public String key()
        {
            return key;
        }

        /** @return the unit of {@link SweepPoint#offered()}. */
        public String unit()
        {
            return unit;
        }
    }

    /**
     * The queue during a point's window. The server's gauges are the mean over the scrapes of its {@code /metrics}
     * inside the window (NaN when it exports none); the client's in-flight count is the mean number of measured
     * requests in flight over the window by Little's law: the sum of their end-to-end latencies over the window.
     *
     * @param source   {@code server_metrics} when the server's gauges were read, else {@code client}.
     * @param running  the server's mean running requests (in the batch), or NaN.
     * @param waiting  the server's mean waiting requests (queued for a slot), or NaN.
     * @param inFlight the client's mean measured requests in flight.
     */
    public record Queue(String source, double running, double waiting, double inFlight)
    {
    }

    /** @return every measured request: ok, failed or cancelled. */
    public long samples()
    {
        return ok + errors + cancelled;
    }

    /** @return the fraction of measured requests that failed (not counting cancellations); 0 when there is none. */
    public double errorFraction()
    {
        return samples() > 0 ? (double)errors / samples() : 0;
    }

    /** @return the fraction of measured requests that met the SLO, errors and cancellations included; 0 if none. */
    public double goodFraction()
    {
        return samples() > 0 ? (double)good / samples() : 0;
    }

    /**
     * @param r       the point's finished run.
     * @param loop    how its load was offered.
     * @param offered the load offered, in the loop's unit.
     * @return the point's figures.
     */
    public static SweepPoint of(final RunResult r, final Loop loop, final double offered)
    {
        final double w = r.windowSeconds();
        final Distribution ttft = r.distributions().get(Metric.TTFT);
        final Distribution tpot = r.distributions().get(Metric.TPOT);
        final Distribution e2e = r.distributions().get(Metric.E2E);
        final long ok = r.counts().ok();
        final long good = r.goodput() == null ? ok : r.goodput().good();
        final Double nominalS = r.options().load().durationS();
        final double windowS = nominalS != null && nominalS > 0 ? nominalS : w;
        final long counted = WindowCount.okInWindow(r.target().outputDir().resolve("requests.jsonl"),
            r.window().startNs(), r.window().startNs() + Math.round(windowS * 1e9));
        // Without requests.jsonl (a run that wrote none) the record's own rate is all there is.
        final long inWindow = counted >= 0 ? counted : ok;
        final double achieved = counted >= 0 ? Formulas.rate(counted, windowS) : Formulas.rate(ok, w);
        final boolean streamed = r.options().target().api().streamed();
        return new SweepPoint(loop, offered, achieved, ttft.p50(), ttft.p99(), tpot.p50(), tpot.p99(), e2e.p99(),
            streamed ? perOk(achieved, r.counts().get(Counter.OUTPUT_TOKENS), ok) : Double.NaN,
            ok > 0 ? achieved * good / ok : 0, ok, r.counts().errors(), r.counts().cancelled(), good,
            queue(r, e2e, w), r.target().outputDir().toString(), streamed ? energyPerToken(r) : Double.NaN, e2e.p50(),
            streamed ? r.distributions().get(Metric.OUTPUT_TPS_PER_REQUEST).p50() : Double.NaN, windowS, inWindow,
            streamed, streamed ? Double.NaN : perOk(achieved, r.counts().get(Counter.INPUTS), ok),
            streamed ? Double.NaN : perOk(achieved, r.counts().get(Counter.INPUT_TOKENS), ok));
    }

    /** @return {@code achievedRps} times the mean {@code total} of an ok request; 0 when none ended ok. */
    private static double perOk(final double achievedRps, final long total, final long ok)
    {
        return ok > 0 ? achievedRps * total / ok : 0;
    }

    /** The record's {@code per_output_token_j}: joules in the boundary over the completed requests' output tokens. */
    private static double energyPerToken(final RunResult r)
    {
        final Double joules = r.energyJoules();
        final long tokens = r.counts().get(Counter.OUTPUT_TOKENS);
        return joules == null || tokens <= 0 ? Double.NaN : joules / tokens;
    }

    private static Queue queue(final RunResult r, final Distribution e2e, final double windowS)
    {
        // Little's law over the window: mean in flight = sum of the requests' times in the system / the window.
        final double inFlight = e2e.count() > 0 && windowS > 0 ? e2e.mean() * e2e.count() / 1e3 / windowS : 0;
        final ServerMetricsSummary s = r.serverMetrics();
        final ServerMetricsSummary.Gauge running = s == null ? null : s.gauges().get(EngineNames.Field.RUNNING);
        final ServerMetricsSummary.Gauge waiting = s == null ? null : s.gauges().get(EngineNames.Field.WAITING);
        if (running == null && waiting == null)
        {
            return new Queue("client", Double.NaN, Double.NaN, inFlight);
        }
        return new Queue("server_metrics", running == null ? Double.NaN : running.mean(),
            waiting == null ? Double.NaN : waiting.mean(), inFlight);
    }
}
