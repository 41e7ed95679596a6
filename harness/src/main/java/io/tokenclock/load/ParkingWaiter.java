package io.tokenclock.load;

import java.util.concurrent.locks.LockSupport;

/**
 * The production {@link Waiter}: {@link LockSupport#parkNanos(long)} and {@link Thread#onSpinWait()}. Stateless and
 * thread-safe.
 */
public final class ParkingWaiter implements Waiter
{
    /** The shared instance. */
    public static final ParkingWaiter INSTANCE = new ParkingWaiter();

    private ParkingWaiter()
    {
    }

    @Override
    public void park(final long ns)
    {
        LockSupport.parkNanos(ns);
    }

    @Override
    public void spin()
    {
        Thread.onSpinWait();
    }

    @Override
    public void wake(final Thread thread)
    {
        LockSupport.unpark(thread);
    }
}
