package io.tokenclock.workload.dist;

import java.util.SplittableRandom;

/**
 * Every request has the same length: {@code new Fixed(128)} samples 128, every time, without drawing from the
 * generator (so adding a fixed output length to a workload does not shift the random stream of its input lengths).
 */
public final class Fixed implements LengthDistribution
{
    private final int length;

    /**
     * @param n the length, >= 1.
     * @throws IllegalArgumentException if n < 1.
     */
    public Fixed(final int n)
    {
        this.length = DistSupport.requireLength("n", n);
    }

    /** @return the length. */
    public int length()
    {
        return length;
    }

    @Override
    public int sample(final SplittableRandom random)
    {
        return length;
    }

    @Override
    public int quantile(final double u)
    {
        DistSupport.requireProbability(u);
        return length;
    }

    @Override
    public double cdf(final int k)
    {
        return k >= length ? 1.0 : 0.0;
    }

    @Override
    public double mean()
    {
        return length;
    }

    @Override
    public String describe()
    {
        return "fixed(n=" + length + ")";
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
