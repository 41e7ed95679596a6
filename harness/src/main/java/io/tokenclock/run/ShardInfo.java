package io.tokenclock.run;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A shard's part of a run and how it started, for the record's {@code shard} section (docs/RESULTS.md).
 *
 * @param index                this shard, 0-based.
 * @param count                how many shards make the run.
 * @param startAt              the common start on the wall clock, or null when the shard started when ready.
 * @param startToleranceS      how late a start was allowed, s.
 * @param wallMinusMonotonicNs wall-clock ns since the epoch minus the run's monotonic clock: a stamp's wall time is
 *                             {@code stamp + this}; what the merge puts every shard's stamps on one axis with.
 * @param startLatenessNs      how late the load generator woke for the common start, ns; -1 without one.
 * @param clockSync            what the host said of its clock synchronisation (chronyc, timedatectl, adjtimex).
 * @param refused              why the shard refused to run (a start later than the tolerance), or null.
 */
public record ShardInfo(int index, int count, Instant startAt, double startToleranceS, long wallMinusMonotonicNs,
    long startLatenessNs, Map<String, String> clockSync, String refused)
{
    public ShardInfo
    {
        clockSync = Collections.unmodifiableMap(new LinkedHashMap<>(clockSync));
    }
}
