package io.tokenclock.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

final class SweepAnalysisTest
{
    @Test
    void shouldTakeTheMaximumGoodputAndTheLowestLoadAmongEquals()
    {
        final SweepAnalysis a = SweepAnalysis.of(List.of(Points.point(30, 29, 20, 25, 90, 0, 75),
            Points.point(10, 10, 10, 10, 30, 0, 30), Points.point(20, 20, 12, 25, 60, 0, 60),
            Points.point(40, 31, 90, 5, 93, 0, 15)), 2);
        assertEquals(20, a.maxGoodput().offered());
        assertEquals(25, a.maxGoodput().goodputRps());
    }

    @Test
    void shouldAnalyseThePointsInIncreasingLoadWhateverTheirOrder()
    {
        // TTFT p99 10 (baseline), 12, 20, 90 ms: 2 x 10 = 20 is crossed only above 30 (exactly 20 at 30 is within).
        final SweepAnalysis a = SweepAnalysis.of(List.of(Points.point(40, 31, 90, 5, 93, 0, 15),
            Points.point(10, 10, 10, 10, 30, 0, 30), Points.point(30, 30, 20, 25, 90, 0, 75),
            Points.point(20, 20, 12, 20, 60, 0, 60)), 2);
        assertEquals(30, a.latencyKnee().lastWithin());
        assertEquals(40, a.latencyKnee().firstAbove());
        assertEquals(30, a.latencyKnee().offered(), 1e-12);
        assertEquals(4, a.throughputFit().points());
        assertEquals(1, a.throughputFit().slopeBelow(), 1e-9);
    }

    @Test
    void shouldHaveNoFitAndNoMaximumWithoutPoints()
    {
        final SweepAnalysis a = SweepAnalysis.of(List.of(), 2);
        assertNull(a.throughputFit());
        assertNull(a.maxGoodput());
    }

    @Test
    void shouldSpreadTheAutomaticRatesFromLowLoadToPastTheCeiling()
    {
        // i x 1.4 x 10 / 8 for i = 1 .. 8
        final double[] rates = AutoPlan.rates(10, 8);
        final double[] expected = {1.75, 3.5, 5.25, 7, 8.75, 10.5, 12.25, 14};
        for (int i = 0; i < expected.length; i++)
        {
            assertEquals(expected[i], rates[i], 1e-12);
        }
        assertThrows(IllegalArgumentException.class, () -> AutoPlan.rates(10, 3));
        assertThrows(IllegalArgumentException.class, () -> AutoPlan.rates(0, 8));
    }
}
