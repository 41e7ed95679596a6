package io.tokenclock.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Intervals honest at small n: Student's t against published quantiles, Welch's interval, and the verdict rule that
 * never says "differs" where a t interval at the same n would not support it.
 */
final class SmallSampleTest
{
    private static final double[] A = {10.1, 12.3, 11.0};
    private static final double[] B = {9.2, 9.6, 8.1};

    @Test
    void shouldGiveStudentsQuantilesAsTablesPrintThem()
    {
        assertEquals(12.706, StudentT.quantile(0.975, 1), 1e-3);
        assertEquals(4.303, StudentT.quantile(0.975, 2), 1e-3);
        assertEquals(2.776, StudentT.quantile(0.975, 4), 1e-3);
        assertEquals(2.228, StudentT.quantile(0.975, 10), 1e-3);
        assertEquals(1.962, StudentT.quantile(0.975, 1000), 1e-3);
        assertEquals(-2.228, StudentT.quantile(0.025, 10), 1e-3);
        assertEquals(0.5, StudentT.cdf(0, 3), 1e-12);
    }

    @Test
    void shouldWidenWelchsIntervalWhereTheBootstrapOfThreeRunsIsTooNarrow()
    {
        final Bootstrap.Interval boot = Bootstrap.difference(A, B, Bootstrap::mean, 0.95, 42);
        final Bootstrap.Interval welch = StudentT.welch(A, B, 0.95);
        assertEquals(-3.400, boot.low(), 1e-3);
        assertEquals(-0.933, boot.high(), 1e-3);
        assertEquals(-4.435, welch.low(), 1e-3);
        assertEquals(0.102, welch.high(), 1e-3);
        assertFalse(boot.contains(0), "the bootstrap alone would call it a difference");
        assertEquals(SmallSample.Verdict.TOO_FEW, SmallSample.verdict(boot, welch));
        assertEquals("n too small to tell", SmallSample.Verdict.TOO_FEW.label());
    }

    @Test
    void shouldSayDiffersOnlyWhenBothIntervalsExcludeZero()
    {
        final Bootstrap.Interval excludes = new Bootstrap.Interval(1, 2, 3);
        final Bootstrap.Interval holds = new Bootstrap.Interval(-1, 2, 3);
        assertEquals(SmallSample.Verdict.DIFFERS, SmallSample.verdict(excludes, excludes));
        assertEquals(SmallSample.Verdict.TOO_FEW, SmallSample.verdict(excludes, holds));
        assertEquals(SmallSample.Verdict.WITHIN_NOISE, SmallSample.verdict(holds, excludes));
        assertEquals(null, SmallSample.verdict(new Bootstrap.Interval(Double.NaN, Double.NaN, 1), holds));
    }

    @Test
    void shouldCallFewerThanOneInTwentyEqualVariantsDifferentAtThreeRunsASide()
    {
        // CoverageSimulation's A/A case, smaller: the bootstrap alone calls ~18% of them "differs" at n = 3.
        final CoverageSimulation.Row row = CoverageSimulation.simulate(3, 400, 38);
        assertTrue(row.falseDiffersBootstrap() > 0.10, "the bootstrap alone undercovers: " + row);
        assertTrue(row.falseDiffersRule() <= 0.05, "the rule holds the nominal rate: " + row);
    }

    @Test
    void shouldSayBesideAnIntervalWhatItCoversBelowTwelveValues()
    {
        assertEquals("range", SmallSample.caveat(2));
        assertEquals("range", SmallSample.caveat(3));
        assertEquals("covers ~80%", SmallSample.caveat(4));
        assertEquals("covers ~90%", SmallSample.caveat(10));
        assertEquals("", SmallSample.caveat(Bootstrap.N_NEAR_NOMINAL_COVERAGE));
        assertEquals(82, SmallSample.differenceCoveragePercent(3));
    }

    @Test
    void shouldGiveTheMeansTIntervalFromTwoValuesOn()
    {
        final Bootstrap.Interval t = StudentT.mean(new double[] {10, 12}, 0.95);
        // mean 11, s = 1.414, se = 1, t(0.975, 1) = 12.706
        assertEquals(11 - 12.706, t.low(), 1e-3);
        assertEquals(11 + 12.706, t.high(), 1e-3);
        assertTrue(Double.isNaN(StudentT.mean(new double[] {10}, 0.95).low()));
    }
}
