package io.tokenclock.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** How long a sweep may take, said before it starts. */
final class SweepPlanTest
{
    @Test
    void shouldBoundAnAutoSweepByItsCeilingItsPointsAndItsSearch()
    {
        // --auto --points 8 --point-duration 30, an SLO, a search of at most 12 runs; 5 s warm-up, 30 s drain.
        final SweepPlan auto = new SweepPlan("auto", List.of(), 30, 8, 64, 2, new StopRule(0.1, 0.5), 0.9,
            Double.NaN, 0.05, 12, true);
        assertEquals(1 + 8 + 12, auto.maxRuns(true));
        assertEquals(9, auto.maxRuns(false));
        assertEquals(21 * 65.0, auto.maxDurationS(true, 35), 1e-9);
        final String line = auto.describeDuration(true, 5, 30);
        assertTrue(line.contains("at most 21 runs") && line.contains("1365 s") && line.contains("22.8 min"), line);
    }
}
