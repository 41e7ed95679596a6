package io.tokenclock.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.run.RunResult;
import io.tokenclock.stats.Bootstrap;
import io.tokenclock.stats.SmallSample;
import io.tokenclock.stats.StudentT;
import io.tokenclock.util.WholeFile;

/**
 * The A/B comparison of {@code tokenclock ab}: for each figure of {@link Repetitions#figures()}, both variants'
 * values, the difference of the means (B - A, and relative to A) with a 95% percentile bootstrap interval that
 * resamples each variant on its own, Welch's t interval of the same difference, and the verdict of
 * {@link SmallSample#verdict}: "differs" only when both intervals exclude 0, "n too small to tell" when only the
 * bootstrap does. Written to {@code ab.json} and printed; the format is documented in docs/RESULTS.md.
 * <p>
 * As for repetitions ({@link Repetitions}), a run whose own record is partial (the one a signal cut short) is no
 * sample of its variant: it is listed in {@code partial_runs} and left out of the values and the statistics. A
 * variant with fewer than two whole runs has no interval and no verdict: a difference of one run against one run
 * would claim a certainty nothing measured. A set that did not run to its end says why in {@code partial}.
 */
public final class AbReport
{
    private static final ObjectMapper JSON = Json.MAPPER;
    /** One row of the printed table: figure, means, difference, relative, both intervals, verdict. */
    private static final String ROW = "%-22s %12s %12s %12s %9s %21s %21s %s%n";

    /** The verdict rule as ab.json states it (docs/METRICS.md). */
    static final String VERDICT_RULE = "differs: both the bootstrap and the Welch t interval exclude 0; n too small " +
        "to tell: the bootstrap excludes 0 and the t interval does not; within noise: the bootstrap holds 0";
    /** The whole runs each variant needs for an interval and a verdict. */
    static final int MIN_RUNS = 2;
    /** The verdict printed for a figure without an interval. */
    public static final String NO_VERDICT = "no verdict: fewer than 2 whole runs a side";

    private AbReport()
    {
    }

    /**
     * One figure compared: the means, the difference B - A with its bootstrap interval and Welch's t interval.
     *
     * @param meanA      variant A's mean.
     * @param meanB      variant B's mean.
     * @param difference the percentile bootstrap interval of mean(B) - mean(A).
     * @param welch      Welch's t interval of the same difference ([NaN, NaN] with one run a side).
     */
    public record Comparison(double meanA, double meanB, Bootstrap.Interval difference, Bootstrap.Interval welch)
    {
        /** @return the verdict: differs only when both intervals exclude 0; null without an interval. */
        public SmallSample.Verdict verdict()
        {
            return SmallSample.verdict(difference, welch);
        }

        /** @return whether the difference exceeds the noise: both intervals exclude 0. */
        public boolean exceedsNoise()
        {
            return verdict() == SmallSample.Verdict.DIFFERS;
        }
    }

    /** @return the comparison of two sets of values, resampled with {@code seed}. */
    public static Comparison compare(final double[] a, final double[] b, final long seed)
    {
        return new Comparison(Bootstrap.mean(a), Bootstrap.mean(b),
            Bootstrap.difference(a, b, Bootstrap::mean, 0.95, seed), StudentT.welch(a, b, 0.95));
    }

    /** Writes {@code ab.json} of a set that ran to its end, and prints one line per figure. */
    public static void write(
        final Path contractA, final Path contractB, final List<String> order, final List<RunResult> runsA,
        final List<RunResult> runsB, final Path file, final PrintStream out) throws IOException
    {
        write(contractA, contractB, order, runsA, runsB, null, file, out);
    }

