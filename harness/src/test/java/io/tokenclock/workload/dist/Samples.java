package io.tokenclock.workload.dist;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Seeded samples of a length distribution and the few statistics the tests compare with declared values.
 */
final class Samples
{
    static final int DRAWS = 100_000;

    final int[] values;
    final double mean;
    final double stdev;

    private Samples(final int[] values)
    {
        this.values = values;
        double sum = 0;
        for (final int v : values)
        {
            sum += v;
        }
        this.mean = sum / values.length;
        double squares = 0;
        for (final int v : values)
        {
            squares += (v - mean) * (v - mean);
        }
        this.stdev = Math.sqrt(squares / (values.length - 1));
    }

    static Samples of(final LengthDistribution distribution, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final int[] values = new int[DRAWS];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = distribution.sample(random);
        }
        return new Samples(values);
    }

    /** @return the standard error of the sample mean. */
    double standardError()
    {
        return stdev / Math.sqrt(values.length);
    }

    double fractionAtMost(final int k)
    {
        int n = 0;
        for (final int v : values)
        {
            n += v <= k ? 1 : 0;
        }
        return (double)n / values.length;
    }

    double fractionEqual(final int k)
    {
        int n = 0;
        for (final int v : values)
        {
            n += v == k ? 1 : 0;
        }
        return (double)n / values.length;
    }

    double median()
    {
        final int[] sorted = values.clone();
        Arrays.sort(sorted);
        return 0.5 * (sorted[(sorted.length - 1) / 2] + sorted[sorted.length / 2]);
    }

    int min()
    {
        return Arrays.stream(values).min().orElseThrow();
    }

    int max()
    {
        return Arrays.stream(values).max().orElseThrow();
    }

    /** @return ranks 1..n of {@code values}, ties given their average rank. */
    static double[] ranks(final int[] values)
    {
        final int n = values.length;
        final Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++)
        {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(values[a], values[b]));
        final double[] ranks = new double[n];
        int i = 0;
        while (i < n)
        {
            int j = i;
            while (j + 1 < n && values[order[j + 1]] == values[order[i]])
            {
                j++;
            }
            final double averageRank = 0.5 * (i + j) + 1;
            for (int k = i; k <= j; k++)
            {
                ranks[order[k]] = averageRank;
            }
            i = j + 1;
        }
        return ranks;
    }

    /** @return Spearman's rank correlation: Pearson's correlation of the (tie-averaged) ranks. */
    static double spearman(final int[] x, final int[] y)
    {
        final double[] rx = ranks(x);
        final double[] ry = ranks(y);
        final double mean = (x.length + 1) / 2.0;
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < x.length; i++)
        {
            sxy += (rx[i] - mean) * (ry[i] - mean);
            sxx += (rx[i] - mean) * (rx[i] - mean);
            syy += (ry[i] - mean) * (ry[i] - mean);
        }
        return sxy / Math.sqrt(sxx * syy);
    }
}
