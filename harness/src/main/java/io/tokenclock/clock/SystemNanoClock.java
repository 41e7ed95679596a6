package io.tokenclock.clock;

/**
 * {@link NanoClock} over {@link System#nanoTime()}: on Linux this reads CLOCK_MONOTONIC through the vDSO, so stamps
 * taken in two processes on one machine are on the same clock (the ground-truth fixture relies on that).
 */
public final class SystemNanoClock implements NanoClock
{
    /** The shared instance; stateless and thread-safe. */
    public static final SystemNanoClock INSTANCE = new SystemNanoClock();

    private SystemNanoClock()
    {
    }

    @Override
    public long nanoTime()
    {
        return System.nanoTime();
    }
}
