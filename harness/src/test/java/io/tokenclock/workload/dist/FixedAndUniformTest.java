package io.tokenclock.workload.dist;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FixedAndUniformTest
{
    private static final long SEED = 42;

    @Test
    void shouldAlwaysGiveTheFixedLengthWithoutDrawingFromTheGenerator()
    {
        final Fixed fixed = new Fixed(128);
        final SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 100; i++)
        {
            assertEquals(128, fixed.sample(random));
        }
        assertEquals(new SplittableRandom(SEED).nextLong(), random.nextLong(), "the generator was not advanced");
        assertEquals(128, fixed.quantile(0.37));
        assertEquals("fixed(n=128)", fixed.describe());
    }

    @Test
    void shouldCoverBothEndsOfTheUniformWithEqualFrequencies()
    {
        final Samples samples = Samples.of(new Uniform(1, 10), SEED);

        for (int k = 1; k <= 10; k++)
        {
            assertEquals(0.1, samples.fractionEqual(k), 0.005, "P(L = " + k + ")");
        }
        assertEquals(1, samples.min());
        assertEquals(10, samples.max());
    }

    @Test
    void shouldReachBothEndsOfAWideUniform()
    {
        final Samples samples = Samples.of(new Uniform(16, 2048), SEED);

        assertEquals(16, samples.min());
        assertEquals(2048, samples.max());
        assertEquals(1032.0, new Uniform(16, 2048).mean());
    }

    @Test
    void shouldSplitUniformQuantilesAtMultiplesOfOneOverSize()
    {
        final Uniform uniform = new Uniform(1, 4);

        assertEquals(1, uniform.quantile(0.25));
        assertEquals(2, uniform.quantile(Math.nextUp(0.25)));
        assertEquals(2, uniform.quantile(0.5));
        assertEquals(4, uniform.quantile(0.99));
        assertEquals(0.5, uniform.cdf(2));
        assertEquals(2.5, uniform.mean());
        assertEquals("uniform(min=1, max=4)", uniform.describe());
    }

    @Test
    void shouldHandleTheWidestUniformWithoutOverflow()
    {
        final Uniform uniform = new Uniform(1, Integer.MAX_VALUE);

        assertEquals(Integer.MAX_VALUE, uniform.quantile(1.0));
        assertEquals(1, uniform.quantile(0.0));
        assertEquals(0.5 * (1.0 + Integer.MAX_VALUE), uniform.mean());
    }
}
