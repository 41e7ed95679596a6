package io.tokenclock.load;

import java.util.SplittableRandom;

/**
 * The gaps between intended request starts of an open-loop run, drawn from a seeded generator so that the same seed
 * gives the same schedule, byte for byte.
 * <p>
 * All three processes have mean gap {@code 1/rate}; they differ in burstiness, measured by the coefficient of
 * variation (CV = stdev/mean) of the gaps:
 * <ul>
 * <li>{@code constant}: every gap is exactly {@code 1/rate}; CV = 0.</li>
 * <li>{@code poisson}: exponential gaps; CV = 1. Arrivals in a window of length t are Poisson with mean and variance
 * {@code rate * t}.</li>
 * <li>{@code gamma}: gamma-distributed gaps with shape k ({@code --burstiness}) and scale {@code 1/(k*rate)};
 * CV = 1/sqrt(k). k = 1 is Poisson, k &lt; 1 burstier, k &gt; 1 smoother. This matches vLLM {@code bench serve}'s
 * {@code --burstiness}.</li>
 * </ul>
 * Example: rate 4/s, gamma k = 0.25 gives mean gap 250 ms with CV 2: long lulls, then bursts.
 * Not thread-safe; one per load generator.
 */
public final class ArrivalProcess
{
    /** Kinds of arrival process. */
    public enum Kind
    {
        CONSTANT, POISSON, GAMMA
    }

    private final Kind kind;
    private final double meanGapNs;
    private final double shape;
    private final SplittableRandom random;

    private ArrivalProcess(final Kind kind, final double ratePerSecond, final double shape, final long seed)
    {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond))
        {
            throw new IllegalArgumentException("rate must be a positive finite number of requests/s: " + ratePerSecond);
        }
        if (!(shape > 0) || Double.isInfinite(shape))
        {
            throw new IllegalArgumentException("burstiness must be a positive finite number: " + shape);
        }
        this.kind = kind;
        this.meanGapNs = 1e9 / ratePerSecond;
        this.shape = shape;
        this.random = new SplittableRandom(seed);
    }

    public static ArrivalProcess constant(final double ratePerSecond)
    {
        return new ArrivalProcess(Kind.CONSTANT, ratePerSecond, 1.0, 0);
    }

    public static ArrivalProcess poisson(final double ratePerSecond, final long seed)
    {
        return new ArrivalProcess(Kind.POISSON, ratePerSecond, 1.0, seed);
    }

    public static ArrivalProcess gamma(final double ratePerSecond, final double burstiness, final long seed)
    {
        return new ArrivalProcess(Kind.GAMMA, ratePerSecond, burstiness, seed);
    }

    /**
     * @return the process of {@code kind}; gamma alone reads {@code burstiness}, all but constant read {@code seed}.
     */
    public static ArrivalProcess of(final Kind kind, final double rate, final double burstiness, final long seed)
    {
        return switch (kind)
        {
            case CONSTANT -> constant(rate);
            case POISSON -> poisson(rate, seed);
            case GAMMA -> gamma(rate, burstiness, seed);
        };
    }

    public Kind kind()
    {
        return kind;
    }

    /** @return the next gap in nanoseconds (>= 0). */
    public double nextGapNs()
    {
        return switch (kind)
        {
            case CONSTANT -> meanGapNs;
            case POISSON -> -StrictMath.log(1.0 - random.nextDouble()) * meanGapNs;
            case GAMMA -> sampleGamma(shape) * meanGapNs / shape;
        };
    }

    /**
     * Marsaglia and Tsang's method for Gamma(shape, 1); for shape &lt; 1 it draws Gamma(shape + 1) and scales by
     * U^(1/shape).
     */
    private double sampleGamma(final double k)
    {
        if (k < 1.0)
        {
            final double u = random.nextDouble();
            return sampleGamma(k + 1.0) * StrictMath.pow(u == 0.0 ? Double.MIN_VALUE : u, 1.0 / k);
        }
        final double d = k - 1.0 / 3.0;
        final double c = 1.0 / Math.sqrt(9.0 * d);
        while (true)
        {
            double x;
            double v;
            do
            {
                x = nextGaussian();
                v = 1.0 + c * x;
            }
            while (v <= 0.0);
            v = v * v * v;
            final double u = random.nextDouble();
            if (u < 1.0 - 0.0331 * x * x * x * x)
            {
                return d * v;
            }
            if (StrictMath.log(u) < 0.5 * x * x + d * (1.0 - v + StrictMath.log(v)))
            {
                return d * v;
            }
        }
    }

    private double nextGaussian()
    {
        // Box-Muller spelled out rather than RandomGenerator.nextGaussian(), whose algorithm may change between
        // JDKs: a seed must give the same schedule on every JDK >= 21.
        final double u1 = 1.0 - random.nextDouble();
        final double u2 = random.nextDouble();
        return Math.sqrt(-2.0 * StrictMath.log(u1)) * StrictMath.cos(2.0 * Math.PI * u2);
    }
}
