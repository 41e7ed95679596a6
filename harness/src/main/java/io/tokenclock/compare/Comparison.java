package io.tokenclock.compare;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.RunRecord;
import io.tokenclock.results.Result;
import io.tokenclock.stats.Bootstrap;
import io.tokenclock.stats.SmallSample;
import io.tokenclock.stats.StudentT;
import io.tokenclock.text.UntrustedText;

/**
 * {@code compare}: each subject of every result after the first is set against the baseline's subject at the same
 * position (a sweep's point K against point K, an A/B's B against B), or its first when it has fewer. Each pair gets
 * its contracts diffed ({@link ContractDiff}); a pair that breaks a refusal rule is refused unless forced; the others
 * get every figure's difference, with a seeded 95% bootstrap interval when both sides have two runs or more
 * (repetitions). Stateless.
 */
public final class Comparison
{
    private Comparison()
    {
    }

    /** @return the comparison of {@code results} (the first is the baseline). */
    public static CompareJson of(final List<Result> results, final boolean force)
    {
        if (results.size() < 2)
        {
            throw new IllegalArgumentException("compare needs two results or more (the first is the baseline)");
        }
        final List<Subject> base = Subject.of(results.get(0));
        final List<CompareJson.Pair> pairs = new ArrayList<>();
        for (final Result other : results.subList(1, results.size()))
        {
            final List<Subject> subjects = Subject.of(other);
            for (int k = 0; k < subjects.size(); k++)
            {
                pairs.add(pair(base.get(k < base.size() ? k : 0), subjects.get(k), force));
            }
        }
        final boolean refused = pairs.stream().anyMatch(p -> !p.brokenRules().isEmpty());
        return new CompareJson(CompareJson.FORMAT, results.stream().map(r -> r.path().toString()).toList(),
            force && refused, refused, pairs);
    }

    private static CompareJson.Pair pair(final Subject a, final Subject b, final boolean force)
    {
        final ContractDiff diff = ContractDiff.of(a.contract(), b.contract());
        final Map<String, CompareJson.Figure> figures = new LinkedHashMap<>();
        if (diff.refusals().isEmpty() || force)
        {
            final long seed = a.contract().workload() == null ? 0 : a.contract().workload().seed();
            for (final Map.Entry<String, ToDoubleFunction<RunRecord>> e : Figures.all().entrySet())
            {
                final double[] va = a.samples().stream().mapToDouble(e.getValue()).toArray();
                final double[] vb = b.samples().stream().mapToDouble(e.getValue()).toArray();
                if (!Double.isNaN(Bootstrap.mean(va)) && !Double.isNaN(Bootstrap.mean(vb)))
                {
                    figures.put(e.getKey(), figure(va, vb, seed));
                }
            }
        }
        return new CompareJson.Pair(a.label(), b.label(), List.of(a.samples().size(), b.samples().size()),
            diff.verdict(), diff.sentence(), diff.brokenRules(), diff.differences(), figures);
    }

    /** @return one figure's values, means, difference and, with two runs a side, its interval and verdict. */
    static CompareJson.Figure figure(final double[] a, final double[] b, final long seed)
    {
        final double meanA = Bootstrap.mean(a);
        final double meanB = Bootstrap.mean(b);
        final double diff = meanB - meanA;
        List<Double> ci = null;
        List<Double> ciT = null;
        SmallSample.Verdict verdict = null;
        if (a.length >= 2 && b.length >= 2)
        {
            final Bootstrap.Interval i = Bootstrap.difference(a, b, Bootstrap::mean, 0.95, seed);
            final Bootstrap.Interval t = StudentT.welch(a, b, 0.95);
            ci = Dist.interval(i.low(), i.high());
            ciT = Dist.interval(t.low(), t.high());
            verdict = SmallSample.verdict(i, t);
        }
        return new CompareJson.Figure(Arrays.stream(a).boxed().toList(), Arrays.stream(b).boxed().toList(), meanA,
            meanB, diff, meanA != 0 ? diff / meanA : null, ci, ciT, verdict == null ? null :
            verdict == SmallSample.Verdict.DIFFERS, verdict == null ? null : verdict.label());
    }

    /** Prints each pair: the verdict, the differences by group, then (unless refused) the figures' table. */
    public static void print(final CompareJson c, final PrintStream out)
    {
        for (final CompareJson.Pair p : c.comparisons())
        {
            // labels hold paths and roles read from files: escaped, as every value below
            out.printf(Locale.ROOT, "%nbaseline: %s (%d run%s)%nother:    %s (%d run%s)%n", shown(p.baseline()),
                p.samples().get(0), p.samples().get(0) == 1 ? "" : "s", shown(p.other()), p.samples().get(1),
                p.samples().get(1) == 1 ? "" : "s");
            if (!p.brokenRules().isEmpty())
            {
                out.println((c.forced() ? "FORCED past refusal: " : "REFUSED: ") + "they differ in " +
                    String.join(", ", p.brokenRules()));
            }
            out.println("contract: " + p.sentence());
            p.differences().forEach(d -> out.println("  " + d.line()));
            if (!p.figures().isEmpty())
            {
                table(p, out);
            }
        }
    }

    private static String shown(final String label)
    {
        return UntrustedText.escaped(label, Integer.MAX_VALUE);
    }

    private static void table(final CompareJson.Pair p, final PrintStream out)
    {
        final int n = Math.min(p.samples().get(0), p.samples().get(1));
        if (n >= 2 && n < Bootstrap.N_NEAR_NOMINAL_COVERAGE)
        {
            out.printf(Locale.ROOT, "note: with %d runs a side the bootstrap interval covers about %d%% of the time, " +
                "not 95%%; \"differs\" needs Welch's t interval to exclude 0 as well (docs/METRICS.md)%n", n,
                SmallSample.differenceCoveragePercent(n));
        }
        out.printf(Locale.ROOT, ROW, "figure", "baseline", "other", "difference", "rel", "bootstrap ci95", "t ci95",
            "verdict");
        for (final Map.Entry<String, CompareJson.Figure> e : p.figures().entrySet())
        {
            final CompareJson.Figure f = e.getValue();
            out.printf(Locale.ROOT, ROW, e.getKey(), fixed(f.meanA()), fixed(f.meanB()), fixed(f.difference()),
                relative(f), interval(f.ci95()), interval(f.ci95T()), f.verdict() == null ?
                "one run a side: no interval" : f.verdict());
        }
    }

    /** One row: figure, both means, difference, relative, both intervals, verdict. */
    private static final String ROW = "%-22s %12s %12s %12s %9s %21s %21s %s%n";

    /** @return the relative difference, or what stands for it when the baseline is 0 (0 vs 0 errors is no NaN%). */
    static String relative(final CompareJson.Figure f)
    {
        if (f.relative() != null)
        {
            return String.format(Locale.ROOT, "%.1f%%", 100 * f.relative());
        }
        return f.meanB() == 0 ? "0 vs 0" : "base 0";
    }

    private static String fixed(final double v)
    {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String interval(final List<Double> ci)
    {
        return ci == null || ci.get(0) == null || ci.get(1) == null ? "-" : String.format(Locale.ROOT,
            "[%.3f, %.3f]", ci.get(0), ci.get(1));
    }
}
