package io.tokenclock.workload.dist;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CorrelatedLengthsTest
{
    private static final int DRAWS = 100_000;
    private static final long SEED = 0xC0_B1A5L;

    private static final LengthDistribution INPUT = new LogNormal(512, 0.6, 1, 8192);
    private static final LengthDistribution OUTPUT = new Uniform(16, 2048);

    private static int[][] draw(final CorrelatedLengths copula, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final int[][] pairs = new int[2][DRAWS];
        for (int i = 0; i < DRAWS; i++)
        {
            final Lengths lengths = copula.sample(random);
            pairs[0][i] = lengths.input();
            pairs[1][i] = lengths.output();
        }
        return pairs;
    }

    private static double mean(final int[] values)
    {
        double sum = 0;
        for (final int v : values)
        {
            sum += v;
        }
        return sum / values.length;
    }

    private static double fractionAtMost(final int[] values, final int k)
    {
        int n = 0;
        for (final int v : values)
        {
            n += v <= k ? 1 : 0;
        }
        return (double)n / values.length;
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.5, 0.0, 0.8})
    void shouldGiveSpearmanRankCorrelationOfSixOverPiAsinHalfRho(final double rho)
    {
        final CorrelatedLengths copula = new CorrelatedLengths(INPUT, OUTPUT, rho);
        final int[][] pairs = draw(copula, SEED);
        final double expected = 6 / Math.PI * Math.asin(rho / 2);

        assertEquals(expected, copula.spearmanRho(), 1e-15);
        assertEquals(expected, Samples.spearman(pairs[0], pairs[1]), 0.02, "rho " + rho);
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.5, 0.8})
    void shouldKeepEachMarginalWhenCorrelated(final double rho)
    {
        final int[][] pairs = draw(new CorrelatedLengths(INPUT, OUTPUT, rho), SEED);

        // 5 standard errors: sd of the lognormal is about 400, of the uniform 587.
        assertEquals(INPUT.mean(), mean(pairs[0]), 5 * 400 / Math.sqrt(DRAWS));
        assertEquals(OUTPUT.mean(), mean(pairs[1]), 5 * 587 / Math.sqrt(DRAWS));
        for (final double u : new double[]{0.1, 0.5, 0.9})
        {
            assertEquals(INPUT.cdf(INPUT.quantile(u)), fractionAtMost(pairs[0], INPUT.quantile(u)), 0.005);
            assertEquals(OUTPUT.cdf(OUTPUT.quantile(u)), fractionAtMost(pairs[1], OUTPUT.quantile(u)), 0.005);
        }
    }

    @Test
    void shouldMoveLengthsTogetherAtRhoOneAndOppositeAtMinusOne()
    {
        final Uniform uniform = new Uniform(1, 100);
        final SplittableRandom random = new SplittableRandom(SEED);
        final CorrelatedLengths same = new CorrelatedLengths(uniform, uniform, 1.0);
        final CorrelatedLengths opposite = new CorrelatedLengths(uniform, uniform, -1.0);
        for (int i = 0; i < 10_000; i++)
        {
            final Lengths s = same.sample(random);
            assertEquals(s.input(), s.output());
            final Lengths o = opposite.sample(random);
            assertTrue(Math.abs(o.input() + o.output() - 101) <= 1, o.toString());
        }
    }

    @Test
    void shouldRepeatPairsForTheSameSeedAndConsumeTwoDoublesEach()
    {
        final CorrelatedLengths copula = new CorrelatedLengths(INPUT, OUTPUT, 0.8);

        final int[][] first = draw(copula, SEED);
        final int[][] second = draw(copula, SEED);
        assertArrayEquals(first[0], second[0]);
        assertArrayEquals(first[1], second[1]);

        final SplittableRandom random = new SplittableRandom(SEED);
        final SplittableRandom reference = new SplittableRandom(SEED);
        copula.sample(random);
        reference.nextDouble();
        reference.nextDouble();
        assertEquals(reference.nextLong(), random.nextLong());
    }

    @Test
    void shouldRejectRhoOutsideMinusOneOne()
    {
        assertEquals("rho must be in [-1, 1]: 1.5", assertThrows(IllegalArgumentException.class,
            () -> new CorrelatedLengths(INPUT, OUTPUT, 1.5)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CorrelatedLengths(INPUT, OUTPUT, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new CorrelatedLengths(null, OUTPUT, 0));
    }
}
