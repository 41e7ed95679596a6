package io.tokenclock.stats;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The simulation behind {@link SmallSample}'s coverage figures and docs/METRICS.md's "Run-to-run intervals": for n = 2
 * to 15 values of normal data (mean 0, sd 1), how often the nominal 95% intervals hold the true value, and how often
 * an A/B of two identical variants (n runs a side) is called "differs" by the bootstrap alone and by
 * {@link SmallSample#verdict} (the bootstrap and Welch's t both). Not a test: run by hand, its output committed in
 * results/stats/README.md:
 * <pre>
 * java -cp harness/target/classes:harness/target/test-classes io.tokenclock.stats.CoverageSimulation [SETS] [SEED]
 * </pre>
 */
public final class CoverageSimulation
{
    private CoverageSimulation()
    {
    }

    /** One row of the simulation: n and its rates, each a fraction. */
    record Row(int n, double meanBootstrap, double meanT, double diffBootstrap, double diffWelch,
        double falseDiffersBootstrap, double falseDiffersRule)
    {
    }

    /** @return the row for {@code n} values (per side), over {@code sets} simulated data sets. */
    static Row simulate(final int n, final int sets, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed + n);
        int meanB = 0;
        int meanT = 0;
        int diffB = 0;
        int diffW = 0;
        int falseB = 0;
        int falseRule = 0;
        for (int s = 0; s < sets; s++)
        {
            final double[] a = normal(random, n);
            final double[] b = normal(random, n);
            final long resampleSeed = random.nextLong();
            meanB += Bootstrap.interval(a, Bootstrap::mean, 0.95, resampleSeed).contains(0) ? 1 : 0;
            meanT += StudentT.mean(a, 0.95).contains(0) ? 1 : 0;
            final Bootstrap.Interval boot = Bootstrap.difference(a, b, Bootstrap::mean, 0.95, resampleSeed);
            final Bootstrap.Interval welch = StudentT.welch(a, b, 0.95);
            diffB += boot.contains(0) ? 1 : 0;
            diffW += welch.contains(0) ? 1 : 0;
            falseB += boot.contains(0) ? 0 : 1;
            falseRule += SmallSample.verdict(boot, welch) == SmallSample.Verdict.DIFFERS ? 1 : 0;
        }
        final double d = sets;
        return new Row(n, meanB / d, meanT / d, diffB / d, diffW / d, falseB / d, falseRule / d);
    }

    private static double[] normal(final SplittableRandom random, final int n)
    {
        final double[] v = new double[n];
        for (int i = 0; i < n; i++)
        {
            // Box-Muller: SplittableRandom has no nextGaussian of its own before JDK 17's RandomGenerator default.
            v[i] = Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
        }
        return v;
    }

    /**
     * Prints the table.
     *
     * @param args data sets per n (default 4000) and the seed (default 38).
     */
    public static void main(final String[] args)
    {
        final int sets = args.length > 0 ? Integer.parseInt(args[0]) : 4000;
        final long seed = args.length > 1 ? Long.parseLong(args[1]) : 38;
        System.out.printf(Locale.ROOT, "%d data sets per n, normal(0, 1), %d resamples, seed %d%n", sets,
            Bootstrap.RESAMPLES, seed);
        System.out.println("| n | mean: bootstrap covers | mean: t covers | B - A: bootstrap covers | B - A: Welch " +
            "covers | A = B called differs: bootstrap alone | A = B called differs: bootstrap and Welch |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (int n = 2; n <= 15; n++)
        {
            final Row r = simulate(n, sets, seed);
            System.out.printf(Locale.ROOT, "| %d | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% |%n", n,
                100 * r.meanBootstrap(), 100 * r.meanT(), 100 * r.diffBootstrap(), 100 * r.diffWelch(),
                100 * r.falseDiffersBootstrap(), 100 * r.falseDiffersRule());
        }
    }
}
