package io.tokenclock.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The integrals over exact, hand-set stamps; every expected value is worked out in the comments. */
final class IntegratorTest
{
    private static final long S = 1_000_000_000L;

    @Test
    void shouldTakeACounterDeltaAtStampsOnTheEdges()
    {
        // 100 J, 150 J, 400 J at 0, 1, 2 s; window [0, 2 s]: 300 J, no edge error, 2 x 0.001 J resolution.
        final Integral i = Integrator.counter(new long[] {0, S, 2 * S}, new double[] {100, 150, 400}, 0, 2 * S,
            0.001);
        assertEquals("counter", i.method());
        assertEquals(300.0, i.joules(), 1e-9);
        assertEquals(0.002, i.uncertaintyJoules(), 1e-12);
        assertEquals(3, i.samples());
        assertEquals(1000.0, i.meanIntervalMs(), 1e-9);
    }

    @Test
    void shouldInterpolateTheCounterInsideTheEdgeIntervalsAndBoundTheSplit()
    {
        // Window [0.25 s, 1.5 s]. Counter at 0.25 s: 100 + 0.25 x 50 = 112.5; at 1.5 s: 150 + 0.5 x 250 = 275.
        // Energy 162.5 J. Edge errors: max(0.25, 0.75) x 50 = 37.5 and max(0.5, 0.5) x 250 = 125; total 162.5.
        final Integral i = Integrator.counter(new long[] {0, S, 2 * S}, new double[] {100, 150, 400}, S / 4,
            3 * S / 2, 0);
        assertEquals(162.5, i.joules(), 1e-9);
        assertEquals(162.5, i.uncertaintyJoules(), 1e-9);
        assertEquals(1, i.samples(), "only the sample at 1 s lies inside the window");
    }

    @Test
    void shouldIntegratePowerByTrapezoidsWithHalfStepErrors()
    {
        // 100 W, 300 W, 300 W, 100 W at 0..3 s; window [0, 3 s]: 200 + 300 + 200 = 700 J.
        // Error: 0.5 x (200 x 1 + 0 + 200 x 1) = 200 J.
        final Integral i = Integrator.trapezoid(new long[] {0, S, 2 * S, 3 * S}, new double[] {100, 300, 300, 100},
            0, 3 * S);
        assertEquals("trapezoid", i.method());
        assertEquals(700.0, i.joules(), 1e-9);
        assertEquals(200.0, i.uncertaintyJoules(), 1e-9);
        assertEquals(4, i.samples());
        assertEquals(1000.0, i.maxIntervalMs(), 1e-9);
    }

    @Test
    void shouldInterpolatePowerAtPartialEdgeIntervals()
    {
        // Window [0.5 s, 2.5 s] over 100, 300, 300, 100 W at 0..3 s.
        // P(0.5) = 200, P(2.5) = 200. Pieces: 0.5 x (200 + 300) x 0.5 = 125; 300; 0.5 x (300 + 200) x 0.5 = 125.
        // Error: whole step x part kept at each edge: 200 x 0.5 + 0 + 200 x 0.5 = 200.
        final Integral i = Integrator.trapezoid(new long[] {0, S, 2 * S, 3 * S}, new double[] {100, 300, 300, 100},
            S / 2, 5 * S / 2);
        assertEquals(550.0, i.joules(), 1e-9);
        assertEquals(200.0, i.uncertaintyJoules(), 1e-9);
    }

    @Test
    void shouldRefuseAWindowTheReadingsDoNotCover()
    {
        final Integral late = Integrator.trapezoid(new long[] {S, 2 * S}, new double[] {100, 100}, 0, 2 * S);
        assertFalse(late.available());
        assertTrue(late.unavailable().startsWith("the power samples do not cover the window: readings from " +
            "+1.000 s to +2.000 s"), late.unavailable());
        assertTrue(Double.isNaN(late.joules()), "never a zero");
        final Integral one = Integrator.counter(new long[] {0}, new double[] {5}, 0, 0, 0);
        assertEquals("1 energy counter reading: two around the window are needed", one.unavailable());
    }
}
