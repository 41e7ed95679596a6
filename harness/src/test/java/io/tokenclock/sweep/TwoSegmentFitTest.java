package io.tokenclock.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

final class TwoSegmentFitTest
{
    @Test
    void shouldPutTheBreakpointExactlyOnAPerfectHinge()
    {
        // y = x up to 2, then flat: the hinge at t = 2 fits with no error (a = 0, b = 1, c = -1).
        final TwoSegmentFit f = TwoSegmentFit.fit(new double[] {0, 1, 2, 3}, new double[] {0, 1, 2, 2});
        assertEquals(2, f.breakpoint(), 1e-12);
        assertEquals(0, f.intercept(), 1e-9);
        assertEquals(1, f.slopeBelow(), 1e-9);
        assertEquals(0, f.slopeAbove(), 1e-9);
        assertEquals(2, f.throughputAtBreakpoint(), 1e-9);
        assertEquals(0, f.sse(), 1e-12);
        assertTrue(f.saturated());
    }

    @Test
    void shouldFindAKnownBreakpointBetweenTheSweptLoads()
    {
        // A server of capacity 33.3 req/s swept at 10 .. 60: achieved = min(offered, 33.3).
        final double[] x = {10, 20, 30, 40, 50, 60};
        final double[] y = {10, 20, 30, 33.3, 33.3, 33.3};
        final TwoSegmentFit f = TwoSegmentFit.fit(x, y);
        assertEquals(33.3, f.breakpoint(), 10.0 / TwoSegmentFit.STEPS_PER_GAP);
        assertEquals(1, f.slopeBelow(), 1e-6);
        assertEquals(0, f.slopeAbove(), 1e-6);
        assertEquals(6, f.points());
    }

    @Test
    void shouldFindTheBreakpointThroughNoise()
    {
        // The same server with +-0.5 req/s of noise, signs fixed by hand: least squares over a grid of 0.001 req/s
        // (numpy, outside this code) puts the breakpoint at 33.01.
        final double[] x = {10, 20, 30, 40, 50, 60};
        final double[] y = {10.5, 19.5, 30.4, 32.8, 33.8, 32.9};
        final TwoSegmentFit f = TwoSegmentFit.fit(x, y);
        assertEquals(33.01, f.breakpoint(), 0.02, f.toString());
        assertTrue(f.saturated(), f.toString());
    }

    @Test
    void shouldMinimiseTheSquaredErrorOverEveryCandidate()
    {
        final double[] x = {1, 2, 4, 7, 8, 11};
        final double[] y = {1, 2.2, 3.9, 5.1, 5.0, 5.4};
        final TwoSegmentFit best = TwoSegmentFit.fit(x, y);
        for (double t = x[1]; t <= x[x.length - 2]; t += 0.01)
        {
            assertTrue(best.sse() <= TwoSegmentFit.at(x, y, t).sse() + 1e-12, "t = " + t);
        }
    }

    @Test
    void shouldSayAStraightLineIsNotSaturated()
    {
        final TwoSegmentFit f = TwoSegmentFit.fit(new double[] {1, 2, 3, 4, 5}, new double[] {2, 4, 6, 8, 10});
        assertEquals(2, f.slopeBelow(), 1e-9);
        assertEquals(2, f.slopeAbove(), 1e-9);
        assertFalse(f.saturated());
    }

    @Test
    void shouldNeedFourPoints()
    {
        assertNull(TwoSegmentFit.fit(new double[] {1, 2, 3}, new double[] {1, 2, 2}));
        assertThrows(IllegalArgumentException.class, () -> TwoSegmentFit.fit(new double[] {1, 2, 3, 4},
            new double[] {1, 2, 3}));
    }
}
