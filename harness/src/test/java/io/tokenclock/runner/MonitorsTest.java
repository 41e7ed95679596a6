package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Which interval the hiccup monitor wakes at: the one given, else the one the stamping calls for. */
final class MonitorsTest
{
    @Test
    void shouldWakeEveryMillisecondWhenUserSpaceStampsTheReads()
    {
        assertEquals(1_000_000L, Monitors.hiccupIntervalNs(null, false));
    }

    @Test
    void shouldWakeEveryTenMillisecondsWhenTheKernelStampsTheReads()
    {
        assertEquals(10_000_000L, Monitors.hiccupIntervalNs(null, true));
    }

    @Test
    void shouldWakeAtTheGivenIntervalWhicheverStampsTheReads()
    {
        assertEquals(250_000L, Monitors.hiccupIntervalNs(250L, true));
        assertEquals(250_000L, Monitors.hiccupIntervalNs(250L, false));
    }
}
