package io.tokenclock.jmh.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The verdict of {@code scripts/jmh-compare --against REF}: two builds of the suite, base (REF) and new (HEAD), run
 * as alternating forks in one schedule (round 1: base, new; round 2: base, new; ...), one JMH JSON file per fork.
 * <p>
 * Why interleaved and paired: on a shared machine the noise that matters is drift (another tenant, thermal state,
 * frequency), which moves both builds' forks of a round alike. Each round gives one ratio new/base of the forks'
 * scores; the verdict rests on the rounds' ratios, not on a comparison with last month's baseline. The interval is
 * the 95% Student-t interval of the mean log-ratio over the rounds (a geometric mean, so a 2x slowdown and a 2x
 * speed-up are symmetric), i.e. the noise this run measured, whatever JMH's per-fork errors say.
 * <p>
 * A benchmark is a <b>regression</b> when the whole interval lies above {@code 1 + threshold} (slower by more than
 * the threshold, beyond the measured noise), an <b>improvement</b> when it lies below {@code 1 / (1 + threshold)},
 * otherwise <b>same</b>. For throughput the ratio is inverted first, so above 1 always means slower. With fewer than
 * two rounds there is no interval and no verdict but same.
 * <p>
 * Usage: {@code InterleavedCompare [--threshold PERCENT] [--markdown] --base A1.json ... --new B1.json ...}, the
 * files of round i at position i on both sides. Exit status: 0 no regression, 1 at least one, 2 bad usage or an
 * unreadable file.
 */
public final class InterleavedCompare
{
    public static final double DEFAULT_THRESHOLD_PERCENT = 5.0;

    /** Two-sided 95% Student-t quantiles for 1..30 degrees of freedom; beyond, the normal's 1.96. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042};

    /**
     * One benchmark's comparison.
     *
     * @param name     the benchmark as displayed.
     * @param rounds   paired rounds used.
     * @param baseMean the base forks' mean score; {@code newMean} likewise.
     * @param unit     the scores' unit.
     * @param ratio    geometric-mean slowdown new/base (inverted for throughput): above 1 is slower.
     * @param low      the interval's lower end; {@code high} its upper end (NaN with one round).
     * @param verdict  regression, improvement or same.
     */
    public record Row(String name, int rounds, double baseMean, double newMean, String unit, double ratio,
        double low, double high, String verdict)
    {
    }

