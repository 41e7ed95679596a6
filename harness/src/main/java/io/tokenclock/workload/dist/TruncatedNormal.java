package io.tokenclock.workload.dist;

import java.util.SplittableRandom;

/**
 * A normal length, truncated to [min, max] and rounded to the nearest integer: a real draw x from N(mean, stdev²)
 * conditioned on min - 0.5 <= x < max + 0.5 stands for the length nearest to it, so each length k in [min, max]
 * collects the same width of the normal curve and nothing piles up at the ends (clamping instead of truncating would
 * put all of the cut-off mass on min and max).
 * <p>
 * Example: {@code new TruncatedNormal(512, 128, 1, 4096)} has mean 512.017 (the window cuts 4 standard deviations
 * below and 28 above, removing 3.2e-5 of the mass); {@code new TruncatedNormal(100, 100, 1, 1000)} cuts 1 standard
 * deviation below, which moves the mean up to 128.9 (= 100 + 100·φ(-0.995)/(1 - Φ(-0.995))).
 */
public final class TruncatedNormal implements LengthDistribution
{
    private final double mean;
    private final double stdev;
    private final int min;
    private final int max;
    private final NormalWindow window;
    private final double truncatedMean;

    /**
     * @param mean mean of the normal before truncation, finite.
     * @param stdev its standard deviation, finite and > 0.
     * @param min smallest length, >= 1.
     * @param max largest length, >= min.
     * @throws IllegalArgumentException naming the bad parameter, or if [min, max] holds no probability at all.
     */
    public TruncatedNormal(final double mean, final double stdev, final int min, final int max)
    {
        this.mean = DistSupport.requireFinite("mean", mean);
        this.stdev = DistSupport.requirePositive("stdev", stdev);
        this.min = DistSupport.requireLength("min", min);
        DistSupport.requireOrdered("min", min, "max", max);
        this.max = max;
        this.window = new NormalWindow(z(min - 0.5), z(max + 0.5), describe());
        final double continuousMean =
            mean + stdev * (Gaussian.density(window.zLo()) - Gaussian.density(window.zHi())) / window.mass();
        this.truncatedMean = DistSupport.discreteMean(this, min, max, continuousMean);
    }

    private double z(final double x)
    {
        return (x - mean) / stdev;
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
        return DistSupport.toLength(mean + stdev * window.quantile(u), min, max);
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

    /** @return the mean of the truncated, rounded lengths (not the {@code mean} parameter, unless nothing is cut). */
    @Override
    public double mean()
    {
        return truncatedMean;
    }

    @Override
    public String describe()
    {
        return "truncated_normal(mean=" + DistSupport.format(mean) + ", stdev=" + DistSupport.format(stdev) +
            ", min=" + min + ", max=" + max + ")";
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
