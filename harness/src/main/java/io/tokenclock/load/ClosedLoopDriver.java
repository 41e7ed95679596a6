package io.tokenclock.load;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;

/**
 * Closed loop: {@code concurrency} requests are kept in flight (the pool's permits cap them). Each request takes the
 * permit of a finished one, and its intended start is the end stamp that permit came back with: finished requests'
 * end stamps queue up in the order their permits were released ({@link SlotPool#pollEndStamp()}), so a refill's
 * delay after the end it answers is measured too. The first requests, and those added when a stage raises the
 * concurrency, have no end stamp to answer and are due at the run's start or the stage change.
 * <p>
 * With concurrency stages the pool is sized for the highest stage, and the driver holds the permits a lower stage
 * does not use; they are given back when the stage rises or the driver ends.
 * <p>
 * Not thread-safe beyond what {@link LoadGenerator} states.
 */
final class ClosedLoopDriver extends LoadGenerator
{
    private final RequestFiller filler;
    private long startNs;
    private int heldPermits;
    private int concurrencyStage;
    private long stageChangeNs;

    ClosedLoopDriver(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final RequestFiller filler,
        final RequestSink sink, final Waiter waiter)
    {
        super(plan, clock, pool, sink, waiter);
        this.filler = filler;
    }

    @Override
    void drive() throws InterruptedException
    {
        try
        {
            refill();
        }
        finally
        {
            while (heldPermits > 0)
            {
                pool.releaseHeldPermit();
                heldPermits--;
            }
        }
    }

    @Override
    void onSubmit(final RequestSlot slot, final long i)
    {
        filler.onSubmit(slot, i);
    }

    private void refill() throws InterruptedException
    {
        final LoadPlan p = plan;
        final ConcurrencySchedule stages = p.concurrencyStages();
        final long first = coldStart() ? sendColdStart(filler.build(0)) : 0;
        final long t0 = startClock();
        startNs = t0;
        for (long i = first; !stopRequested(); i++)
        {
            final boolean warmup = i - first < p.warmupRequests() ||
                (p.warmupDurationNs() > 0 && clock.nanoTime() < t0 + p.warmupDurationNs());
            // Build the request before waiting for a free slot, so that building never delays the refill.
            final BuiltRequest request = filler.build(i);
            if (!stripe().owns(i))
            {
                // Another shard's request: built and hashed like the whole run's, counted, not sent.
                if ((!warmup && pastEnd(clock.nanoTime())) || skip(warmup ? RequestSlot.PHASE_WARMUP :
                    RequestSlot.PHASE_MEASURE, t0))
                {
                    break;
                }
                continue;
            }
            if (stages != null && !adjustConcurrency(stages))
            {
                filler.onDropped(i);
                break;
            }
            final RequestSlot slot = acquire();
            if (slot == null)
            {
                filler.onDropped(i);
                break;
            }
            if (!warmup && pastEnd(clock.nanoTime()))
            {
                pool.cancel(slot);
                filler.onDropped(i);
                break;
            }
            final long previousEndNs = pool.pollEndStamp();
            slot.scheduledNs = previousEndNs > 0 ? previousEndNs : Math.max(t0, stageChangeNs);
            final int stage = stages != null ? concurrencyStage - stages.rampStages() : 0;
            final int phase = warmup ? RequestSlot.PHASE_WARMUP : stage < 0 ? RequestSlot.PHASE_RAMP :
                RequestSlot.PHASE_MEASURE;
            if (submit(slot, request, i, phase, Math.max(0, stage)))
            {
                break;
            }
        }
    }

    /**
     * Holds or gives back permits so that the cap on requests in flight is the current stage's concurrency. The stage
     * clock starts with the run when there is a ramp, else with the first measured request.
     *
     * @return false if the run is over (stopped, or past the last stage) while waiting.
     */
    private boolean adjustConcurrency(final ConcurrencySchedule stages) throws InterruptedException
    {
        final long now = clock.nanoTime();
        final long m = stages.rampStages() > 0 ? startNs : measureStartNs();
        final int stage = m == 0 ? 0 : stages.stageAt((now - m) / 1e9);
        final int target = stages.maxConcurrency() - stages.concurrency()[stage];
        if (stage != concurrencyStage)
        {
            stageChangeNs = now;
            concurrencyStage = stage;
        }
        while (heldPermits > target)
        {
            pool.releaseHeldPermit();
            heldPermits--;
        }
        while (heldPermits < target)
        {
            if (stopRequested() || pastEnd(clock.nanoTime()))
            {
                return false;
            }
            if (pool.holdPermit(ACQUIRE_POLL_NS))
            {
                heldPermits++;
            }
        }
        return true;
    }
}
