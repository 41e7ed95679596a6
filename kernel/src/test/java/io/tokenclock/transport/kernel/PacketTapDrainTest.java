package io.tokenclock.transport.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The tap thread's wait between drains on a shared core ({@link PacketTap#nextDrainNs}): pure arithmetic. */
final class PacketTapDrainTest
{
    private static final int QUIET = PacketTap.QUIET_FRAMES;

    @Test
    void shouldDoubleTheWaitWhileDrainsFindLittleUpToItsBound()
    {
        long waitNs = PacketTap.DRAIN_EVERY_NS;
        final long[] expected = {20_000_000, 40_000_000, 80_000_000, 100_000_000, 100_000_000};
        for (final long e : expected)
        {
            waitNs = PacketTap.nextDrainNs(waitNs, 2, QUIET);
            assertEquals(e, waitNs);
        }
    }

    @Test
    void shouldDrainAgainAtTheShortWaitAsSoonAsADrainFindsTheRingFilling()
    {
        assertEquals(PacketTap.DRAIN_EVERY_NS, PacketTap.nextDrainNs(PacketTap.QUIET_DRAIN_EVERY_NS, QUIET, QUIET));
        assertEquals(2 * PacketTap.DRAIN_EVERY_NS, PacketTap.nextDrainNs(PacketTap.DRAIN_EVERY_NS, QUIET - 1, QUIET));
    }

    @Test
    void shouldNeverWaitLongerThanTheRingHoldsAtHalfAMillionPacketsASecond()
    {
        final double framesInLongestWait = 500_000 * (PacketTap.QUIET_DRAIN_EVERY_NS / 1e9);
        assertTrue(framesInLongestWait < PacketTap.RING_FRAMES, framesInLongestWait + " frames");
    }
}
