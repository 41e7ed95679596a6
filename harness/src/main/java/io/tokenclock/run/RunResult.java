package io.tokenclock.run;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tokenclock.config.RunOptions;
import io.tokenclock.energy.EnergyMeasurement;
import io.tokenclock.goodput.GoodputCounts;
import io.tokenclock.goodput.Slo;
import io.tokenclock.health.ProcessUsage;
import io.tokenclock.health.SafepointCounters;
import io.tokenclock.health.StampingSaturation;
import io.tokenclock.health.ThreadCpu;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.Metric;
import io.tokenclock.quality.QualityReport;
import io.tokenclock.telemetry.ServerMetricsSummary;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.transport.StampingReport;
import io.tokenclock.workload.AgentWorkload;
import io.tokenclock.workload.SessionReport;

/**
 * Everything a finished run measured, with the options that produced it: the input of record.json and the summary.
 * Counts and distributions cover the measure phase only; warmup requests are in requests.jsonl. Built from named
 * parts, each a record of its own.
 *
 * @param options       the validated options of the run.
 * @param target        what was measured, and where the results went.
 * @param counts        the measured requests, chunks, tokens and errors.
 * @param window        the measurement window.
 * @param distributions every metric over the measured requests.
 * @param clientHealth  the client machine's own behaviour during the window.
 * @param provenance    what identifies the requests and schedule.
 * @param groups        per segment and stage.
 * @param coldStart     the cold-start request, or null.
 * @param tasks         agent task outcomes, or null.
 * @param partialReason why the record is partial (interrupted, or written while the run was in progress), or null.
 * @param serverMetrics what the server's own /metrics said of the window, or null when it was not scraped.
 * @param goodput       the run's goodput per constraint, or null when it has neither an SLO nor a quality rule that
 *                      judges outputs.
 * @param quality       the run's quality over its measured outputs, or null when no rule judges them.
 * @param energy        the energy measured over the window, or null when no power source was configured.
 * @param shard         the shard's part and start, or null when the run is not sharded.
 * @param host          the client machine as read before the window ({@link ClientHost#NONE} when not read).
 * @param sessions      a session trace's sessions, or null for any other workload.
 */
