package io.tokenclock.workload.dist;

import java.util.SplittableRandom;

/**
 * A log-normal length, the usual shape of prompt and completion lengths in production traces (most short, a long
 * right tail): ln(x) is N(ln(median), sigma²), truncated to [min, max] and rounded to the nearest integer the same
 * way as {@link TruncatedNormal} (x conditioned on min - 0.5 <= x < max + 0.5 stands for the nearest length).
 * <p>
 * Parameterised by the median rather than μ because the median is what one reads off a trace. Example:
 * {@code new LogNormal(512, 0.6, 1, 8192)} has median 512, quartiles 512·e^(±0.6·0.674) = 342 and 767, and mean
 * 512·e^(0.6²/2) = 613 (the right tail pulls the mean above the median; the 8192 cap removes 2e-6 of the mass).
 */
public final class LogNormal implements LengthDistribution
{
    private final double median;
    private final double sigma;
    private final double mu;
    private final int min;
    private final int max;
    private final NormalWindow window;
    private final double truncatedMean;

    /**
     * @param median median of the log-normal before truncation, finite and > 0.
     * @param sigma standard deviation of ln(length), finite and > 0.
     * @param min smallest length, >= 1.
     * @param max largest length, >= min.
     * @throws IllegalArgumentException naming the bad parameter, or if [min, max] holds no probability at all.
     */
    public LogNormal(final double median, final double sigma, final int min, final int max)
    {
        this.median = DistSupport.requirePositive("median", median);
        this.sigma = DistSupport.requirePositive("sigma", sigma);
        this.min = DistSupport.requireLength("min", min);
        DistSupport.requireOrdered("min", min, "max", max);
        this.max = max;
        this.mu = StrictMath.log(median);
        this.window = new NormalWindow(z(min - 0.5), z(max + 0.5), describe());
        // E[e^(mu + sigma Z); zLo < Z < zHi] = e^(mu + sigma²/2) (Φ(zHi - sigma) - Φ(zLo - sigma)).
        final double continuousMean = StrictMath.exp(mu + 0.5 * sigma * sigma) *
            (Gaussian.cdf(window.zHi() - sigma) - Gaussian.cdf(window.zLo() - sigma)) / window.mass();
        this.truncatedMean = DistSupport.discreteMean(this, min, max, continuousMean);
    }

    private double z(final double x)
    {
        return (StrictMath.log(x) - mu) / sigma;
    }

    @Override
    public int sample(final SplittableRandom random)
    {
        return quantile(random.nextDouble());
    }

    @Override
    public int quantile(final double u)
    {
        DistSupport.requireProbability(u);
        return DistSupport.toLength(StrictMath.exp(mu + sigma * window.quantile(u)), min, max);
    }

    @Override
    public double cdf(final int k)
    {
        if (k < min)
        {
            return 0.0;
        }
        return k >= max ? 1.0 : window.cdf(z(k + 0.5));
    }

    /** @return the mean of the truncated, rounded lengths. */
    @Override
    public double mean()
    {
        return truncatedMean;
    }

    @Override
    public String describe()
    {
        return "lognormal(median=" + DistSupport.format(median) + ", sigma=" + DistSupport.format(sigma) +
            ", min=" + min + ", max=" + max + ")";
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
