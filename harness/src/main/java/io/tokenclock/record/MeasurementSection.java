package io.tokenclock.record;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The record's {@code measurement} section (N and E): where and how the client measured, the rules every figure
 * follows, then how the client itself behaved while it did. Keys: docs/RESULTS.md.
 *
 * @param powerBoundary  what the energy figures cover, or null when no power source was read.
 * @param profile        the profiler's output, or null (then absent) when none ran.
 * @param serverMetrics  how the server's {@code /metrics} were scraped, or null.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record MeasurementSection(String boundary, String networkPath, String tls, JsonNode tcpConnectRtt,
    String clock, String transport, String stamping, String firstTokenRule, String tokenCounts, String formulas,
    String histograms, String powerBoundary, ClientThreads clientThreads, ClientJitter clientJitter,
    ClientGc clientGc, ClientCost clientCost, Readiness readiness, ClientJit clientJit,
    ClientSafepoints clientSafepoints, @JsonInclude(JsonInclude.Include.NON_NULL) Profile profile,
    JsonNode serverMetrics)
{
    /** What each of the client's threads does. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ClientThreads(String stamping, String collector, String requestStage, String requestStagePriority)
    {
    }

    /** How late a sleeping thread woke, over the whole run. */
    public record ClientJitter(String method, Dist lateness)
    {
    }

    /** The client's garbage collections during the run. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ClientGc(List<String> collectors, long collections, long totalMs, long maxMs)
    {
    }

    /** The client's CPU time over the load, in all and per chunk, and its peak heap. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ClientCost(String method, double cpuUserS, double cpuSystemS, double cpuUserUsPerChunk,
        double cpuSystemUsPerChunk, long peakHeapBytes)
    {
    }

    /** What the client did before t0 to be ready, and how long the server took to be. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Readiness(long selfWarmupRequests, long selfWarmupChunks, double selfWarmupS,
        double selfWarmupJitMs, int preconnected, double preconnectS, double gcBeforeT0Ms, int compilerThreadsIdle,
        double waitReadyS, int serverProbes, Double serverReadyAfterS)
    {
    }

    /** JIT compilation during load. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ClientJit(long compilationMsDuringLoad, String method)
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
