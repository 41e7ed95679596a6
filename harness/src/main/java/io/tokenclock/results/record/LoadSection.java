package io.tokenclock.results.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The record's {@code load} section (A, with the warm-up of S and the failure handling): the load model, its size,
 * the warm-up, the cache policy, every timeout and the end-of-window rule, and a trace's speed-up (only for a run that
 * replays a trace). Keys: docs/RESULTS.md.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record LoadSection(String mode, String scenario, String minSamplesFor, Integer concurrency, Double ratePerS,
    String arrival, Double burstiness, Integer maxInFlight, Long requests, Double durationS, long warmupRequests,
    double warmupDurationS, String rateSchedule, long seed, String scheduleHash, String cachePolicy,
    String cacheAction, double requestTimeoutS, double connectTimeoutS, double firstByteTimeoutS,
    double idleTimeoutS, double drainTimeoutS, String endOfWindowRule,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double traceSpeedup)
{
    /** A section of a load that replays no trace (peers' results read in). */
    public LoadSection(final String mode, final String scenario, final String minSamplesFor, final Integer concurrency,
        final Double ratePerS, final String arrival, final Double burstiness, final Integer maxInFlight,
        final Long requests, final Double durationS, final long warmupRequests, final double warmupDurationS,
        final String rateSchedule, final long seed, final String scheduleHash, final String cachePolicy,
        final String cacheAction, final double requestTimeoutS, final double connectTimeoutS,
        final double firstByteTimeoutS, final double idleTimeoutS, final double drainTimeoutS,
        final String endOfWindowRule)
    {
        this(mode, scenario, minSamplesFor, concurrency, ratePerS, arrival, burstiness, maxInFlight, requests,
            durationS, warmupRequests, warmupDurationS, rateSchedule, seed, scheduleHash, cachePolicy, cacheAction,
            requestTimeoutS, connectTimeoutS, firstByteTimeoutS, idleTimeoutS, drainTimeoutS, endOfWindowRule, null);
    }
}
