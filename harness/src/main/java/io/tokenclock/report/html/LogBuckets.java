package io.tokenclock.report.html;

/**
 * Coarse histograms of positive durations, one per time bin, for the report's over-time charts: buckets 2% wide on a
 * log scale from 1 µs to about 2.5 hours, so that a percentile read from them is within 1% of the true value, in a
 * fixed 800 ints per bin whatever the number of requests (a run of 100,000 requests with a million gaps costs no more
 * than one of ten). Exact distributions are in record.json; these only draw lines.
 */
final class LogBuckets
{
    private static final double RATIO = 1.02;
    private static final double LOG_RATIO = Math.log(RATIO);
    private static final int BUCKETS = 800;

    private final int[][] counts;
    private final long[] totals;

    LogBuckets(final int bins)
    {
        counts = new int[bins][];
        totals = new long[bins];
    }

    /** Adds a duration in ns to time bin {@code bin}; an undefined (negative) one, or one outside the bins, is not. */
    void add(final int bin, final long ns)
    {
        if (ns < 0 || bin < 0 || bin >= counts.length)
        {
            return;
        }
        if (counts[bin] == null)
        {
            counts[bin] = new int[BUCKETS];
        }
        counts[bin][bucket(ns)]++;
        totals[bin]++;
    }

    private static int bucket(final long ns)
    {
        final double us = ns / 1e3;
        if (us <= 1)
        {
            return 0;
        }
        return (int)Math.min(BUCKETS - 1, 1 + Math.floor(Math.log(us) / LOG_RATIO));
    }

    /** @return the {@code p} quantile (0-1) of bin {@code bin} in ms, or null when the bin holds nothing. */
    Double quantileMs(final int bin, final double p)
    {
        if (totals[bin] == 0)
        {
            return null;
        }
        final long rank = Math.max(1, (long)Math.ceil(p * totals[bin]));
        long seen = 0;
        final int[] c = counts[bin];
        for (int b = 0; b < BUCKETS; b++)
        {
            seen += c[b];
            if (seen >= rank)
            {
                return b == 0 ? 0.001 : Math.pow(RATIO, b - 0.5) / 1e3;
            }
        }
        return null;
    }

    int bins()
    {
        return counts.length;
    }
}