    private InterleavedCompare()
    {
    }

    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        double threshold = DEFAULT_THRESHOLD_PERCENT / 100;
        boolean markdown = false;
        final List<Path> base = new ArrayList<>();
        final List<Path> now = new ArrayList<>();
        List<Path> side = null;
        try
        {
            for (int i = 0; i < args.length; i++)
            {
                switch (args[i])
                {
                    case "--threshold" -> threshold = Double.parseDouble(args[++i]) / 100;
                    case "--markdown" -> markdown = true;
                    case "--base" -> side = base;
                    case "--new" -> side = now;
                    default ->
                    {
                        if (side == null)
                        {
                            throw new IllegalArgumentException("a file before --base or --new: " + args[i]);
                        }
                        side.add(Path.of(args[i]));
                    }
                }
            }
            if (base.isEmpty() || base.size() != now.size() || !(threshold >= 0))
            {
                throw new IllegalArgumentException("needs as many --base files as --new files (one per round), " +
                    "and a threshold >= 0");
            }
            final List<Row> rows = compare(read(base), read(now), threshold);
            print(rows, threshold, markdown, out);
            return rows.stream().anyMatch(r -> r.verdict().equals("regression")) ? 1 : 0;
        }
        catch (final IOException | RuntimeException ex)
        {
            err.println("InterleavedCompare: " + ex.getMessage());
            err.println("usage: InterleavedCompare [--threshold PERCENT] [--markdown] --base A1.json ... " +
                "--new B1.json ...");
            return 2;
        }
    }

    private static List<List<JmhResult>> read(final List<Path> files) throws IOException
    {
        final List<List<JmhResult>> rounds = new ArrayList<>();
        for (final Path f : files)
        {
            rounds.add(JmhResult.read(f));
        }
        return rounds;
    }

    /**
     * Pairs round i of base with round i of new, benchmark by benchmark (name, params, mode). Pure, for tests.
     *
     * @param threshold the relative change that matters, as a fraction (0.05 for 5%).
     */
    public static List<Row> compare(final List<List<JmhResult>> base, final List<List<JmhResult>> now,
        final double threshold)
    {
        final Map<String, List<JmhResult[]>> pairs = new LinkedHashMap<>();
        for (int round = 0; round < base.size(); round++)
        {
            final Map<String, JmhResult> b = byKey(base.get(round));
            for (final JmhResult n : now.get(round))
            {
                final JmhResult match = b.get(n.key());
                if (match != null)
                {
                    pairs.computeIfAbsent(n.key(), k -> new ArrayList<>()).add(new JmhResult[] {match, n});
                }
            }
        }
        final List<Row> rows = new ArrayList<>();
        for (final List<JmhResult[]> p : pairs.values())
        {
            rows.add(row(p, threshold));
        }
        return rows;
    }

    private static Row row(final List<JmhResult[]> pairs, final double threshold)
    {
        final int n = pairs.size();
        final JmhResult first = pairs.get(0)[1];
        double sumLog = 0;
        double sumBase = 0;
        double sumNew = 0;
        final double[] logs = new double[n];
        for (int i = 0; i < n; i++)
        {
            final JmhResult b = pairs.get(i)[0];
            final JmhResult m = pairs.get(i)[1];
            final double slowdown = b.lowerIsBetter() ? m.score() / b.score() : b.score() / m.score();
            logs[i] = Math.log(slowdown);
            sumLog += logs[i];
            sumBase += b.score();
            sumNew += m.score();
        }
        final double mean = sumLog / n;
        double low = Double.NaN;
        double high = Double.NaN;
        String verdict = "same";
        if (n >= 2)
        {
            double ss = 0;
            for (final double l : logs)
            {
                ss += (l - mean) * (l - mean);
            }
            final double half = t975(n - 1) * Math.sqrt(ss / (n - 1) / n);
            low = Math.exp(mean - half);
            high = Math.exp(mean + half);
            if (low > 1 + threshold)
            {
                verdict = "regression";
            }
            else if (high < 1 / (1 + threshold))
            {
                verdict = "improvement";
            }
        }
        return new Row(first.displayName() + (first.lowerIsBetter() ? "" : " (thrpt)"), n, sumBase / n, sumNew / n,
            first.unit(), Math.exp(mean), low, high, verdict);
    }

    static double t975(final int degreesOfFreedom)
    {
        return degreesOfFreedom <= T975.length ? T975[degreesOfFreedom - 1] : 1.96;
    }

    private static Map<String, JmhResult> byKey(final List<JmhResult> results)
    {
        final Map<String, JmhResult> m = new LinkedHashMap<>();
        for (final JmhResult r : results)
        {
            m.put(r.key(), r);
        }
        return m;
    }

    private static void print(final List<Row> rows, final double threshold, final boolean markdown,
        final PrintStream out)
    {
        final String format = markdown ? "| %s | %d | %,.1f | %,.1f | %s | %.3f | %s | %s |%n" :
            "%-52s %6d %12.1f %12.1f %-8s %8.3f %-17s %s%n";
        if (markdown)
        {
            out.println("| benchmark | rounds | base | new | unit | new/base | 95% interval | verdict |");
            out.println("|---|---:|---:|---:|---|---:|---|---|");
        }
        else
        {
            out.printf(Locale.ROOT, "%-52s %6s %12s %12s %-8s %8s %-17s %s%n", "benchmark", "rounds", "base",
                "new", "unit", "new/base", "95% interval", "verdict");
        }
        int regressions = 0;
        for (final Row r : rows)
        {
            final String interval = Double.isNaN(r.low()) ? "-" :
                String.format(Locale.ROOT, "[%.3f, %.3f]", r.low(), r.high());
            out.printf(Locale.ROOT, format, r.name(), r.rounds(), r.baseMean(), r.newMean(), r.unit(), r.ratio(),
                interval, r.verdict());
            regressions += r.verdict().equals("regression") ? 1 : 0;
        }
        out.printf(Locale.ROOT, "%n%d benchmarks, %d regressions (new/base > %.3f across the whole interval; " +
            "above 1 is slower)%n", rows.size(), regressions, 1 + threshold);
    }
}
