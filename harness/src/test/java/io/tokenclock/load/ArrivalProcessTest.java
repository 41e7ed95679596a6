package io.tokenclock.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Statistical checks of the arrival processes. Every generator is seeded, so each check is deterministic; the
 * tolerances are nonetheless several standard errors wide, so that they would hold for any seed.
 */
class ArrivalProcessTest
{
    private static final int DRAWS = 200_000;
    private static final long SEED = 0x5EED_C10CL;
    private static final double NS_PER_S = 1e9;

    @ParameterizedTest
    @ValueSource(doubles = {0.5, 1, 3, 4, 7.5, 1_000})
    void shouldMakeEveryConstantGapExactlyOneOverRate(final double rate)
    {
        final ArrivalProcess process = ArrivalProcess.constant(rate);

        assertEquals(ArrivalProcess.Kind.CONSTANT, process.kind());
        for (int i = 0; i < 1_000; i++)
        {
            assertEquals(NS_PER_S / rate, process.nextGapNs(), 0.0);
        }
    }

    @Test
    void shouldMakeConstantGapsOfKnownValues()
    {
        assertEquals(250_000_000.0, ArrivalProcess.constant(4).nextGapNs(), 0.0);
        assertEquals(2_000_000_000.0, ArrivalProcess.constant(0.5).nextGapNs(), 0.0);
        assertEquals(1_000_000.0, ArrivalProcess.of(ArrivalProcess.Kind.CONSTANT, 1_000, 0.25, 9).nextGapNs(), 0.0);
    }

    @Test
    void shouldGivePoissonGapsWithMeanOneOverRateAndUnitCv()
    {
        final double rate = 10;
        final Stats stats = Stats.of(draw(ArrivalProcess.poisson(rate, SEED), DRAWS));

        assertWithin(NS_PER_S / rate, stats.mean, 0.02, "mean gap");
        assertWithin(1.0, stats.cv(), 0.02, "CV");
        assertWithin(2.0, stats.skewness, 0.05, "skewness, an exponential's 2 whatever the rate");
    }

    @Test
    void shouldGivePoissonGapsAnExponentialTail()
    {
        final double rate = 10;
        final double mean = NS_PER_S / rate;
        final double[] gaps = draw(ArrivalProcess.poisson(rate, SEED), DRAWS);

        // P(gap > t) = exp(-t / mean) for an exponential; a CV of 1 alone would not pin the shape.
        assertEquals(Math.exp(-1), fractionAbove(gaps, mean), 0.005);
        assertEquals(Math.exp(-3), fractionAbove(gaps, 3 * mean), 0.0025);
        assertEquals(1 - Math.exp(-0.1), 1 - fractionAbove(gaps, 0.1 * mean), 0.003);
    }

