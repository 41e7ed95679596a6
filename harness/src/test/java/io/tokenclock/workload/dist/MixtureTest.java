package io.tokenclock.workload.dist;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MixtureTest
{
    private static final long SEED = 11;

    private static Mixture separated()
    {
        // Components on disjoint ranges, so each sample tells which component it came from.
        return new Mixture(List.of(7.0, 3.0), List.of(new Uniform(1, 100), new Uniform(1001, 2000)));
    }

    @Test
    void shouldNormaliseWeightsAndMixMeans()
    {
        final Mixture mixture = separated();

        assertEquals(List.of(0.7, 0.3), mixture.weights());
        assertEquals(0.7 * 50.5 + 0.3 * 1500.5, mixture.mean(), 1e-9);
        assertEquals("mixture(0.7*uniform(min=1, max=100) + 0.3*uniform(min=1001, max=2000))", mixture.describe());
    }

    @Test
    void shouldDrawEachComponentInProportionToItsWeightWithinOnePercent()
    {
        final Samples samples = Samples.of(separated(), SEED);

        assertEquals(0.7, samples.fractionAtMost(100), 0.01);
        assertEquals(0.3, 1 - samples.fractionAtMost(1000), 0.01);
    }

    @Test
    void shouldInvertTheMixtureCdfAtTheGapBetweenComponents()
    {
        final Mixture mixture = separated();

        // CDF is 0.7 from 100 up to 1000: quantile(0.7) is 100, anything above jumps into the second component.
        assertEquals(0.7, mixture.cdf(100), 1e-12);
        assertEquals(0.7, mixture.cdf(1000), 1e-12);
        assertEquals(100, mixture.quantile(0.7));
        assertEquals(1001, mixture.quantile(0.7 + 1e-9));
        assertEquals(50, mixture.quantile(0.35));
        assertEquals(1500, mixture.quantile(0.85));
    }

    @Test
    void shouldPlaceTheMedianOfOverlappingComponentsBetweenTheirMedians()
    {
        final Mixture mixture = new Mixture(List.of(0.7, 0.3),
            List.of(new LogNormal(200, 0.5, 1, 4096), new LogNormal(3000, 0.3, 1, 8192)));
        final int median = mixture.quantile(0.5);

        assertTrue(median > 200 && median < 3000, "median " + median);
        assertEquals(0.5, mixture.cdf(median), 0.002);
        final Samples samples = Samples.of(mixture, SEED);
        assertEquals(0.5, samples.fractionAtMost(median), 0.005);
        assertEquals(0.9, samples.fractionAtMost(mixture.quantile(0.9)), 0.005);
    }
}
