package io.tokenclock.clock;

import java.time.Instant;

/**
 * The offset between the wall clock and the monotonic clock ({@code System.nanoTime}), so that stamps taken on one
 * host's monotonic clock can be put on the wall-clock axis that several hosts share: {@code wallNs = monoNs +
 * offset}. The offset is read as the sample whose two monotonic reads bracket the wall-clock read most tightly, so
 * a preemption between the reads does not skew it. Stateless; thread-safe.
 */
public final class WallClock
{
    private static final int SAMPLES = 9;

    private WallClock()
    {
    }

    /** @return wall-clock ns since the epoch minus {@code System.nanoTime()}, read now. */
    public static long wallMinusMonotonicNs()
    {
        long bestBracket = Long.MAX_VALUE;
        long best = 0;
        for (int k = 0; k < SAMPLES; k++)
        {
            final long before = System.nanoTime();
            final Instant wall = Instant.now();
            final long after = System.nanoTime();
            if (after - before < bestBracket)
            {
                bestBracket = after - before;
                best = epochNs(wall) - (before + (after - before) / 2);
            }
        }
        return best;
    }

    /** @return {@code instant} in ns since the epoch. */
    public static long epochNs(final Instant instant)
    {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