    @Test
    void shouldGivePoissonCountsPerSecondWithMeanAndVarianceEqualToRate()
    {
        final double rate = 10;
        final double[] counts = windowCounts(draw(ArrivalProcess.poisson(rate, SEED), DRAWS), NS_PER_S);
        final Stats stats = Stats.of(counts);

        assertTrue(counts.length > 19_000, "windows: " + counts.length);
        assertWithin(rate, stats.mean, 0.02, "mean arrivals per second");
        assertWithin(rate, stats.variance, 0.05, "variance of arrivals per second");
        assertWithin(1.0, stats.variance / stats.mean, 0.05, "index of dispersion");
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.25, 1, 4})
    void shouldGiveGammaGapsWithMeanOneOverRateAndCvOneOverSqrtShape(final double k)
    {
        final double rate = 4;
        final ArrivalProcess process = ArrivalProcess.gamma(rate, k, SEED);
        final Stats stats = Stats.of(draw(process, DRAWS));

        assertEquals(ArrivalProcess.Kind.GAMMA, process.kind());
        assertWithin(NS_PER_S / rate, stats.mean, 0.03, "mean gap");
        assertWithin(1 / Math.sqrt(k), stats.cv(), 0.04, "CV");
        assertWithin(2 / Math.sqrt(k), stats.skewness, 0.1, "skewness, a gamma's 2 / sqrt(shape)");
    }

    @Test
    void shouldMatchPoissonTailWhenGammaShapeIsOne()
    {
        final double rate = 4;
        final double[] gaps = draw(ArrivalProcess.gamma(rate, 1, SEED), DRAWS);

        assertEquals(Math.exp(-1), fractionAbove(gaps, NS_PER_S / rate), 0.005);
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.25, 1, 4})
    void shouldMakeGammaCountsOverdispersedWhenBurstyAndUnderdispersedWhenSmooth(final double k)
    {
        // Over windows holding many arrivals, a renewal process's index of dispersion tends to CV^2 = 1/k.
        final double rate = 10;
        final double[] counts = windowCounts(draw(ArrivalProcess.gamma(rate, k, SEED), 1_000_000), 10 * NS_PER_S);
        final Stats stats = Stats.of(counts);

        assertWithin(1 / k, stats.variance / stats.mean, 0.10, "index of dispersion");
    }

    @Test
    void shouldRepeatSequenceForSameSeed()
    {
        assertArrayEquals(draw(ArrivalProcess.poisson(10, 7), 10_000), draw(ArrivalProcess.poisson(10, 7), 10_000));
        assertArrayEquals(draw(ArrivalProcess.gamma(10, 0.25, 7), 10_000),
            draw(ArrivalProcess.gamma(10, 0.25, 7), 10_000));
        assertArrayEquals(draw(ArrivalProcess.gamma(10, 4, 7), 10_000),
            draw(ArrivalProcess.of(ArrivalProcess.Kind.GAMMA, 10, 4, 7), 10_000));
        assertArrayEquals(draw(ArrivalProcess.poisson(10, 7), 100),
            draw(ArrivalProcess.of(ArrivalProcess.Kind.POISSON, 10, 4, 7), 100));
    }

    @Test
    void shouldDifferForDifferentSeeds()
    {
        assertSequencesDiffer(draw(ArrivalProcess.poisson(10, 7), 1_000), draw(ArrivalProcess.poisson(10, 8), 1_000));
        assertSequencesDiffer(draw(ArrivalProcess.gamma(10, 0.25, 7), 1_000),
            draw(ArrivalProcess.gamma(10, 0.25, 8), 1_000));
        assertSequencesDiffer(draw(ArrivalProcess.gamma(10, 4, 7), 1_000), draw(ArrivalProcess.gamma(10, 4, 8), 1_000));
    }

    @Test
    void shouldPinScheduleForSeedSoThatItCannotChangeSilently()
    {
        // Recorded from this implementation (StrictMath, so every JDK agrees): a change in algorithm (e.g. switching to
        // nextGaussian()) would change every seeded schedule, breaking the "same seed, same schedule" promise across
        // versions.
        assertArrayEquals(new double[]{1.3531105982440144E8, 1.742467176876429E7, 3.265630772662666E7,
            4.218852587151469E7}, draw(ArrivalProcess.poisson(10, 42), 4));
        assertArrayEquals(new double[]{2.4776723432223985E8, 2827.6200364629062, 1.790234354108366E7,
            3.0880609518556733E7}, draw(ArrivalProcess.gamma(4, 0.25, 42), 4));
        assertArrayEquals(new double[]{3.517988375242925E8, 3.534292398827074E8, 2.5646375564135376E8,
            2.788261840600782E8}, draw(ArrivalProcess.gamma(4, 4, 42), 4));
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, -0.0, -1, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    void shouldRejectInvalidRate(final double rate)
    {
        assertThrows(IllegalArgumentException.class, () -> ArrivalProcess.constant(rate));
        assertThrows(IllegalArgumentException.class, () -> ArrivalProcess.poisson(rate, 1));
        assertThrows(IllegalArgumentException.class, () -> ArrivalProcess.gamma(rate, 1, 1));
        for (final ArrivalProcess.Kind kind : ArrivalProcess.Kind.values())
        {
            assertThrows(IllegalArgumentException.class, () -> ArrivalProcess.of(kind, rate, 1, 1), kind.name());
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, -0.0, -0.5, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    void shouldRejectInvalidBurstiness(final double burstiness)
    {
        assertThrows(IllegalArgumentException.class, () -> ArrivalProcess.gamma(10, burstiness, 1));
        assertThrows(IllegalArgumentException.class,
            () -> ArrivalProcess.of(ArrivalProcess.Kind.GAMMA, 10, burstiness, 1));
    }

    private static double[] draw(final ArrivalProcess process, final int n)
    {
        final double[] gaps = new double[n];
        for (int i = 0; i < n; i++)
        {
            gaps[i] = process.nextGapNs();
        }
        return gaps;
    }

    /** Counts arrivals in consecutive windows of {@code windowNs}, over the complete windows only. */
    private static double[] windowCounts(final double[] gaps, final double windowNs)
    {
        double t = 0;
        for (final double gap : gaps)
        {
            t += gap;
        }
        final int windows = (int)(t / windowNs);
        final double[] counts = new double[windows];
        double arrival = 0;
        for (final double gap : gaps)
        {
            arrival += gap;
            final int w = (int)(arrival / windowNs);
            if (w < windows)
            {
                counts[w]++;
            }
        }
        return counts;
    }

    private static double fractionAbove(final double[] values, final double threshold)
    {
        return Arrays.stream(values).filter(v -> v > threshold).count() / (double)values.length;
    }

    private static void assertWithin(
        final double expected, final double actual, final double relativeTolerance, final String what)
    {
        assertEquals(expected, actual, expected * relativeTolerance,
            () -> what + ": expected " + expected + " within " + relativeTolerance * 100 + "%, got " + actual);
    }

    private static void assertSequencesDiffer(final double[] a, final double[] b)
    {
        assertFalse(Arrays.equals(a, b));
        int same = 0;
        for (int i = 0; i < a.length; i++)
        {
            same += a[i] == b[i] ? 1 : 0;
        }
        assertTrue(same < a.length / 100, "sequences share " + same + " of " + a.length + " gaps");
    }

    /** Mean, sample variance and skewness (third standardised moment) of a sample. */
    private record Stats(double mean, double variance, double skewness)
    {
        static Stats of(final double[] values)
        {
            double sum = 0;
            for (final double v : values)
            {
                sum += v;
            }
            final double mean = sum / values.length;
            double squares = 0;
            double cubes = 0;
            for (final double v : values)
            {
                squares += (v - mean) * (v - mean);
                cubes += (v - mean) * (v - mean) * (v - mean);
            }
            final double n = values.length;
            return new Stats(mean, squares / (n - 1), cubes / n / Math.pow(squares / n, 1.5));
        }

        double cv()
        {
            return Math.sqrt(variance) / mean;
        }
    }
}
