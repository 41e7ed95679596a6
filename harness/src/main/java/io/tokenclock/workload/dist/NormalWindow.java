package io.tokenclock.workload.dist;

/**
 * A standard normal Z restricted to a window [zLo, zHi]: the common core of {@link TruncatedNormal} (X = mean +
 * stdev·Z) and {@link LogNormal} (X = median·exp(sigma·Z)).
 * <p>
 * Why it works in one tail or the other: a window far out in the upper tail, say [6, 7], has Φ(6) = 1 - 9.9e-10 and
 * Φ(7) = 1 - 1.3e-12, so Φ(zLo) + u·(Φ(zHi) - Φ(zLo)) keeps only 7 significant digits of the position inside the
 * window. Its upper-tail probabilities, 9.9e-10 and 1.3e-12, are exact to 15 digits, so a window above the median is
 * mapped through them instead.
 */
final class NormalWindow
{
    private final double zLo;
    private final double zHi;
    private final boolean upper;
    private final double tailLo;
    private final double tailHi;
    private final double mass;

    /**
     * @param zLo lower end of the window, may be -∞.
     * @param zHi upper end, > zLo, may be +∞.
     * @param what the distribution, for the error message when the window holds no probability.
     */
    NormalWindow(final double zLo, final double zHi, final String what)
    {
        this.zLo = zLo;
        this.zHi = zHi;
        this.upper = zLo > 0.0;
        this.tailLo = upper ? Gaussian.upperTail(zLo) : Gaussian.cdf(zLo);
        this.tailHi = upper ? Gaussian.upperTail(zHi) : Gaussian.cdf(zHi);
        this.mass = upper ? tailLo - tailHi : tailHi - tailLo;
        if (!(mass > 0.0))
        {
            throw new IllegalArgumentException(
                "[min, max] holds no probability (window z in [" + zLo + ", " + zHi + "]): " + what);
        }
    }

    /** @return the probability of the window under the untruncated normal, Φ(zHi) - Φ(zLo). */
    double mass()
    {
        return mass;
    }

    double zLo()
    {
        return zLo;
    }

    double zHi()
    {
        return zHi;
    }

    /** @return the z at probability u in [0, 1] of the window, inside [zLo, zHi]. */
    double quantile(final double u)
    {
        final double z = upper ?
            -Gaussian.inverseCdf(tailLo - u * mass) :
            Gaussian.inverseCdf(tailLo + u * mass);
        return Math.min(zHi, Math.max(zLo, z));
    }

    /** @return P(Z <= z | Z in window), in [0, 1]. */
    double cdf(final double z)
    {
        if (!(z > zLo))
        {
            return 0.0;
        }
        if (z >= zHi)
        {
            return 1.0;
        }
        final double p = upper ? (tailLo - Gaussian.upperTail(z)) / mass : (Gaussian.cdf(z) - tailLo) / mass;
        return Math.min(1.0, Math.max(0.0, p));
    }
}
