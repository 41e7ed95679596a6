package io.tokenclock.workload.dist;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Φ and its inverse against reference values (computed with an independent erfc, Python's {@code math.erfc}, and
 * {@code statistics.NormalDist.inv_cdf}, which is Wichura's AS241).
 */
class GaussianTest
{
    @ParameterizedTest
    @CsvSource({
        "-37.0, 5.725571222525139e-300",
        "-20.0, 2.7536241186063314e-89",
        "-10.0, 7.619853024160593e-24",
        "-7.0, 1.279812543885835e-12",
        "-5.0, 2.866515718791946e-07",
        "-3.0, 0.0013498980316300957",
        "-1.5, 0.06680720126885809",
        "-1.0, 0.15865525393145707",
        "-0.1, 0.460172162722971",
        "0.0, 0.5",
        "0.5, 0.6914624612740131",
        "1.0, 0.8413447460685429",
        "2.0, 0.9772498680518208",
        "5.0, 0.9999997133484281"})
    void shouldMatchReferenceValuesOfPhiToRelativePrecision(final double z, final double expected)
    {
        assertEquals(expected, Gaussian.cdf(z), expected * 2e-14, "Φ(" + z + ")");
    }

    @Test
    void shouldKeepRelativePrecisionOfTheUpperTail()
    {
        // 1 - Φ(10) as 1 - 0.99999... would be exactly 0.
        assertEquals(7.619853024160593e-24, Gaussian.upperTail(10.0), 7.62e-24 * 2e-14);
        assertEquals(1.0, Gaussian.cdf(40.0));
        assertEquals(0.0, Gaussian.cdf(-40.0));
    }

    @ParameterizedTest
    @CsvSource({
        "1e-300, -37.0470962993612",
        "1e-20, -9.262340089798405",
        "1e-05, -4.2648907939228256",
        "0.001, -3.090232306167813",
        "0.02, -2.0537489106318225",
        "0.1, -1.2815515655446008",
        "0.5, 0.0",
        "0.7, 0.5244005127080407",
        "0.975, 1.9599639845400536",
        "0.9999999, 5.199337582290662"})
    void shouldInvertPhiToReferenceValues(final double p, final double expected)
    {
        assertEquals(expected, Gaussian.inverseCdf(p), 1e-14 * Math.max(1.0, Math.abs(expected)), "Φ⁻¹(" + p + ")");
    }

    @Test
    void shouldRoundTripThroughPhiAndItsInverseInTheLowerHalf()
    {
        // The upper half is not compared: Φ(8) = 1 - 6e-16 is held to 1 part in 6 by a double, so its inverse
        // cannot come back to 8; the lower half holds Φ(-8) = 6.2e-16 to full precision.
        for (double z = -30; z <= 0; z += 0.125)
        {
            assertEquals(z, Gaussian.inverseCdf(Gaussian.cdf(z)), 1e-12 * Math.max(1.0, -z), "z = " + z);
        }
    }

    @Test
    void shouldMapEndsToInfinitiesAndRejectNonProbabilities()
    {
        assertEquals(Double.NEGATIVE_INFINITY, Gaussian.inverseCdf(0.0));
        assertEquals(Double.POSITIVE_INFINITY, Gaussian.inverseCdf(1.0));
        assertThrows(IllegalArgumentException.class, () -> Gaussian.inverseCdf(1.5));
        assertThrows(IllegalArgumentException.class, () -> Gaussian.inverseCdf(Double.NaN));
    }
}
