package io.tokenclock.telemetry;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Prometheus histogram of one family, every label set summed: cumulative bucket counts by upper bound
 * ({@code le}), the sum and the count of the observations. Built from a scrape ({@link #of}); the difference of two
 * scrapes ({@link #minus}) is the histogram of what was observed between them. Immutable and thread-safe.
 */
public final class BucketHistogram
{
    private final double[] upperBounds;
    private final double[] cumulative;
    private final double sum;
    private final double count;

    BucketHistogram(final double[] upperBounds, final double[] cumulative, final double sum, final double count)
    {
        this.upperBounds = upperBounds.clone();
        this.cumulative = cumulative.clone();
        this.sum = sum;
        this.count = count;
    }

    /**
     * @param byName the scrape's samples by name ({@link Scrape#byName()}).
     * @param family the family's name, without {@code _bucket}, {@code _sum} or {@code _count}.
     * @return the family's histogram, every label set summed; null when the scrape has no {@code _count} of it.
     */
    static BucketHistogram of(final Map<String, List<Sample>> byName, final String family)
    {
        final List<Sample> counts = byName.get(family + "_count");
        if (counts == null)
        {
            return null;
        }
        final TreeMap<Double, Double> buckets = new TreeMap<>();
        for (final Sample s : byName.getOrDefault(family + "_bucket", List.of()))
        {
            final String le = s.labels().get("le");
            final double bound = le == null ? Double.NaN : bound(le);
            if (!Double.isNaN(bound))
            {
                buckets.merge(bound, s.value(), Double::sum);
            }
        }
        final double[] bounds = new double[buckets.size()];
        final double[] cumulative = new double[buckets.size()];
        int i = 0;
        for (final Map.Entry<Double, Double> e : buckets.entrySet())
        {
            bounds[i] = e.getKey();
            cumulative[i++] = e.getValue();
        }
        return new BucketHistogram(bounds, cumulative, total(byName.get(family + "_sum")), total(counts));
    }

    /**
     * @return what was observed between {@code earlier} and this, or null when the two cannot be subtracted: other
     * bucket bounds, or a count that went down (the server restarted, or a label set vanished).
     */
    public BucketHistogram minus(final BucketHistogram earlier)
    {
        if (earlier == null || !Arrays.equals(upperBounds, earlier.upperBounds) || count < earlier.count)
        {
            return null;
        }
        final double[] delta = new double[cumulative.length];
        for (int i = 0; i < delta.length; i++)
        {
            delta[i] = cumulative[i] - earlier.cumulative[i];
            if (delta[i] < 0)
            {
                return null;
            }
        }
        return new BucketHistogram(upperBounds, delta, sum - earlier.sum, count - earlier.count);
    }

    /** @return the number of observations. */
    public double count()
    {
        return count;
    }

    /** @return the sum of the observations, in the family's unit (seconds for every latency this maps). */
    public double sum()
    {
        return sum;
    }

    /** @return the mean observation, or NaN when there is none. */
    public double mean()
    {
        return count > 0 ? sum / count : Double.NaN;
    }

    /**
     * The {@code q}-quantile as Prometheus' {@code histogram_quantile} estimates it: linear interpolation inside the
     * bucket the rank falls in (from 0 for the first bucket); the highest finite bound when it falls in the
     * {@code +Inf} bucket. Its error is up to a bucket's width.
     *
     * @return the estimate, or NaN when there are no observations or no buckets.
     */
    public double quantile(final double q)
    {
        final int n = cumulative.length;
        if (n == 0 || cumulative[n - 1] <= 0)
        {
            return Double.NaN;
        }
        final double rank = q * cumulative[n - 1];
        int b = 0;
        while (b < n - 1 && cumulative[b] < rank)
        {
            b++;
        }
        if (Double.isInfinite(upperBounds[b]))
        {
            return b > 0 ? upperBounds[b - 1] : Double.NaN;
        }
        final double start = b == 0 ? Math.min(0, upperBounds[0]) : upperBounds[b - 1];
        final double before = b == 0 ? 0 : cumulative[b - 1];
        final double inBucket = cumulative[b] - before;
        return inBucket <= 0 ? upperBounds[b] : start + (upperBounds[b] - start) * ((rank - before) / inBucket);
    }

    private static double total(final List<Sample> samples)
    {
        double t = 0;
        for (final Sample s : samples == null ? List.<Sample>of() : samples)
        {
            t += s.value();
        }
        return samples == null ? Double.NaN : t;
    }

    private static double bound(final String le)
    {
        try
        {
            return le.equals("+Inf") || le.equalsIgnoreCase("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
        }
        catch (final NumberFormatException ex)
        {
            return Double.NaN;
        }
    }
}
