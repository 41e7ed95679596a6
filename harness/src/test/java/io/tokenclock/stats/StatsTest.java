package io.tokenclock.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

final class StatsTest
{
    @Test
    void shouldGiveTheTextbookRanksForTheMedianOfOneHundredSamples()
    {
        // The usual 95% interval for the median of n = 100 is [x(40), x(61)].
        assertEquals(new OrderStatistics.Ranks(40, 61, 100), OrderStatistics.interval(100, 0.5, 0.95));
    }

    @Test
    void shouldBoundAP99FromAThousandSamplesAndNotFromAHundred()
    {
        assertEquals(new OrderStatistics.Ranks(983, 997, 1000), OrderStatistics.interval(1000, 0.99, 0.95));
        final OrderStatistics.Ranks hundred = OrderStatistics.interval(100, 0.99, 0.95);
        assertTrue(hundred.hasLower());
        assertFalse(hundred.hasUpper(), "a p99 from 100 samples has no upper bound: " + hundred);
    }

    @Test
    void shouldNeedTwoHundredNinetyNineSamplesForAOneSidedP99Bound()
    {
        assertEquals(299, OrderStatistics.minSamplesForUpperBound(0.99, 0.95));
        assertEquals(59, OrderStatistics.minSamplesForUpperBound(0.95, 0.95));
        assertTrue(1 - Math.pow(0.99, 299) >= 0.95 && 1 - Math.pow(0.99, 298) < 0.95);
    }

    @Test
    void shouldRejectAQuantileOutsideTheOpenUnitInterval()
    {
        assertThrows(IllegalArgumentException.class, () -> OrderStatistics.interval(10, 1.0, 0.95));
    }

    @Test
    void shouldGiveADegenerateIntervalForIdenticalRuns()
    {
        final Bootstrap.Interval i = Bootstrap.interval(new double[] {7, 7, 7, 7}, Bootstrap::mean, 0.95, 1);
        assertEquals(new Bootstrap.Interval(7, 7, 4), i);
    }

    @Test
    void shouldReproduceTheSameIntervalFromTheSameSeed()
    {
        final double[] v = {10.0, 10.2, 9.9, 10.1, 10.3};
        assertEquals(Bootstrap.interval(v, Bootstrap::mean, 0.95, 42),
            Bootstrap.interval(v, Bootstrap::mean, 0.95, 42));
        final Bootstrap.Interval i = Bootstrap.interval(v, Bootstrap::mean, 0.95, 42);
        assertTrue(i.low() >= 9.9 && i.high() <= 10.3 && i.contains(10.1), i.toString());
    }

    @Test
    void shouldSeparateTwoVariantsThatDifferAndNotTwoThatDoNot()
    {
        final double[] a = {100, 101, 99, 100, 102};
        final double[] b = {110, 111, 109, 112, 110};
        final Bootstrap.Interval d = Bootstrap.difference(a, b, Bootstrap::mean, 0.95, 7);
        assertTrue(d.low() > 5 && d.high() < 15, "B is 10 above A: " + d);
        assertFalse(d.contains(0));
        final Bootstrap.Interval same = Bootstrap.difference(a, a.clone(), Bootstrap::mean, 0.95, 7);
        assertTrue(same.contains(0), same.toString());
    }

    @Test
    void shouldExcludeTheRunOutsideTukeysFencesAndListIt()
    {
        assertEquals(List.of(4), Outliers.excluded(new double[] {10.0, 10.2, 9.9, 10.1, 14.0}));
        assertEquals(List.of(), Outliers.excluded(new double[] {10.0, 10.2, 14.0}), "three values are not judged");
        assertEquals(4, Outliers.without(new double[] {10.0, 10.2, 9.9, 10.1, 14.0}, List.of(4)).length);
    }
}
