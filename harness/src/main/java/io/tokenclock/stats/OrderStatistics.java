package io.tokenclock.stats;

/**
 * Distribution-free confidence bounds for a quantile, from order statistics: how far a reported p99 can be trusted
 * given how many samples it rests on, whatever the latency distribution is.
 * <p>
 * Why it works: of n independent samples, the number B that fall below the true p-quantile is Binomial(n, p), so the
 * k-th smallest sample lies above the quantile exactly when B &lt; k. The ranks of a two-sided 95% interval are the
 * binomial's 2.5% and 97.5% points. Worked example: with n = 1,000 samples, the true p99 lies between the 983rd and
 * the 997th smallest sample with at least 95% confidence; with n = 100 the upper end would be the 101st sample, which
 * does not exist, so no upper bound is possible: a p99 from 100 requests is its largest sample and says nothing
 * about how much larger the true p99 may be. A one-sided upper bound needs {@code ln(1 - level) / ln(p)} samples:
 * 299 for a p99 at 95% (the idea behind MLPerf LoadGen's minimum query counts and early-stopping estimate).
 * <p>
 * Stateless and thread-safe.
 */
public final class OrderStatistics
{
    /**
     * The 1-based ranks of an interval; a side that needs a sample beyond the data is 0 (no lower bound) or n + 1 (no
     * upper bound).
     */
    public record Ranks(long lower, long upper, long n)
    {
        public boolean hasLower()
        {
            return lower >= 1;
        }

        public boolean hasUpper()
        {
            return upper <= n;
        }
    }

    private OrderStatistics()
    {
    }

    /**
     * @param n     samples.
     * @param p     the quantile, in (0, 1), e.g. 0.99.
     * @param level the two-sided coverage, e.g. 0.95.
     * @return the ranks l and u with P(x(l) &lt;= true quantile &lt;= x(u)) &gt;= level.
     */
    public static Ranks interval(final long n, final double p, final double level)
    {
        check(n, p, level);
        final double tail = (1 - level) / 2;
        long lower = 0;
        long upper = n + 1;
        double cdf = 0;
        for (long k = 0; k <= n; k++)
        {
            cdf += pmf(n, k, p);
            if (cdf <= tail)
            {
                lower = k + 1; // P(B <= k) <= tail: the (k + 1)-th sample is below the quantile with that much to spare
            }
            if (cdf >= 1 - tail - 1e-12)
            {
                upper = k + 1;
                break;
            }
        }
        return new Ranks(lower, upper, n);
    }

    /** @return the fewest samples for which the largest one is a one-sided upper bound of the p-quantile at level. */
    public static long minSamplesForUpperBound(final double p, final double level)
    {
        check(1, p, level);
        return (long)Math.ceil(Math.log(1 - level) / Math.log(p) - 1e-9);
    }

    private static double pmf(final long n, final long k, final double p)
    {
        return Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p));
    }

    private static double logChoose(final long n, final long k)
    {
        return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
    }

    /** ln(m!) by Stirling's series beyond 20, exactly below: error under 1e-10 either way. */
    private static double logFactorial(final long m)
    {
        if (m < 20)
        {
            double f = 0;
            for (long i = 2; i <= m; i++)
            {
                f += Math.log(i);
            }
            return f;
        }
        final double x = m;
        return x * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI * x) + 1 / (12 * x) - 1 / (360 * x * x * x);
    }

    private static void check(final long n, final double p, final double level)
    {
        if (n < 1 || !(p > 0 && p < 1) || !(level > 0 && level < 1))
        {
            throw new IllegalArgumentException("need n >= 1, p in (0, 1), level in (0, 1): n=" + n + " p=" + p +
                " level=" + level);
        }
    }
}
