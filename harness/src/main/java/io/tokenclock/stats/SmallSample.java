package io.tokenclock.stats;

import java.util.Locale;

/**
 * What an interval over a few runs may be said to show, in one place for every printer ({@code ab},
 * {@code run --repetitions}, {@code compare}, {@code record}, report.html).
 * <p>
 * The rule (docs/METRICS.md, "Run-to-run intervals"):
 * <ul>
 * <li>a difference is called {@link Verdict#DIFFERS} only when both the percentile bootstrap and Welch's t interval
 * ({@link StudentT#welch}) exclude 0. When the bootstrap excludes 0 and the t interval does not, the verdict is
 * {@link Verdict#TOO_FEW}: at that n the bootstrap alone would claim more than the data hold;</li>
 * <li>beside a bootstrap interval over fewer than {@link Bootstrap#N_NEAR_NOMINAL_COVERAGE} values (per side), the
 * printers say what it covers ({@link #caveat}): {@code range} for 2 or 3 values (it is exactly [min, max]), else
 * the coverage the simulation found at that n ({@link #coveragePercent}).</li>
 * </ul>
 * Worked example: A = {10.1, 12.3, 11.0} and B = {9.2, 9.6, 8.1}, 3 runs a side: the bootstrap interval of
 * mean(B) - mean(A) is [-3.400, -0.933] (seed 42), Welch's is [-4.435, 0.102]: the verdict is "n too small to tell".
 * For the same data simulated with no true difference, the bootstrap alone calls 17.9% of such A/Bs "differs" at 3
 * runs a side, this rule 2.5%.
 * Stateless and thread-safe.
 */
public final class SmallSample
{
    /**
     * The simulated coverage of the nominal 95% percentile bootstrap interval of a mean, in %, for n = 2 .. 11 values
     * of normal data, index n; from 12 on about 91% (results/stats/README.md: {@code CoverageSimulation}, 1,500 data
     * sets per n, 10,000 resamples each, seed 38).
     */
    private static final int[] MEAN_COVERAGE = {0, 0, 49, 76, 80, 84, 86, 87, 90, 90, 90, 91, 91};
    /** The same for the interval of a difference of two means, n values a side; from 12 on about 93%. */
    private static final int[] DIFFERENCE_COVERAGE = {0, 0, 66, 82, 85, 88, 89, 90, 92, 91, 93, 93, 93};

    /** How a difference over few runs reads. */
    public enum Verdict
    {
        /** Both intervals exclude 0. */
        DIFFERS("differs"),
        /** The bootstrap interval holds 0. */
        WITHIN_NOISE("within noise"),
        /** The bootstrap interval excludes 0 but Welch's t interval at the same n holds it. */
        TOO_FEW("n too small to tell");

        private final String label;

        Verdict(final String label)
        {
            this.label = label;
        }

        /** @return the words printed and written ({@code differs}, {@code within noise}, {@code n too small ...}). */
        public String label()
        {
            return label;
        }
    }

    private SmallSample()
    {
    }

    /**
     * @param bootstrap the percentile bootstrap interval of the difference.
     * @param t         Welch's t interval of the same difference.
     * @return the verdict; null when the bootstrap has no interval (a side with one run).
     */
    public static Verdict verdict(final Bootstrap.Interval bootstrap, final Bootstrap.Interval t)
    {
        if (bootstrap == null || Double.isNaN(bootstrap.low()) || Double.isNaN(bootstrap.high()))
        {
            return null;
        }
        if (bootstrap.contains(0))
        {
            return Verdict.WITHIN_NOISE;
        }
        final boolean tExcludes = t != null && !Double.isNaN(t.low()) && !t.contains(0);
        return tExcludes ? Verdict.DIFFERS : Verdict.TOO_FEW;
    }

    /**
     * @param n the values the interval rests on (for a difference: the fewer of the two sides).
     * @return the simulated coverage of the nominal 95% bootstrap interval of a mean at {@code n}, in %; 0 below 2.
     */
    public static int coveragePercent(final int n)
    {
        return n < 2 ? 0 : MEAN_COVERAGE[Math.min(n, MEAN_COVERAGE.length - 1)];
    }

    /**
     * @param n the runs a side (the fewer of the two).
     * @return the simulated coverage of the nominal 95% bootstrap interval of a difference of means, in %; 0 below 2.
     */
    public static int differenceCoveragePercent(final int n)
    {
        return n < 2 ? 0 : DIFFERENCE_COVERAGE[Math.min(n, DIFFERENCE_COVERAGE.length - 1)];
    }

    /**
     * @param n the values the interval rests on.
     * @return what to print beside a bootstrap interval over {@code n} values: {@code range} (2 or 3: it is exactly
     * [min, max]), {@code covers ~K%} below {@link Bootstrap#N_NEAR_NOMINAL_COVERAGE}, else an empty string.
     */
    public static String caveat(final int n)
    {
        if (n < Bootstrap.MIN_N_NARROWER_THAN_RANGE)
        {
            return "range";
        }
        return n < Bootstrap.N_NEAR_NOMINAL_COVERAGE ? String.format(Locale.ROOT, "covers ~%d%%",
            coveragePercent(n)) : "";
    }
}
