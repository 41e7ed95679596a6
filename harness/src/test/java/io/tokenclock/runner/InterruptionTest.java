package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A stop asked for by the clock ({@link Interruption#at}): the self-warm-up's cap on each rehearsal. */
final class InterruptionTest
{
    @Test
    void shouldAskForTheStopOnceItsDeadlineHasPassedAndNotBefore()
    {
        final long nowNs = System.nanoTime();
        final Interruption passed = Interruption.at(nowNs - 1);
        assertTrue(passed.requested());
        assertEquals(nowNs - 1, passed.signalledAtNs(), "asked for at the deadline");
        assertNull(passed.signalName(), "no signal came");
        assertFalse(Interruption.at(nowNs + 3_600_000_000_000L).requested(), "an hour from now");
    }

    @Test
    void shouldNeverAskForTheStopWithoutASignalOrADeadline()
    {
        assertFalse(Interruption.NONE.requested());
    }
}