    /**
     * Writes {@code ab.json} and prints one line per figure.
     *
     * @param partialReason why the set is not whole (a signal stopped it; it is still running), or null.
     */
    public static void write(
        final Path contractA, final Path contractB, final List<String> order, final List<RunResult> runsA,
        final List<RunResult> runsB, final String partialReason, final Path file, final PrintStream out)
        throws IOException
    {
        // The resampling seed: pair 1's, so that the same contracts give the same intervals.
        final long seed = runsA.isEmpty() ? 0 : runsA.get(0).options().workload().seed();
        final ObjectNode root = JSON.createObjectNode();
        root.putObject("variants").put("A", contractA.toString()).put("B", contractB.toString());
        final ArrayNode sequence = root.putArray("order");
        order.forEach(sequence::add);
        root.put("partial", partialReason);
        final ArrayNode cut = root.putArray("partial_runs");
        partialRoles("a", runsA).forEach(cut::add);
        partialRoles("b", runsB).forEach(cut::add);
        final List<RunResult> wholeA = Repetitions.whole(runsA);
        final List<RunResult> wholeB = Repetitions.whole(runsB);
        root.put("ci", "95% percentile bootstrap of mean(B) - mean(A), each variant resampled on its own, " +
            Bootstrap.RESAMPLES + " resamples, seed " + seed);
        root.put("ci_t", "95% Welch t interval of mean(B) - mean(A)");
        root.put("verdict_rule", VERDICT_RULE);
        final ArrayNode seeds = root.putArray("pair_seeds");
        runsA.forEach(r -> seeds.add(r.options().workload().seed()));
        final ObjectNode figures = root.putObject("figures");
        out.println();
        if (partialReason != null || !cut.isEmpty())
        {
            out.println("PARTIAL: " + (partialReason != null ? partialReason : "runs cut short") + "; runs cut " +
                "short, left out of the figures below: " + (cut.isEmpty() ? "none" : cut.toString()));
        }
        out.printf(Locale.ROOT, "A/B over %d + %d whole runs, interleaved %s (B - A, 95%% intervals: bootstrap, and " +
            "Welch's t)%n", wholeA.size(), wholeB.size(), String.join(" ", order));
        final int n = Math.min(wholeA.size(), wholeB.size());
        if (n >= MIN_RUNS && n < Bootstrap.N_NEAR_NOMINAL_COVERAGE)
        {
            out.println("note: " + smallNote(n));
        }
        out.printf(Locale.ROOT, ROW, "figure", "mean A", "mean B", "B - A", "rel", "bootstrap ci95", "t ci95",
            "verdict");
        for (final Map.Entry<String, ToDoubleFunction<RunResult>> e : Repetitions.figures().entrySet())
        {
            final double[] a = wholeA.stream().mapToDouble(e.getValue()).toArray();
            final double[] b = wholeB.stream().mapToDouble(e.getValue()).toArray();
            if (a.length == 0 || b.length == 0 || Double.isNaN(Bootstrap.mean(a)) || Double.isNaN(Bootstrap.mean(b)))
            {
                continue;
            }
            figure(figures.putObject(e.getKey()), e.getKey(), a, b, compare(a, b, seed), out);
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        root.put("ci_min_runs", MIN_RUNS);
        WholeFile.write(file, Json.PRETTY.writeValueAsBytes(root));
        out.println("ab: " + file.toAbsolutePath().normalize());
    }

    /** @return {@code VARIANT K} of each run whose own record is partial, K its 1-based place among its variant's. */
    private static List<String> partialRoles(final String variant, final List<RunResult> runs)
    {
        return java.util.stream.IntStream.range(0, runs.size()).filter(i -> runs.get(i).partial())
            .mapToObj(i -> variant + " " + (i + 1)).toList();
    }

    private static void figure(
        final ObjectNode n, final String name, final double[] a, final double[] b, final Comparison c,
        final PrintStream out)
    {
        final ArrayNode va = n.putArray("a");
        for (final double x : a)
        {
            va.add(x);
        }
        final ArrayNode vb = n.putArray("b");
        for (final double x : b)
        {
            vb.add(x);
        }
        final double diff = c.meanB() - c.meanA();
        // No relative difference from a base of 0: the absolute one says it all (0 errors vs 2 is +2, not +inf%).
        final boolean relativeKnown = c.meanA() != 0;
        n.put("mean_a", c.meanA()).put("mean_b", c.meanB()).put("difference", diff)
            .put("relative", relativeKnown ? diff / c.meanA() : null);
        final boolean interval = a.length >= MIN_RUNS && b.length >= MIN_RUNS;
        if (interval)
        {
            n.putArray("ci95").add(c.difference().low()).add(c.difference().high());
            if (Double.isNaN(c.welch().low()))
            {
                n.putNull("ci95_t");
            }
            else
            {
                n.putArray("ci95_t").add(c.welch().low()).add(c.welch().high());
            }
            n.put("exceeds_noise", c.exceedsNoise());
            n.put("verdict", c.verdict() == null ? null : c.verdict().label());
        }
        else
        {
            n.putNull("ci95").putNull("ci95_t").putNull("exceeds_noise").putNull("verdict");
        }
        final String rel = relativeKnown ? String.format(Locale.ROOT, "%.1f%%", 100 * diff / c.meanA()) :
            c.meanB() == 0 ? "0 vs 0" : "A is 0";
        final String none = "-";
        out.printf(Locale.ROOT, ROW, name, fixed(c.meanA()), fixed(c.meanB()), fixed(diff), rel,
            interval ? interval(c.difference()) : none, interval ? interval(c.welch()) : none,
            !interval || c.verdict() == null ? NO_VERDICT : c.verdict().label());
    }

    /** About how many runs a side the bootstrap interval of a difference needs to cover ~90% ({@link Bootstrap}). */
    public static final int RUNS_NEAR_NOMINAL = Bootstrap.N_NEAR_NOMINAL_COVERAGE;

    /** @return the simulated coverage, %, of the nominal 95% bootstrap interval of a difference at n runs a side. */
    public static int coveragePercent(final int n)
    {
        return SmallSample.differenceCoveragePercent(n);
    }

    /** @return the note printed above an A/B table of {@code n} runs a side, below nominal coverage. */
    static String smallNote(final int n)
    {
        return String.format(Locale.ROOT, "with %d run%s a side the bootstrap interval covers about %d%% of the " +
            "time, not 95%% (about %d runs a side are needed for ~90%%); \"differs\" needs Welch's t interval to " +
            "exclude 0 as well (docs/METRICS.md)", n, n == 1 ? "" : "s", SmallSample.differenceCoveragePercent(n),
            Bootstrap.N_NEAR_NOMINAL_COVERAGE);
    }

    private static String fixed(final double v)
    {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** @return "[low, high]" with 3 decimals, "-" when there is none. */
    static String interval(final Bootstrap.Interval i)
    {
        return Double.isNaN(i.low()) ? "-" : String.format(Locale.ROOT, "[%.3f, %.3f]", i.low(), i.high());
    }
}
