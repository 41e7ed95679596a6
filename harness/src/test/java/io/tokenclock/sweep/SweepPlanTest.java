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
        assertTrue(line.contains("at most 21 runs, 22.8 min"), line);
    }

    @Test
    void shouldSayWhatTheDefaultAutoSweepWithAnSloTypicallyTakesAsWellAsItsBound()
    {
        // The README's sweep: --auto --point-duration 30 with an SLO and the default search budget (30 runs) and
        // drain timeout (60 s). Issue 38: the README promised 21 runs and 23 min while the tool planned 39.
        final SweepPlan auto = new SweepPlan("auto", List.of(), 30, 8, 64, 2, new StopRule(0.2, 0.9), 0.9,
            Double.NaN, 0.05, 30, true);
        assertEquals(12, auto.typicalSearchRuns(), "6 verdicts of 2 runs: bracket, then bisect to 5%");
        assertEquals(21, auto.typicalRuns(true));
        assertEquals(39, auto.maxRuns(true));
        assertEquals("tokenclock sweep: 1 ceiling + 8 points + an SLO search of typically 12 runs (at most 30): " +
            "typically 21 runs, 10.5 min of windows (30 s each) plus each run's drain (about one request while the " +
            "server keeps up); at most 39 runs, 58.5 min, if the search uses its budget and every drain reaches its " +
            "60 s timeout", auto.describeDuration(true, 0, 60));
    }

    @Test
    void shouldNotLetTheDrainTimeoutPassForTheDurationOfAShortSweep()
    {
        // Issue 38: a 5 s-point sweep announced 42.3 min and took 3.7; the typical figure is its windows.
        final SweepPlan rates = new SweepPlan("rates", List.of(1.0, 2.0, 4.0, 8.0), 5, 8, 64, 2,
            new StopRule(0.2, 0.9), 0.9, Double.NaN, 0.05, 30, true);
        final String line = rates.describeDuration(false, 0, 60);
        assertTrue(line.startsWith("tokenclock sweep: 4 points: typically 4 runs, 0.3 min of windows (5 s each)"),
            line);
        assertTrue(line.contains("at most 4 runs, 4.3 min, if every drain reaches its 60 s timeout"), line);
    }
}
