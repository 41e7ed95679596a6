package io.tokenclock.runner;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.Metric;
import io.tokenclock.transport.Endpoint;

/**
 * Everything a finished run measured, with the options that produced it: the input of record.json and the summary.
 * Counts and distributions cover the measure phase only; warmup requests are in requests.jsonl.
 */
public record RunResult(
    RunOptions options,
    Endpoint endpoint,
    String model,
    ServerProbe.Info server,
    String runId,
    Path outputDir,
    Instant startedAt,
    double wallSeconds,
    Map<Metric, Distribution> distributions,
    long measuredOk,
    long measuredErrors,
    long measuredCancelled,
    long warmupRequests,
    long chunks,
    long outputTokens,
    long inputTokens,
    long wastedOutputTokens,
    long lateCompletions,
    long goodRequests,
    /** Measured streams that ended with neither finish_reason nor [DONE], accepted or not. */
    long truncatedRequests,
    /** Times measured requests were sent again after a 429 ({@code --retry-429}). */
    long retries429,
    Map<String, Long> errorsByClass,
    long windowStartNs,
    long windowEndNs,
    long ringFullWaits,
    long clampedValues,
    ClientHealth clientHealth,
    Provenance provenance,
    java.util.List<GroupResult> groups,
    ColdStart coldStart,
    io.tokenclock.workload.AgentWorkload.Report tasks,
    /** Why the record is partial (interrupted, or written while the run was in progress), or null when complete. */
    String partialReason)
{
    /** The cold-start request, measured alone before the run (null when none was asked for). */
    public record ColdStart(String status, String error, double ttftMs, double tpotMs, double e2eMs, long outputTokens)
    {
    }

    /** One group's (segment's) measured requests: counts, its own window, and every distribution. */
    public record GroupResult(String name, long ok, long errors, long cancelled, long outputTokens, long inputTokens,
        double windowSeconds, Map<Metric, Distribution> distributions, io.tokenclock.recording.Slo slo, long good)
    {
    }

    /**
     * What identifies and conditions the run beyond its options: a SHA-256 over every request body in request order
     * and, in open loop, over the intended start offsets; the tokenizer and its file hash; how many prompts missed
     * their exact token count; what the cache flush answered; TCP connect round trips to the server before the run.
     */
    public record Provenance(String hash, String scheduleHash, long requests, long residualRequests,
        String tokenizerSha256, String tokenizerId, String cacheAction, java.util.Map<String, Object> connectRtt,
        String transport)
    {
    }

    /**
     * The client machine's own behaviour during the run: scheduling hiccups (lateness of a 1 ms wake-up, ms), GC
     * activity, and the profiles written, if any.
     */
    public record ClientHealth(Distribution hiccupsMs, long hiccupIntervalNs, long gcCount, long gcTotalMs,
        long gcMaxMs, java.util.List<String> gcCollectors, String profileEvent, java.util.List<String> profileFiles,
        io.tokenclock.metrics.ProcessUsage.CpuTimes cpu, long peakHeapBytes, Readiness.Report readiness,
        long jitMsDuringLoad, io.tokenclock.metrics.SafepointCounters.Reading safepointsDuringLoad,
        String stagePriority)
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

    /** @return the measurement window in seconds: earliest measured intended start to latest measured end. */
    public double windowSeconds()
    {
        return Formulas.windowSeconds(windowStartNs, windowEndNs);
    }

    public long measuredTotal()
    {
        return measuredOk + measuredErrors + measuredCancelled;
    }
}
