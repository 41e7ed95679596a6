package io.tokenclock.workload.dist;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Argument checks, the rounding rule and number formatting shared by the distributions of this package, so that every
 * one rejects bad arguments with the same kind of one-line message and describes itself in the same number format.
 */
final class DistSupport
{
    /** Above this many lengths of effective support, {@link #discreteMean} gives way to the continuous mean. */
    static final int MAX_SUMMED_LENGTHS = 1 << 16;

    /** The probability left out at each end when summing a mean over the effective support. */
    static final double NEGLIGIBLE_TAIL = 1e-13;

    private DistSupport()
    {
    }

    static int requireLength(final String name, final int value)
    {
        if (value < 1)
        {
            throw new IllegalArgumentException(name + " must be >= 1: " + value);
        }
        return value;
    }

    static void requireOrdered(final String minName, final int min, final String maxName, final int max)
    {
        if (max < min)
        {
            throw new IllegalArgumentException(maxName + " must be >= " + minName + " (" + min + "): " + max);
        }
    }

    static double requirePositive(final String name, final double value)
    {
        if (!(value > 0.0) || Double.isInfinite(value))
        {
            throw new IllegalArgumentException(name + " must be finite and > 0: " + value);
        }
        return value;
    }

    static double requireFinite(final String name, final double value)
    {
        if (!Double.isFinite(value))
        {
            throw new IllegalArgumentException(name + " must be finite: " + value);
        }
        return value;
    }

    /** @throws IllegalArgumentException unless u is in [0, 1] (the interface asks for (0, 1); both ends are fine). */
    static double requireProbability(final double u)
    {
        if (!(u >= 0.0 && u <= 1.0))
        {
            throw new IllegalArgumentException("u must be in [0, 1]: " + u);
        }
        return u;
    }

    /**
     * The rounding rule of the continuous families: a real x stands for the length nearest to it, and a length k
     * collects the real interval [k - 0.5, k + 0.5). So the quantile of u, the smallest k with P(X < k + 0.5) >= u, is
     * ceil(x - 0.5) for x = F⁻¹(u): 511.5 and 512.49 both give 512. Clamped to [min, max] against rounding at the ends.
     */
    static int toLength(final double x, final int min, final int max)
    {
        final double k = Math.ceil(x - 0.5);
        if (!(k > min))
        {
            return min;
        }
        return k >= max ? max : (int)k;
    }

    /**
     * The exact mean of an integer distribution on [min, max] from its CDF, E[L] = min + Σ P(L > k) for k in
     * [min, max), summed over the lengths between the {@link #NEGLIGIBLE_TAIL} quantiles (below the lower one
     * P(L > k) is 1 to 13 digits, above the upper one it is 0 to 13 digits). For example a uniform on [1, 4] gives
     * 1 + (0.75 + 0.5 + 0.25) = 2.5. When that range holds more than {@link #MAX_SUMMED_LENGTHS} lengths, rounding to
     * integers no longer moves the mean measurably, and {@code continuousMean} is returned instead.
     */
    static double discreteMean(final LengthDistribution d, final int min, final int max, final double continuousMean)
    {
        final int lo = Math.max(min, d.quantile(NEGLIGIBLE_TAIL));
        final int hi = Math.min(max, d.quantile(1.0 - NEGLIGIBLE_TAIL));
        if ((long)hi - lo > MAX_SUMMED_LENGTHS)
        {
            return continuousMean;
        }
        double sum = lo;
        for (int k = lo; k < hi; k++)
        {
            sum += 1.0 - d.cdf(k);
        }
        return sum;
    }

    /** @return a locale-independent short form of a parameter: 512.0 gives "512", 0.60 gives "0.6". */
    static String format(final double value)
    {
        if (!Double.isFinite(value))
        {
            return Double.toString(value);
        }
        final BigDecimal decimal = BigDecimal.valueOf(value).round(MathContext.DECIMAL64).stripTrailingZeros();
        return decimal.scale() < 0 ? decimal.setScale(0).toPlainString() : decimal.toPlainString();
    }

    /** @return a measured value to 6 significant digits: 512.34567 gives "512.346". */
    static String formatMeasured(final double value)
    {
        if (!Double.isFinite(value))
        {
            return Double.toString(value);
        }
        final BigDecimal decimal = new BigDecimal(value).round(new MathContext(6)).stripTrailingZeros();
        return decimal.scale() < 0 ? decimal.setScale(0).toPlainString() : decimal.toPlainString();
    }
}
