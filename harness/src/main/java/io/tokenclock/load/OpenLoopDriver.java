package io.tokenclock.load;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;

/**
 * Open loop: request i's intended start is {@code t0 + offset i} ({@link OpenLoopSchedule}), fixed before the run by
 * the seed and independent of how the server or the client behaves. The driver builds the request body ahead of time,
 * sleeps until the intended start, takes a slot and submits. If the client cannot keep up (the in-flight cap is
 * reached, or the thread wakes late) the send happens late and {@code sent - scheduled} records by how much:
 * coordinated omission is shown, never hidden.
 * <p>
 * Not thread-safe beyond what {@link LoadGenerator} states.
 */
final class OpenLoopDriver extends LoadGenerator
{
    private final RequestFiller filler;
    private final OpenLoopSchedule schedule;

    OpenLoopDriver(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final RequestFiller filler,
        final RequestSink sink, final Waiter waiter)
    {
        super(plan, clock, pool, sink, waiter);
        this.filler = filler;
        this.schedule = new OpenLoopSchedule(plan);
    }

    /** @return the hash over the offsets of every request built (see {@link OpenLoopSchedule}). */
    @Override
    public String scheduleHash()
    {
        return schedule.hash();
    }

    @Override
    void drive() throws InterruptedException
    {
        final LoadPlan p = plan;
        final long first = coldStart() ? sendColdStart(filler.build(0)) : 0;
        final long t0 = startClock();
        for (long i = first; !stopRequested(); i++)
        {
            final long offsetNs = schedule.next(i);
            if (offsetNs < 0)
            {
                break;
            }
            final long intendedNs = t0 + offsetNs;
            final boolean warmup = i - first < p.warmupRequests() ||
                (p.warmupDurationNs() > 0 && intendedNs < t0 + p.warmupDurationNs());
            if (!warmup && pastEnd(intendedNs))
            {
                break;
            }
            // Build the request before waiting, so that building never delays the send.
            final BuiltRequest request = filler.build(i);
            final int stage = schedule.stage();
            final int phase = warmup ? RequestSlot.PHASE_WARMUP : stage < 0 ? RequestSlot.PHASE_RAMP :
                RequestSlot.PHASE_MEASURE;
            if (!stripe().owns(i))
            {
                // Another shard's request: built and hashed like the whole run's (another shard sends it), counted.
                schedule.digest(offsetNs);
                if (skip(phase, intendedNs))
                {
                    break;
                }
                continue;
            }
            if (!sleepUntil(intendedNs))
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
            // Only a request that is sent enters the schedule's hash, as only it enters the workload's.
            schedule.digest(offsetNs);
            slot.scheduledNs = intendedNs;
            if (submit(slot, request, i, phase, Math.max(0, stage)))
            {
                break;
            }
        }
    }

    @Override
    void onSubmit(final RequestSlot slot, final long i)
    {
        filler.onSubmit(slot, i);
    }
}
