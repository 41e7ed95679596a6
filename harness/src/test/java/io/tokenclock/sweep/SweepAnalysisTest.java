package io.tokenclock.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

final class SweepAnalysisTest
{
    /** The audit's sweep: the latency knee at 9.8 req/s, the fit's breakpoint at 18 "not saturated". */
    private static List<SweepPoint> beforeThePlateau()
    {
        return List.of(Points.point(2, 2, 40, 2, 29, 0, 29), Points.point(6, 6, 45, 6, 180, 0, 180),
            Points.point(10, 10, 85, 10, 300, 0, 300), Points.point(14, 13.8, 120, 13.8, 414, 0, 414),
            Points.point(18, 17.5, 200, 17.5, 525, 0, 525));
    }

    @Test
    void shouldWarnWhenTheLowLoadBaselineP99RestsOnTooFewSamples()
    {
        final SweepAnalysis a = SweepAnalysis.of(beforeThePlateau(), 2);
        assertEquals(1, a.warnings().size(), a.warnings().toString());
        assertTrue(a.warnings().get(0).contains("29 samples") && a.warnings().get(0).contains("368"),
            a.warnings().get(0));
    }

    @Test
    void shouldSayWhichKneeToTrustInOneSentence()
    {
        final String before = SweepAnalysis.of(beforeThePlateau(), 2).advice();
        assertTrue(before.contains("no saturation") && before.contains("latency"), before);
        final List<SweepPoint> plateau = new java.util.ArrayList<>(beforeThePlateau());
        plateau.add(Points.point(22, 18, 400, 18, 540, 0, 540));
        plateau.add(Points.point(26, 18.1, 900, 18.1, 543, 0, 543));
        final SweepAnalysis saturated = SweepAnalysis.of(plateau, 2);
        assertTrue(saturated.throughputFit().saturated(), saturated.throughputFit().toString());
        assertTrue(saturated.advice().startsWith("Trust the throughput fit's knee"), saturated.advice());
    }

    @Test
    void shouldNotStopEarlyBeforeTheThroughputFitSeesSaturation()
    {
        final String reason = "12% of requests failed";
        assertEquals(null, SweepAnalysis.stopNow(reason, beforeThePlateau(), 2), "the plateau is not seen yet");
        final List<SweepPoint> plateau = new java.util.ArrayList<>(beforeThePlateau());
        plateau.add(Points.point(22, 18, 400, 18, 540, 0, 540));
        plateau.add(Points.point(26, 18.1, 900, 18.1, 543, 0, 543));
        assertEquals(reason, SweepAnalysis.stopNow(reason, plateau, 2));
        assertEquals(null, SweepAnalysis.stopNow(null, plateau, 2));
    }

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