public record RunResult(
    RunOptions options,
    Target target,
    Counts counts,
    Window window,
    Map<Metric, Distribution> distributions,
    ClientHealth clientHealth,
    Provenance provenance,
    List<GroupResult> groups,
    ColdStart coldStart,
    AgentWorkload.Report tasks,
    String partialReason,
    ServerMetricsSummary serverMetrics,
    GoodputCounts goodput,
    QualityReport quality,
    EnergyMeasurement energy,
    ShardInfo shard,
    ClientHost host,
    SessionReport sessions)
{
    /** A result of a workload without a trace's sessions. */
    public RunResult(
        final RunOptions options, final Target target, final Counts counts, final Window window,
        final Map<Metric, Distribution> distributions, final ClientHealth clientHealth, final Provenance provenance,
        final List<GroupResult> groups, final ColdStart coldStart, final AgentWorkload.Report tasks,
        final String partialReason, final ServerMetricsSummary serverMetrics, final GoodputCounts goodput,
        final QualityReport quality, final EnergyMeasurement energy, final ShardInfo shard, final ClientHost host)
    {
        this(options, target, counts, window, distributions, clientHealth, provenance, groups, coldStart, tasks,
            partialReason, serverMetrics, goodput, quality, energy, shard, host, null);
    }

    /** A result without the client machine (tests, tools that rebuild a result): see {@link ClientHost#NONE}. */
    public RunResult(
        final RunOptions options, final Target target, final Counts counts, final Window window,
        final Map<Metric, Distribution> distributions, final ClientHealth clientHealth, final Provenance provenance,
        final List<GroupResult> groups, final ColdStart coldStart, final AgentWorkload.Report tasks,
        final String partialReason, final ServerMetricsSummary serverMetrics, final GoodputCounts goodput,
        final QualityReport quality, final EnergyMeasurement energy, final ShardInfo shard)
    {
        this(options, target, counts, window, distributions, clientHealth, provenance, groups, coldStart, tasks,
            partialReason, serverMetrics, goodput, quality, energy, shard, ClientHost.NONE);
    }

    /** A result of an unsharded run. */
    public RunResult(
        final RunOptions options, final Target target, final Counts counts, final Window window,
        final Map<Metric, Distribution> distributions, final ClientHealth clientHealth, final Provenance provenance,
        final List<GroupResult> groups, final ColdStart coldStart, final AgentWorkload.Report tasks,
        final String partialReason, final ServerMetricsSummary serverMetrics, final GoodputCounts goodput,
        final QualityReport quality, final EnergyMeasurement energy)
    {
        this(options, target, counts, window, distributions, clientHealth, provenance, groups, coldStart, tasks,
            partialReason, serverMetrics, goodput, quality, energy, null);
    }

    /**
     * What was measured and where the results went.
     *
     * @param endpoint  the API endpoint.
     * @param model     the model asked for.
     * @param server    what the probe saw of the server.
     * @param runId     the run's id.
     * @param outputDir the run directory.
     * @param startedAt when the run started (wall clock, for the record only).
     */
    public record Target(Endpoint endpoint, String model, ServerInfo server, String runId, Path outputDir,
        Instant startedAt)
    {
    }

    /**
     * The measured requests and what they carried: one value per {@link Counter} (a counter not given is 0), and the
     * errors by class.
     *
     * @param values        each counter's value.
     * @param errorsByClass error class label to count, classes with none left out.
     */
    public record Counts(Map<Counter, Long> values, Map<String, Long> errorsByClass)
    {
        public Counts
        {
            final EnumMap<Counter, Long> all = new EnumMap<>(Counter.class);
            for (final Counter c : Counter.values())
            {
                all.put(c, values.getOrDefault(c, 0L));
            }
            values = Collections.unmodifiableMap(all);
            errorsByClass = Collections.unmodifiableMap(new LinkedHashMap<>(errorsByClass));
        }

        /** @return the value of counter {@code c}. */
        public long get(final Counter c)
        {
            return values.get(c);
        }

        /** @return measured requests that ended well. */
        public long ok()
        {
            return get(Counter.OK);
        }

        /** @return measured requests that failed. */
        public long errors()
        {
            return get(Counter.ERRORS);
        }

        /** @return measured requests cancelled. */
        public long cancelled()
        {
            return get(Counter.CANCELLED);
        }

        /** @return every measured request: ok, failed or cancelled. */
        public long total()
        {
            return ok() + errors() + cancelled();
        }
    }

    /**
     * The measurement window on the run's clock.
     *
     * @param startNs     earliest measured intended start.
     * @param endNs       latest measured end.
     * @param wallSeconds the whole run's duration, warm-up and drain included, s.
     */
    public record Window(long startNs, long endNs, double wallSeconds)
    {
        /** @return the window in seconds, 0 when empty. */
        public double seconds()
        {
            return Formulas.windowSeconds(startNs, endNs);
        }
    }

    /** The cold-start request, measured alone before the run (null when none was asked for). */
    public record ColdStart(String status, String error, double ttftMs, double tpotMs, double e2eMs, long outputTokens)
    {
    }

    /**
     * One group's (segment's) measured requests: counts, its own window, every distribution, and its goodput against
     * its own SLO (its segment's, else the run's) and the run's quality rule, or null when the run reports none.
     */
    public record GroupResult(String name, long ok, long errors, long cancelled, long outputTokens, long inputTokens,
        double windowSeconds, Map<Metric, Distribution> distributions, Slo slo, GoodputCounts goodput)
    {
        /** @return the group's good requests, 0 without goodput. */
        public long good()
        {
            return goodput == null ? 0 : goodput.good();
        }
    }

    /**
     * What identifies and conditions the run beyond its options: a SHA-256 over every request body in request order
     * and, in open loop, over the intended start offsets; the tokenizer and its file hash; how many prompts missed
     * their exact token count; what the cache flush answered; TCP connect round trips to the server before the run;
     * the transport, and how its reads were stamped (kernel or user, fallbacks, the client's receive delay); the
     * synthetic images the hashed bodies carried and their encoded bytes.
     */
    public record Provenance(String hash, String scheduleHash, long requests, long residualRequests,
        String tokenizerSha256, String tokenizerId, String cacheAction, Map<String, Object> connectRtt,
        String transport, StampingReport stamping, long imagesSent, long imageBytesSent)
    {
        /** Provenance of a run without synthetic images. */
        public Provenance(final String hash, final String scheduleHash, final long requests,
            final long residualRequests, final String tokenizerSha256, final String tokenizerId,
            final String cacheAction, final Map<String, Object> connectRtt, final String transport,
            final StampingReport stamping)
        {
            this(hash, scheduleHash, requests, residualRequests, tokenizerSha256, tokenizerId, cacheAction,
                connectRtt, transport, stamping, 0, 0);
        }
    }

    /**
     * The client machine's own behaviour during the run: scheduling hiccups (lateness of a 1 ms wake-up, ms), GC
     * activity, and the profiles written, if any; its CPU over the load, in all and by thread group; whether a
     * stamping thread saturated its core in any second of the window.
     */
    public record ClientHealth(Distribution hiccupsMs, long hiccupIntervalNs, long gcCount, long gcTotalMs,
        long gcMaxMs, long gcConcurrentCycles, long gcConcurrentMs, List<String> gcCollectors, String profileEvent,
        List<String> profileFiles,
        ProcessUsage.CpuTimes cpu, ThreadCpu.ByGroup cpuByThread, long peakHeapBytes, ReadinessReport readiness,
        long jitMsDuringLoad, long jitMsInWindow, SafepointCounters.Reading safepointsDuringLoad,
        String stagePriority, StampingSaturation.Result stampingSaturation)
    {
        public long cpuUserNs()
        {
            return cpu.userNs();
        }

        public long cpuSystemNs()
        {
            return cpu.systemNs();
        }
    }

    /** @return whether this record describes less than the whole run. */
    public boolean partial()
    {
        return partialReason != null;
    }

    /** @return the energy inside the power boundary over the window, J, or null when none was measured. */
    public Double energyJoules()
    {
        return energy == null ? null : energy.joules();
    }

    /** @return the measurement window in seconds: earliest measured intended start to latest measured end. */
    public double windowSeconds()
    {
        return window.seconds();
    }
}
