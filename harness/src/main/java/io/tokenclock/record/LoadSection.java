package io.tokenclock.record;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The record's {@code load} section (A, with the warm-up of S and the failure handling): the load model, its size,
 * the warm-up, the cache policy, every timeout and the end-of-window rule. Keys: docs/RESULTS.md.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record LoadSection(String mode, String scenario, String minSamplesFor, Integer concurrency, Double ratePerS,
    String arrival, Double burstiness, Integer maxInFlight, Long requests, Double durationS, long warmupRequests,
    double warmupDurationS, String rateSchedule, long seed, String scheduleHash, String cachePolicy,
    String cacheAction, double requestTimeoutS, double connectTimeoutS, double firstByteTimeoutS,
    double idleTimeoutS, double drainTimeoutS, String endOfWindowRule)
{
}
