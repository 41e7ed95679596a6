package io.tokenclock.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The clocks the core is driven by: the system's never goes backwards; the manual one reads what it was given. */
final class NanoClockTest
{
    @Test
    void shouldReadWhatTheManualClockWasSetToAndAdvancedBy()
    {
        final ManualNanoClock clock = new ManualNanoClock(1_000);
        assertEquals(1_000, clock.nanoTime());
        assertEquals(1_000, clock.nanoTime(), "reading does not move it");
        clock.advance(250);
        assertEquals(1_250, clock.nanoTime());
        clock.set(7);
        assertEquals(7, clock.nanoTime());
    }

    @Test
    void shouldNeverGoBackwardsWhenTheSystemClockIsReadRepeatedly()
    {
        final NanoClock clock = SystemNanoClock.INSTANCE;
        long previous = clock.nanoTime();
        for (int i = 0; i < 100_000; i++)
        {
            final long now = clock.nanoTime();
            assertTrue(now >= previous, "monotonic: " + now + " after " + previous);
            previous = now;
        }
    }

    @Test
    void shouldShareOneSystemClockWhoseReadingsAreSystemNanoTime()
    {
        assertSame(SystemNanoClock.INSTANCE, SystemNanoClock.INSTANCE);
        final long before = System.nanoTime();
        final long stamp = SystemNanoClock.INSTANCE.nanoTime();
        final long after = System.nanoTime();
        assertTrue(before <= stamp && stamp <= after, "the same clock as System.nanoTime(), so stamps subtract");
    }
}
