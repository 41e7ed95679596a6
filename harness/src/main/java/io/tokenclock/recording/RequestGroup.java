package io.tokenclock.recording;

import io.tokenclock.metrics.MetricRecorders;

/**
 * One named group of measured requests (a traffic segment, a load stage), indexed by {@link RequestSlot#group}: the
 * request stage records each of the group's ok requests into {@link #recorders()} as it does into the run's, and tells
 * it of every measured request, so that every metric is reported per group as well as overall. What a group counts
 * and which SLO it holds is policy, and lives in package {@code goodput}; this is only what the stage needs.
 */
public interface RequestGroup
{
    /** @return the group's recorders, written by the request stage's thread and sampled like the run's. */
    MetricRecorders recorders();

    /** Takes one measured request of this group; on the request stage's thread, once per request. */
    void onMeasured(RequestSlot slot, RequestMetrics metrics);
}
