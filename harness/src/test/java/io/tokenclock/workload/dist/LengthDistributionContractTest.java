package io.tokenclock.workload.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every length distribution promises, checked on each: samples within bounds, a sample mean that agrees with
 * the declared mean, a monotone quantile that agrees with both the CDF and the samples, and a sequence fixed by the
 * seed. Tolerances are in standard errors (5 for means), or 0.005 for frequencies of 100,000 draws (whose standard
 * error is at most 0.0016), so each check holds for any seed yet fails for a real error.
 */
class LengthDistributionContractTest
{
    private static final long SEED = 0x1E_4672L;

    static Stream<Arguments> distributions()
    {
        return Stream.of(
            of(new Fixed(128), 128, 128),
            of(new Uniform(16, 2048), 16, 2048),
            of(new Uniform(7, 7), 7, 7),
            of(new TruncatedNormal(512, 128, 1, 4096), 1, 4096),
            of(new TruncatedNormal(100, 100, 1, 1000), 1, 1000),
            of(new TruncatedNormal(5, 0.3, 3, 8), 3, 8),
            of(new LogNormal(512, 0.6, 1, 8192), 1, 8192),
            of(new LogNormal(2000, 1.5, 64, 4096), 64, 4096),
            of(new Mixture(List.of(0.7, 0.3), List.of(new Fixed(128), new Uniform(1000, 2000))), 128, 2000),
            of(new Mixture(List.of(2.0, 1.0, 1.0), List.of(new LogNormal(200, 0.5, 1, 4096),
                new TruncatedNormal(3000, 300, 1, 8192), new Uniform(1, 50))), 1, 8192),
            of(Empirical.ofHistogram(Map.of(10, 1L, 20, 2L, 30, 7L)), 10, 30),
            of(Empirical.ofValues(3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5), 1, 9));
    }

    private static Arguments of(final LengthDistribution d, final int min, final int max)
    {
        return Arguments.of(Named.of(d.describe(), d), min, max);
    }

    @ParameterizedTest
    @MethodSource("distributions")
    void shouldKeepEverySampleWithinItsBounds(final LengthDistribution d, final int min, final int max)
    {
        final Samples samples = Samples.of(d, SEED);

        assertTrue(samples.min() >= min, "min " + samples.min());
        assertTrue(samples.max() <= max, "max " + samples.max());
    }

    @ParameterizedTest
    @MethodSource("distributions")
    void shouldGiveSampleMeanWithinFiveStandardErrorsOfDeclaredMean(
        final LengthDistribution d, final int min, final int max)
    {
        final Samples samples = Samples.of(d, SEED);

        assertEquals(d.mean(), samples.mean, 5 * samples.standardError() + 1e-9, "declared " + d.mean());
    }

    @ParameterizedTest
    @MethodSource("distributions")
    void shouldHaveMonotoneQuantileWithinBounds(final LengthDistribution d, final int min, final int max)
    {
        int previous = d.quantile(0.0);
        assertEquals(min, previous, "quantile(0)");
        assertEquals(max, d.quantile(1.0), "quantile(1)");
        for (double u = 0.0005; u < 1.0; u += 0.0005)
        {
            final int q = d.quantile(u);
            assertTrue(q >= previous, "quantile(" + u + ") = " + q + " < " + previous);
            previous = q;
        }
    }

    @ParameterizedTest
    @MethodSource("distributions")
    void shouldMakeQuantileTheSmallestLengthWhoseCdfReachesU(
        final LengthDistribution d, final int min, final int max)
    {
        for (final double u : new double[]{1e-6, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999999})
        {
            final int q = d.quantile(u);
            assertTrue(d.cdf(q) >= u - 1e-12, "cdf(quantile(" + u + ")) = " + d.cdf(q));
            assertTrue(d.cdf(q - 1) < u + 1e-12, "cdf(quantile(" + u + ") - 1) = " + d.cdf(q - 1));
        }
        assertEquals(0.0, d.cdf(min - 1));
        assertEquals(1.0, d.cdf(max));
    }

    @ParameterizedTest
    @MethodSource("distributions")
    void shouldSampleBelowQuantileWithTheProbabilityItsCdfGives(
        final LengthDistribution d, final int min, final int max)
    {
        final Samples samples = Samples.of(d, SEED);
        for (final double u : new double[]{0.1, 0.5, 0.9})
        {
            final int q = d.quantile(u);
            assertEquals(d.cdf(q), samples.fractionAtMost(q), 0.005, "P(L <= quantile(" + u + ") = " + q + ")");
            assertTrue(samples.fractionAtMost(q) >= u - 0.005, "P(L <= quantile(" + u + "))");
        }
    }

    @ParameterizedTest
    @MethodSource("distributions")
    void shouldAgreeWithTheInterfaceDefaultCdf(final LengthDistribution d, final int min, final int max)
    {
        final LengthDistribution quantileOnly = new LengthDistribution()
        {
            public int sample(final SplittableRandom random)
            {
                return d.sample(random);
            }

            public int quantile(final double u)
            {
                return d.quantile(u);
            }

            public double mean()
            {
                return d.mean();
            }

            public String describe()
            {
                return d.describe();
            }
        };
        for (final int k : new int[]{min - 1, min, (min + max) / 2, max - 1, max, max + 1, d.quantile(0.3)})
        {
            assertEquals(d.cdf(k), quantileOnly.cdf(k), 1e-9, "cdf(" + k + ")");
        }
    }

    @ParameterizedTest
    @MethodSource("distributions")
    void shouldRepeatTheSequenceForTheSameSeed(final LengthDistribution d, final int min, final int max)
    {
        assertArrayEquals(Samples.of(d, SEED).values, Samples.of(d, SEED).values);
        if (min != max)
        {
            assertFalse(Arrays.equals(Samples.of(d, SEED).values, Samples.of(d, SEED + 1).values));
        }
    }

    @ParameterizedTest
    @MethodSource("distributions")
    void shouldDescribeItselfOnOneLineAndRejectUOutsideZeroOne(
        final LengthDistribution d, final int min, final int max)
    {
        assertFalse(d.describe().isBlank());
        assertFalse(d.describe().contains("\n"));
        assertThrows(IllegalArgumentException.class, () -> d.quantile(-0.1));
        assertThrows(IllegalArgumentException.class, () -> d.quantile(1.1));
        assertThrows(IllegalArgumentException.class, () -> d.quantile(Double.NaN));
    }
}
