package io.tokenclock.load;

import io.tokenclock.clock.ManualNanoClock;

/**
 * A {@link Waiter} that never waits: a park advances a hand-set clock by the time asked for, a spin by 1 ns, so a
 * driver's loop runs on the test thread and lands exactly on every deadline. Single-threaded.
 */
final class ClockWaiter implements Waiter
{
    private final ManualNanoClock clock;
    private int wakes;

    ClockWaiter(final ManualNanoClock clock)
    {
        this.clock = clock;
    }

    @Override
    public void park(final long ns)
    {
        if (ns <= 0)
        {
            // A real park would return at once and the driver would busy-loop on a clock that never moves.
            throw new AssertionError("a driver parked for " + ns + " ns");
        }
        clock.advance(ns);
    }

    @Override
    public void spin()
    {
        clock.advance(1);
    }

    @Override
    public void wake(final Thread thread)
    {
        wakes++;
    }

    int wakes()
    {
        return wakes;
    }
}
