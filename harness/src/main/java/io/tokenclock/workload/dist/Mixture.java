package io.tokenclock.workload.dist;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A weighted mixture of length distributions, for workloads that are a blend of request kinds: 70% chat turns of
 * about 200 tokens and 30% retrieval prompts of about 3000 is
 * {@code new Mixture(List.of(7.0, 3.0), List.of(new LogNormal(200, 0.5, 1, 4096), new LogNormal(3000, 0.3, 1, 8192)))}.
 * Weights need only be positive; they are normalised (7 and 3 become 0.7 and 0.3).
 * <p>
 * A sample picks a component with probability equal to its weight and samples it. The quantile has no closed form:
 * it is the smallest k with Σ wᵢ·Fᵢ(k) >= u, found by bisection on k between the smallest and largest of the
 * components' own u-quantiles (the mixture's lies between them, since each Fᵢ is >= u at its own quantile and below u
 * under it). With the example above, quantile(0.5) is 265: the chat turns' median of 200, moved up because 30% of
 * the mass lies far to the right.
 */
public final class Mixture implements LengthDistribution
{
    private final LengthDistribution[] components;
    private final double[] weights;
    private final double[] cumulativeWeights;
    private final double mean;

    /**
     * @param weights one finite weight > 0 per component, in any unit.
     * @param components the distributions mixed, at least one.
     * @throws IllegalArgumentException naming the bad parameter.
     */
    public Mixture(final List<Double> weights, final List<? extends LengthDistribution> components)
    {
        if (weights == null || components == null)
        {
            throw new IllegalArgumentException("weights and components must not be null");
        }
        if (components.isEmpty() || weights.size() != components.size())
        {
            throw new IllegalArgumentException("weights must have one entry per component (at least one): " +
                weights.size() + " weights for " + components.size() + " components");
        }
        final int n = components.size();
        this.components = new LengthDistribution[n];
        this.weights = new double[n];
        this.cumulativeWeights = new double[n];
        double total = 0.0;
        for (int i = 0; i < n; i++)
        {
            final Double weight = weights.get(i);
            if (weight == null || !(weight > 0.0) || weight.isInfinite())
            {
                throw new IllegalArgumentException("weights[" + i + "] must be finite and > 0: " + weight);
            }
            if (components.get(i) == null)
            {
                throw new IllegalArgumentException("components[" + i + "] must not be null");
            }
            this.components[i] = components.get(i);
            total += weight;
        }
        double cumulative = 0.0;
        double mixtureMean = 0.0;
        for (int i = 0; i < n; i++)
        {
            this.weights[i] = weights.get(i) / total;
            cumulative += this.weights[i];
            this.cumulativeWeights[i] = cumulative;
            mixtureMean += this.weights[i] * this.components[i].mean();
        }
        this.cumulativeWeights[n - 1] = 1.0;
        this.mean = mixtureMean;
    }

    /** @return the normalised weights, summing to 1. */
    public List<Double> weights()
    {
        final List<Double> list = new ArrayList<>(weights.length);
        for (final double w : weights)
        {
            list.add(w);
        }
        return Collections.unmodifiableList(list);
    }

    public List<LengthDistribution> components()
    {
        return List.of(components);
    }

    @Override
    public int sample(final SplittableRandom random)
    {
        final double u = random.nextDouble();
        int i = 0;
        while (i < cumulativeWeights.length - 1 && u >= cumulativeWeights[i])
        {
            i++;
        }
        return components[i].sample(random);
    }

    @Override
    public int quantile(final double u)
    {
        DistSupport.requireProbability(u);
        int lo = Integer.MAX_VALUE;
        int hi = 1;
        for (final LengthDistribution component : components)
        {
            final int q = component.quantile(u);
            lo = Math.min(lo, q);
            hi = Math.max(hi, q);
        }
        if (u == 1.0)
        {
            // The top of the support, not the first length where the summed CDF rounds to 1.
            return hi;
        }
        // Invariant: the answer is in [lo, hi]; cdf(hi) >= u holds for exact CDFs, and hi is returned if rounding
        // in a component's CDF says otherwise.
        while (lo < hi)
        {
            final int mid = (int)(((long)lo + hi) >>> 1);
            if (cdf(mid) >= u)
            {
                hi = mid;
            }
            else
            {
                lo = mid + 1;
            }
        }
        return lo;
    }

    @Override
    public double cdf(final int k)
    {
        double p = 0.0;
        for (int i = 0; i < components.length; i++)
        {
            p += weights[i] * components[i].cdf(k);
        }
        return Math.min(1.0, p);
    }

    @Override
    public double mean()
    {
        return mean;
    }

    @Override
    public String describe()
    {
        final StringBuilder sb = new StringBuilder("mixture(");
        for (int i = 0; i < components.length; i++)
        {
            sb.append(i == 0 ? "" : " + ").append(DistSupport.formatMeasured(weights[i])).append('*')
                .append(components[i].describe());
        }
        return sb.append(')').toString();
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
