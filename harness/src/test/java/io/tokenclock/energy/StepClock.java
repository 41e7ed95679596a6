package io.tokenclock.energy;

import java.util.concurrent.atomic.AtomicLong;

import io.tokenclock.clock.NanoClock;

/** A clock that moves on by a fixed step at every reading: stamps that do not depend on when a line arrives. */
final class StepClock implements NanoClock
{
    private final AtomicLong now;
    private final long stepNs;

    StepClock(final long firstNs, final long stepNs)
    {
        this.now = new AtomicLong(firstNs - stepNs);
        this.stepNs = stepNs;
    }

    @Override
    public long nanoTime()
    {
        return now.addAndGet(stepNs);
    }
}
