package io.tokenclock.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The time change turns unit-rate arrivals into the declared ramp and stages, with hand-checkable masses. */
final class RateScheduleTest
{
    @Test
    void shouldInvertALinearRampExactly()
    {
        final RateSchedule s = new RateSchedule(new RateSchedule.Ramp(1, 9, 4, false),
            List.of(new RateSchedule.Stage(9, 10)));
        // L(t) = t + t^2 for t in [0, 4]: L(4) = 20 arrivals expected in the ramp.
        assertEquals(2.0, s.timeAt(6.0), 1e-12, "L(2) = 2 + 4 = 6");
        assertEquals(4.0, s.timeAt(20.0), 1e-12);
        assertEquals(-1, s.stageAt(3.99));
        assertEquals(0, s.stageAt(4.0));
        assertEquals(4.0 + 1.0, s.timeAt(29.0), 1e-12, "then 9 req/s: 9 more arrivals per second");
        assertEquals(110.0, s.expectedArrivals(), 1e-9);
        assertEquals(Double.POSITIVE_INFINITY, s.timeAt(111.0));
    }

    @Test
    void shouldInvertAnExponentialRamp()
    {
        final RateSchedule.Ramp ramp = new RateSchedule.Ramp(1, 16, 4, true);
        final RateSchedule s = new RateSchedule(ramp, List.of(new RateSchedule.Stage(16, 1)));
        for (final double t : new double[] {0.5, 1.7, 3.9})
        {
            assertEquals(t, s.timeAt(ramp.integral(t)), 1e-9);
        }
        assertEquals(15 / Math.log(2), ramp.integral(4), 1e-9, "integral of 2^t over [0, 4] = 15 / ln 2");
    }

    @Test
    void shouldPlaceStagesBackToBack()
    {
        final RateSchedule s = new RateSchedule(null, List.of(new RateSchedule.Stage(2, 5),
            new RateSchedule.Stage(10, 3)));
        assertEquals(5.0, s.timeAt(10), 1e-12);
        assertEquals(5.5, s.timeAt(15), 1e-12);
        assertEquals(1, s.stageAt(5.5));
        assertEquals(8.0, s.endS(), 1e-12);
        assertEquals(List.of("stage 1: 2 req/s, 5 s", "stage 2: 10 req/s, 3 s"), s.stageNames());
    }

    @Test
    void shouldGiveEachStageItsRateOfPoissonArrivals()
    {
        final RateSchedule s = new RateSchedule(null, List.of(new RateSchedule.Stage(50, 100),
            new RateSchedule.Stage(200, 100)));
        final ArrivalProcess unit = ArrivalProcess.poisson(1.0, 77);
        final int[] counts = new int[2];
        double u = 0;
        while (true)
        {
            final double t = s.timeAt(u);
            if (!(t < s.endS()))
            {
                break;
            }
            counts[s.stageAt(t)]++;
            u += unit.nextGapNs() / 1e9;
        }
        assertEquals(5_000, counts[0], 5_000 * 0.05);
        assertEquals(20_000, counts[1], 20_000 * 0.03);
    }

    @Test
    void shouldRejectImpossibleStagesAndRamps()
    {
        assertThrows(IllegalArgumentException.class, () -> new RateSchedule.Stage(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new RateSchedule.Stage(1, -1));
        assertThrows(IllegalArgumentException.class, () -> new RateSchedule.Ramp(0, 5, 10, true));
        assertThrows(IllegalArgumentException.class, () -> new RateSchedule(null, List.of()));
        assertTrue(new RateSchedule.Ramp(0, 5, 10, false).inverse(1) > 0, "a linear ramp may start at 0");
    }
}
