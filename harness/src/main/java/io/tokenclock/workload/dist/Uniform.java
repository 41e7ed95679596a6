package io.tokenclock.workload.dist;

import java.util.SplittableRandom;

/**
 * Lengths equally likely on [min, max], both ends included: {@code new Uniform(1, 4)} gives 1, 2, 3 and 4 a quarter
 * of the time each, mean 2.5.
 * <p>
 * A sample is {@code quantile(random.nextDouble())}, so that sampling and the copula of {@link CorrelatedLengths} see
 * the same mapping from u to length: u in [0, 0.25] gives 1, (0.25, 0.5] gives 2, and so on.
 */
public final class Uniform implements LengthDistribution
{
    private final int min;
    private final int max;
    private final long size;

    /**
     * @param min smallest length, >= 1.
     * @param max largest length, >= min.
     * @throws IllegalArgumentException naming the bad parameter.
     */
    public Uniform(final int min, final int max)
    {
        this.min = DistSupport.requireLength("min", min);
        DistSupport.requireOrdered("min", min, "max", max);
        this.max = max;
        this.size = (long)max - min + 1;
    }

    public int min()
    {
        return min;
    }

    public int max()
    {
        return max;
    }

    @Override
    public int sample(final SplittableRandom random)
    {
        return quantile(random.nextDouble());
    }

    /** The smallest k with (k - min + 1) / size >= u, i.e. min - 1 + ceil(u·size); u = 0 gives min. */
    @Override
    public int quantile(final double u)
    {
        DistSupport.requireProbability(u);
        final long offset = (long)Math.ceil(u * size) - 1;
        return (int)(min + Math.max(0, Math.min(size - 1, offset)));
    }

    @Override
    public double cdf(final int k)
    {
        if (k < min)
        {
            return 0.0;
        }
        return k >= max ? 1.0 : ((double)k - min + 1) / size;
    }

    @Override
    public double mean()
    {
        return 0.5 * ((double)min + max);
    }

    @Override
    public String describe()
    {
        return "uniform(min=" + min + ", max=" + max + ")";
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
