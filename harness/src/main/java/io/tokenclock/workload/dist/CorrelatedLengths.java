package io.tokenclock.workload.dist;

import java.util.SplittableRandom;

/**
 * Input and output lengths drawn together with a chosen dependence, each keeping its own distribution exactly: a
 * Gaussian copula. Real traces show such dependence (long documents ask for long summaries; in other workloads long
 * prompts get short answers), and it matters for a benchmark because a server's cost per request is roughly
 * prefill(input) + decode(output), whose variance depends on how the two move together.
 * <p>
 * One draw: (z1, w) are two independent standard normals from Box-Muller on the seeded generator; z2 = ρ·z1 +
 * √(1 - ρ²)·w is standard normal with correlation ρ to z1; then u1 = Φ(z1) and u2 = Φ(z2) are each uniform on (0, 1)
 * (so the marginals are untouched), and the lengths are {@code input.quantile(u1)} and {@code output.quantile(u2)}.
 * <p>
 * ρ is the correlation of the underlying normals, not of the lengths. What survives any monotone marginal is the rank
 * correlation: Spearman's ρₛ = (6/π)·asin(ρ/2), so ρ = 0.8 gives ρₛ = 0.786 and ρ = -0.5 gives -0.483 (with
 * marginals that have many distinct lengths; ties in narrow discrete marginals pull it towards 0).
 * <p>
 * Box-Muller and Φ are implemented here with {@link StrictMath}, so a seed gives the same pairs on every JDK.
 */
public final class CorrelatedLengths
{
    private static final double TWO_PI = 2.0 * Math.PI;

    private final LengthDistribution input;
    private final LengthDistribution output;
    private final double rho;
    private final double rhoComplement;

    /**
     * @param input the distribution of input lengths.
     * @param output the distribution of output lengths.
     * @param rho the correlation of the Gaussian copula, in [-1, 1]; 0 gives independent lengths.
     * @throws IllegalArgumentException naming the bad parameter.
     */
    public CorrelatedLengths(final LengthDistribution input, final LengthDistribution output, final double rho)
    {
        if (input == null)
        {
            throw new IllegalArgumentException("input must not be null");
        }
        if (output == null)
        {
            throw new IllegalArgumentException("output must not be null");
        }
        if (!(rho >= -1.0 && rho <= 1.0))
        {
            throw new IllegalArgumentException("rho must be in [-1, 1]: " + rho);
        }
        this.input = input;
        this.output = output;
        this.rho = rho;
        this.rhoComplement = StrictMath.sqrt(1.0 - rho * rho);
    }

    public LengthDistribution input()
    {
        return input;
    }

    public LengthDistribution output()
    {
        return output;
    }

    public double rho()
    {
        return rho;
    }

    /**
     * Draws one pair; consumes exactly two doubles from {@code random}.
     *
     * @param random the seeded generator.
     * @return the input and output length.
     */
    public Lengths sample(final SplittableRandom random)
    {
        // Box-Muller: 1 - nextDouble() is in (0, 1], so the logarithm is finite.
        final double radius = StrictMath.sqrt(-2.0 * StrictMath.log(1.0 - random.nextDouble()));
        final double angle = TWO_PI * random.nextDouble();
        final double z1 = radius * StrictMath.cos(angle);
        final double w = radius * StrictMath.sin(angle);
        final double z2 = rho * z1 + rhoComplement * w;
        return new Lengths(input.quantile(Gaussian.cdf(z1)), output.quantile(Gaussian.cdf(z2)));
    }

    /** @return Spearman's rank correlation of the pairs for continuous marginals, (6/π)·asin(ρ/2). */
    public double spearmanRho()
    {
        return 6.0 / Math.PI * StrictMath.asin(rho / 2.0);
    }

    /** @return the distribution as the workload's text gives it, for the record and the console. */
    public String describe()
    {
        return "gaussian_copula(rho=" + DistSupport.format(rho) + ", input=" + input.describe() + ", output=" +
            output.describe() + ")";
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
