package io.tokenclock.recording;

/**
 * Judges every measured request against the run's objective, on the {@link RequestStage}'s thread, after its metrics
 * are derived: the seam through which the policy of package {@code goodput} (SLOs, and the verdicts a quality rule
 * settles later) sees requests without the hot path knowing any of it. Must not allocate: it runs once per measured
 * request on the stage.
 */
@FunctionalInterface
public interface RequestVerdicts
{
    /**
     * Takes one measured request.
     *
     * @return 0 when the request met the objective so far (counted as {@link Collector#MEASURED_GOOD}), else a
     * non-zero mask of what it missed.
     */
    int onMeasured(RequestSlot slot, RequestMetrics metrics);
}
