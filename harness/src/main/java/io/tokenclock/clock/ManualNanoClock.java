package io.tokenclock.clock;

/**
 * A {@link NanoClock} that reads whatever it was last set to: for tests that need exact, hand-computed stamps.
 * Not thread-safe beyond the visibility a {@code volatile} field gives.
 */
public final class ManualNanoClock implements NanoClock
{
    private volatile long nowNs;

    public ManualNanoClock(final long startNs)
    {
        this.nowNs = startNs;
    }

    public void set(final long nowNs)
    {
        this.nowNs = nowNs;
    }

    public void advance(final long deltaNs)
    {
        this.nowNs += deltaNs;
    }

    @Override
    public long nanoTime()
    {
        return nowNs;
    }
}
