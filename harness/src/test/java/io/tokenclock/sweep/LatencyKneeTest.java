package io.tokenclock.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

final class LatencyKneeTest
{
    private static final double[] LOADS = {10, 20, 30, 40};

    @Test
    void shouldInterpolateTheLoadWhereTheP99CrossesTheFactorTimesItsLowLoadValue()
    {
        // baseline 10 ms, threshold 20 ms, crossed between 30 (16 ms) and 40 (40 ms):
        // 30 + (20 - 16) * (40 - 30) / (40 - 16) = 30 + 40 / 24 = 31.666...
        final LatencyKnee k = LatencyKnee.find(LOADS, new double[] {10, 12, 16, 40}, 2);
        assertEquals(10, k.baselineMs());
        assertEquals(20, k.thresholdMs());
        assertEquals(30 + 40.0 / 24, k.offered(), 1e-12);
        assertEquals(30, k.lastWithin());
        assertEquals(40, k.firstAbove());
    }

    @Test
    void shouldTakeTheFactorFromTheCaller()
    {
        // factor 1.5: threshold 15 ms, crossed between 20 (12 ms) and 30 (16 ms): 20 + 3 * 10 / 4 = 27.5
        assertEquals(27.5, LatencyKnee.find(LOADS, new double[] {10, 12, 16, 40}, 1.5).offered(), 1e-12);
    }

    @Test
    void shouldReportNoKneeWhenTheLatencyStaysWithinTheFactor()
    {
        final LatencyKnee k = LatencyKnee.find(LOADS, new double[] {10, 15, 19.9, 20}, 2);
        assertTrue(Double.isNaN(k.offered()), k.toString());
        assertTrue(Double.isNaN(k.firstAbove()), k.toString());
        assertEquals(40, k.lastWithin());
    }

    @Test
    void shouldSkipPointsWithoutALatency()
    {
        // the baseline is the first point with a latency (20: 10 ms); 40 crosses 20 ms: 20 + 10 * 20 / 20 = 30
        final LatencyKnee k = LatencyKnee.find(LOADS, new double[] {Double.NaN, 10, Double.NaN, 30}, 2);
        assertEquals(10, k.baselineMs());
        assertEquals(30, k.offered(), 1e-12);
        assertEquals(20, k.lastWithin());
    }

    @Test
    void shouldRejectAFactorThatIsNotAboveOne()
    {
        assertThrows(IllegalArgumentException.class, () -> LatencyKnee.find(LOADS, new double[4], 1));
    }
}
