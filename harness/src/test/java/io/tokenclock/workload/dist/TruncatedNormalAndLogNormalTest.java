package io.tokenclock.workload.dist;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TruncatedNormalAndLogNormalTest
{
    private static final long SEED = 7;

    @Test
    void shouldDeclareTheAnalyticMeanOfAHeavilyTruncatedNormal()
    {
        // Cut at z = -0.995 below: E = mean + stdev·φ(zLo)/(1 - Φ(zLo)) for the continuous variable.
        final TruncatedNormal normal = new TruncatedNormal(100, 100, 1, 1000);
        final double zLo = (0.5 - 100) / 100;
        final double analytic = 100 + 100 * Gaussian.density(zLo) / (Gaussian.upperTail(zLo));

        assertEquals(analytic, normal.mean(), 0.05, "rounding to integers moves the mean by far less than 0.05");
        assertEquals(128.9, normal.mean(), 0.1);
        final Samples samples = Samples.of(normal, SEED);
        assertEquals(normal.mean(), samples.mean, 5 * samples.standardError());
    }

    @Test
    void shouldTruncateRatherThanPileTheCutMassOntoTheEnds()
    {
        // Clamping would put the 16% of N(100, 100) below 0.5 all on length 1.
        final Samples samples = Samples.of(new TruncatedNormal(100, 100, 1, 1000), SEED);

        assertTrue(samples.fractionEqual(1) < 0.006, "P(L = 1) = " + samples.fractionEqual(1));
        assertEquals(1, samples.min());
    }

    @Test
    void shouldKeepAnUntruncatedNormalCentredWithItsStdev()
    {
        final TruncatedNormal normal = new TruncatedNormal(512, 128, 1, 4096);
        final Samples samples = Samples.of(normal, SEED);

        assertEquals(512.0, normal.mean(), 0.05);
        assertEquals(512, normal.quantile(0.5));
        assertEquals(128.0, samples.stdev, 2.0);
        assertEquals(512.0, samples.median(), 2.0);
    }

    @Test
    void shouldGiveTheLogNormalItsDeclaredMedianWithinTwoPercent()
    {
        final LogNormal logNormal = new LogNormal(512, 0.6, 1, 8192);
        final Samples samples = Samples.of(logNormal, SEED);

        assertEquals(512, logNormal.quantile(0.5));
        assertEquals(512.0, samples.median(), 512 * 0.02);
    }

    @Test
    void shouldGiveTheLogNormalItsQuartilesAndMean()
    {
        final LogNormal logNormal = new LogNormal(512, 0.6, 1, 8192);
        final double z75 = 0.6744897501960817;

        assertEquals(512 * Math.exp(-0.6 * z75), logNormal.quantile(0.25), 1.0);
        assertEquals(512 * Math.exp(0.6 * z75), logNormal.quantile(0.75), 1.0);
        // e^(mu + sigma²/2), less the sliver above 8192.
        assertEquals(512 * Math.exp(0.18), logNormal.mean(), 0.2);
        final Samples samples = Samples.of(logNormal, SEED);
        assertEquals(logNormal.mean(), samples.mean, 5 * samples.standardError());
    }

    @Test
    void shouldUseTheContinuousMeanWhenTheSupportIsTooWideToSum()
    {
        // Effective support 1.4 .. 180,000 is wider than the summing limit: the analytic mean, 512·e^(0.32).
        final LogNormal wide = new LogNormal(512, 0.8, 1, 1_000_000);

        assertEquals(512 * Math.exp(0.32), wide.mean(), 0.5);
        final Samples samples = Samples.of(wide, SEED);
        assertEquals(wide.mean(), samples.mean, 5 * samples.standardError());
    }

    @Test
    void shouldSampleAWindowFarInTheUpperTailAccurately()
    {
        // [min, max] sits 6 to 7 standard deviations above the mean, where Φ is 1 - 1e-9: only the upper-tail
        // arithmetic keeps the shape, an exponential-like decay across the window.
        final TruncatedNormal tail = new TruncatedNormal(0, 10, 60, 70);
        final Samples samples = Samples.of(tail, SEED);

        assertEquals(60, tail.quantile(0.0));
        assertTrue(samples.fractionEqual(60) > samples.fractionEqual(61), "decreasing density");
        assertTrue(samples.fractionEqual(61) > samples.fractionEqual(65), "decreasing density");
        assertEquals(tail.cdf(61), samples.fractionAtMost(61), 0.005);
        assertEquals(tail.mean(), samples.mean, 5 * samples.standardError());
    }

    @Test
    void shouldRejectAWindowThatHoldsNoProbability()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new TruncatedNormal(0, 1, 1000, 2000));

        assertTrue(ex.getMessage().startsWith("[min, max] holds no probability"), ex.getMessage());
        assertTrue(ex.getMessage().endsWith("truncated_normal(mean=0, stdev=1, min=1000, max=2000)"), ex.getMessage());
    }

    @Test
    void shouldDescribeWithItsParameters()
    {
        assertEquals("truncated_normal(mean=512, stdev=128.5, min=1, max=4096)",
            new TruncatedNormal(512, 128.5, 1, 4096).describe());
        assertEquals("lognormal(median=512, sigma=0.6, min=1, max=8192)", new LogNormal(512, 0.6, 1, 8192).describe());
    }
}
