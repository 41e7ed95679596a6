package io.tokenclock.results.record;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The record's {@code measurement} section (N and E): where and how the client measured, the rules every figure
 * follows, then how the client itself behaved while it did. Keys: docs/RESULTS.md.
 *
 * @param stamping       how reads were stamped: an object since record_format 5 (mode, reads, fallbacks,
 *                       offsets; docs/RESULTS.md), a sentence before.
 * @param powerBoundary  what the energy figures cover, or null when no power source was read.
 * @param clientCpuByThread the client's CPU over the load by thread group (record_format 5 on; null in an older
 *                       record and in a peer's).
 * @param profile        the profiler's output, or null (then absent) when none ran.
 * @param serverMetrics  how the server's {@code /metrics} were scraped, or null.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record MeasurementSection(String boundary, String networkPath, String tls, JsonNode tcpConnectRtt,
    String clock, String transport, JsonNode stamping, String firstTokenRule, String tokenCounts, String formulas,
    String histograms, String powerBoundary, ClientThreads clientThreads, ClientJitter clientJitter,
    ClientGc clientGc, ClientCost clientCost, ClientCpuByThread clientCpuByThread, Readiness readiness,
    ClientJit clientJit, ClientSafepoints clientSafepoints, @JsonInclude(JsonInclude.Include.NON_NULL) Profile profile,
    JsonNode serverMetrics)
{
    /** What each of the client's threads does. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ClientThreads(String stamping, String collector, String requestStage, String requestStagePriority)
    {
    }

    /**
     * How late a sleeping thread woke, over the whole run, asking to wake every {@code intervalUs} (null in records
     * before the interval became a choice: 1,000 us then).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ClientJitter(String method, Long intervalUs, Dist lateness)
    {
    }

    /**
     * The client's garbage collections during the run.
     *
     * @param collectors       the JVM's collector beans.
     * @param collections      stop-the-world pauses: every Java thread, the stamping thread too, stood still.
     * @param totalMs          their summed length.
     * @param maxMs            the longest.
     * @param concurrentCycles cycles run beside the application (ZGC, Shenandoah, G1's concurrent mark): they stop
     *                         nothing by themselves, their pauses are among {@code collections}.
     * @param concurrentMs     their summed length.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ClientGc(List<String> collectors, long collections, long totalMs, long maxMs,
        long concurrentCycles, long concurrentMs)
    {
    }

    /** The client's CPU time over the load, in all and per chunk, and its peak heap. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ClientCost(String method, double cpuUserS, double cpuSystemS, double cpuUserUsPerChunk,
        double cpuSystemUsPerChunk, long peakHeapBytes)
    {
    }

    /**
     * The client's CPU over the load (the window of {@link ClientCost}) by what its threads do, from each thread's
     * exact scheduler time; {@code ended} is the process total minus the threads seen.
     *
     * @param method      how it was measured and how {@code ended} is computed.
     * @param unavailable why there are no groups (not Linux, no schedstat), else null.
     * @param processMs   the process total over the window ({@link ClientCost}'s user + system), ms.
     * @param totalMs     the sum over the groups, {@code ended} included: {@code process_ms}, or the threads' sum
     *                    where that is more (by less than a 10 ms tick).
     * @param groups      by group key, in a fixed order, every group present; null when unavailable.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ClientCpuByThread(String method, String unavailable, double processMs, double totalMs,
        Map<String, GroupCpu> groups)
    {
        /**
         * One group's CPU.
         *
         * @param cpuMs      ms on CPU over the window.
         * @param share      its part of {@code total_ms}, 0 to 1.
         * @param usPerChunk µs per chunk of all phases, as {@link ClientCost}'s per-chunk figures.
         * @param runs       the times its threads were switched in (schedstat's third field; 0 for {@code ended}).
         * @param usPerRun   {@code cpu_ms} over {@code runs}, µs; 0 without runs. Far above the work a run does, it is
         *                   the price of waking: a context switch and cold caches.
         * @param threads    how many of its threads ran in the window (0 for {@code ended}).
         */
        @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
        public record GroupCpu(double cpuMs, double share, double usPerChunk, long runs, double usPerRun, int threads)
        {
        }
    }

    /** What the client did before t0 to be ready, and how long the server took to be. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Readiness(long selfWarmupRequests, long selfWarmupChunks, double selfWarmupS,
        double selfWarmupJitMs, int preconnected, double preconnectS, double gcBeforeT0Ms, double compilerDrainMs,
        int compilerThreadsIdle, double waitReadyS, int serverProbes, Double serverReadyAfterS, String aotCache)
    {
    }

    /** JIT compilation during load, and in the window alone (null when the window never opened). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ClientJit(long compilationMsDuringLoad, Long compilationMsInWindow, String method)
    {
    }

    /** Safepoints during load, nulls when the JVM's counters could not be read. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ClientSafepoints(Long count, Double totalMs, Double syncMs, String method)
    {
    }

    /** The profiler's mode, event and files. */
    public record Profile(String mode, String event, List<String> files)
    {
    }
}
