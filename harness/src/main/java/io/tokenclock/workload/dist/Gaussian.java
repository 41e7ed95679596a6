package io.tokenclock.workload.dist;

/**
 * The standard normal distribution, written out here so that a seed gives the same lengths on every JDK: only
 * {@link StrictMath} and IEEE arithmetic are used, never {@code Math} intrinsics or
 * {@code RandomGenerator.nextGaussian}, whose algorithm each JDK is free to choose.
 * <p>
 * {@link #cdf(double)} is Φ(z) = erfc(-z/√2)/2, with erfc from its Maclaurin series below 1.5 and from its continued
 * fraction (modified Lentz) above. It computes each tail directly, so the far tail keeps its relative precision:
 * {@code cdf(-10)} is {@code 7.619853024160e-24}, where {@code 1 - cdf(10)} would be exactly 0. Against a reference
 * erfc the relative error is below 1.2e-14 for |z| < 2.1 and below 6e-14 out to the smallest normal double.
 * <p>
 * {@link #inverseCdf(double)} is Acklam's rational approximation (relative error 1.2e-9) refined by one Halley step
 * against {@link #cdf(double)}, which brings it to about 1e-15: {@code inverseCdf(0.975)} is
 * {@code 1.95996398454005}.
 */
final class Gaussian
{
    private static final double SQRT_PI = 1.7724538509055160273;
    private static final double SQRT_2PI = 2.5066282746310005024;
    private static final double SQRT_2 = 1.4142135623730950488;
    private static final double SERIES_LIMIT = 1.5;
    private static final double TINY = 1e-300;
    private static final int MAX_TERMS = 500;

    private static final double[] ACKLAM_A =
        {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
            -3.066479806614716e+01, 2.506628277459239e+00};
    private static final double[] ACKLAM_B =
        {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
            -1.328068155288572e+01};
    private static final double[] ACKLAM_C =
        {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
            4.374664141464968e+00, 2.938163982698783e+00};
    private static final double[] ACKLAM_D =
        {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00};
    private static final double ACKLAM_P_LOW = 0.02425;

    private Gaussian()
    {
    }

    /** @return the standard normal density at {@code z}. */
    static double density(final double z)
    {
        return StrictMath.exp(-0.5 * z * z) / SQRT_2PI;
    }

    /**
     * The standard normal CDF Φ(z). For example {@code cdf(0) = 0.5}, {@code cdf(1.959963984540054) = 0.975},
     * {@code cdf(-5) = 2.866515718791939e-7}.
     *
     * @param z any double; NaN gives NaN.
     * @return Φ(z) in [0, 1].
     */
    static double cdf(final double z)
    {
        if (Double.isNaN(z))
        {
            return Double.NaN;
        }
        final double lowerTail = 0.5 * erfcOfNonNegative(StrictMath.abs(z) / SQRT_2);
        return z > 0 ? 1.0 - lowerTail : lowerTail;
    }

    /** @return 1 - Φ(z), computed without cancellation: {@code upperTail(10)} is {@code 7.62e-24}, not 0. */
    static double upperTail(final double z)
    {
        return cdf(-z);
    }

    /**
     * The complementary error function for x >= 0: the series erf(x) = 2/√π e^(-x²) Σ (2x²)^n x / (2n+1)!! (all
     * terms positive, so no cancellation) below 1.5, and the continued fraction
     * erfc(x) = e^(-x²)/√π / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))) above, which needs at most about 100 terms
     * there.
     */
    static double erfcOfNonNegative(final double x)
    {
        if (x < SERIES_LIMIT)
        {
            final double twoXSquared = 2.0 * x * x;
            double term = x;
            double sum = x;
            for (int n = 1; n < MAX_TERMS && term > 1e-17 * sum; n++)
            {
                term *= twoXSquared / (2 * n + 1);
                sum += term;
            }
            return 1.0 - 2.0 / SQRT_PI * StrictMath.exp(-x * x) * sum;
        }
        double f = x;
        double c = x;
        double d = 0.0;
        for (int n = 1; n < MAX_TERMS; n++)
        {
            final double a = 0.5 * n;
            d = x + a * d;
            d = 1.0 / (d == 0.0 ? TINY : d);
            c = x + a / c;
            c = c == 0.0 ? TINY : c;
            final double delta = c * d;
            f *= delta;
            if (StrictMath.abs(delta - 1.0) < 1e-16)
            {
                break;
            }
        }
        return StrictMath.exp(-x * x) / SQRT_PI / f;
    }

    /**
     * The inverse of Φ: the z with Φ(z) = p. {@code inverseCdf(0.5) = 0}, {@code inverseCdf(1e-300) = -37.047}.
     *
     * @param p in [0, 1]; 0 and 1 give the infinities.
     * @return z.
     */
    static double inverseCdf(final double p)
    {
        if (!(p >= 0.0 && p <= 1.0))
        {
            throw new IllegalArgumentException("p must be in [0, 1]: " + p);
        }
        if (p == 0.0)
        {
            return Double.NEGATIVE_INFINITY;
        }
        if (p == 1.0)
        {
            return Double.POSITIVE_INFINITY;
        }
        final double z = acklam(p);
        // One Halley step on f(z) = Φ(z) - p. Above the median the error is taken from the upper tail, so that it
        // does not cancel: Φ(z) - p = (1 - p) - (1 - Φ(z)).
        final double error = p > 0.5 ? (1.0 - p) - upperTail(z) : cdf(z) - p;
        final double u = error * SQRT_2PI * StrictMath.exp(0.5 * z * z);
        return z - u / (1.0 + 0.5 * z * u);
    }

    private static double acklam(final double p)
    {
        if (p < ACKLAM_P_LOW)
        {
            return tail(StrictMath.sqrt(-2.0 * StrictMath.log(p)));
        }
        if (p > 1.0 - ACKLAM_P_LOW)
        {
            return -tail(StrictMath.sqrt(-2.0 * StrictMath.log1p(-p)));
        }
        final double q = p - 0.5;
        final double r = q * q;
        final double[] a = ACKLAM_A;
        final double[] b = ACKLAM_B;
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
    }

    private static double tail(final double q)
    {
        final double[] c = ACKLAM_C;
        final double[] d = ACKLAM_D;
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    }
}
