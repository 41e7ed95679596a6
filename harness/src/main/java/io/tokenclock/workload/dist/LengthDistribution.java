package io.tokenclock.workload.dist;

import java.util.SplittableRandom;

/**
 * A distribution of token lengths (input or output), sampled with a caller-supplied seeded generator so that the same
 * seed gives the same workload. Samples are integers >= 1. Implementations are immutable and thread-safe.
 */
public interface LengthDistribution
{
    /** @return one sample, >= 1. */
    int sample(SplittableRandom random);

    /**
     * The inverse CDF: the smallest length whose cumulative probability is >= {@code u}, for {@code u} in (0, 1).
     * Used by the Gaussian copula to correlate input and output lengths while keeping each marginal exact.
     */
    int quantile(double u);

    /**
     * The CDF, P(L <= length). {@link Mixture} needs it: a mixture's quantile is the inverse of the weighted sum of its
     * components' CDFs, which no combination of their quantiles gives. This default recovers it from
     * {@link #quantile(double)} by bisection on u (60 halvings, so exact to 2^-60 for a monotone quantile): for a
     * uniform length on [1, 4], {@code cdf(2)} converges on 0.5 because {@code quantile(u) <= 2} exactly for u <= 0.5.
     * The distributions of this package override it with their closed form.
     *
     * @param length any int; below the support gives 0, at or above its largest length gives 1.
     * @return P(L <= length) in [0, 1].
     */
    default double cdf(final int length)
    {
        if (quantile(Math.nextDown(1.0)) <= length)
        {
            return 1.0;
        }
        double lo = 0.0;
        double hi = 1.0;
        for (int i = 0; i < 60; i++)
        {
            final double mid = 0.5 * (lo + hi);
            if (quantile(mid) <= length)
            {
                lo = mid;
            }
            else
            {
                hi = mid;
            }
        }
        return lo;
    }

    /** @return the distribution's mean, for documentation and tests. */
    double mean();

    /** @return a one-line description for the record, e.g. {@code lognormal(median=512, sigma=0.6, max=4096)}. */
    String describe();
}
