package io.tokenclock.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.Metric;
import io.tokenclock.run.RunResult;
import io.tokenclock.stats.Bootstrap;
import io.tokenclock.stats.Outliers;
import io.tokenclock.stats.SmallSample;
import io.tokenclock.stats.StudentT;
import io.tokenclock.util.WholeFile;

/**
 * Run-to-run variance: one run describes one sample of a noisy system, so a contract can be repeated and the spread of
 * its headline figures reported. Every repetition keeps its own results directory (nothing is averaged away or
 * dropped); {@code repetitions.json} beside them lists each figure per repetition with its mean, standard deviation
 * (sample, n - 1), min, max and coefficient of variation, and a seeded 95% bootstrap interval of the mean
 * ({@link Bootstrap}) over the repetitions the declared outlier rule keeps ({@link Outliers}; the ones it excludes
 * are listed beside it).
 */
public final class Repetitions
{
    private static final ObjectMapper JSON = Json.MAPPER;
    /** The printed table: figure, mean, stdev, cv, the bootstrap interval and what it covers, the t interval. */
    private static final String HEAD = "%-22s %12s %12s %8s %21s %-11s %21s %s%n";
    private static final String ROW = "%-22s %12.3f %12.3f %7.1f%% %21s %-11s %21s %s%n";

    private Repetitions()
    {
    }

    /** The figures compared across repetitions, in the order printed. */
    public static Map<String, ToDoubleFunction<RunResult>> figures()
    {
        final Map<String, ToDoubleFunction<RunResult>> f = new LinkedHashMap<>();
        f.put("ttft_p50_ms", r -> r.distributions().get(Metric.TTFT).p50());
        f.put("ttft_p99_ms", r -> r.distributions().get(Metric.TTFT).p99());
        f.put("tpot_p50_ms", r -> r.distributions().get(Metric.TPOT).p50());
        f.put("tpot_p99_ms", r -> r.distributions().get(Metric.TPOT).p99());
        f.put("itl_p50_ms", r -> r.distributions().get(Metric.TOKEN_ITL).p50());
        f.put("itl_p99_ms", r -> r.distributions().get(Metric.TOKEN_ITL).p99());
        f.put("e2e_p50_ms", r -> r.distributions().get(Metric.E2E).p50());
        f.put("requests_per_s", r -> Formulas.rate(r.counts().ok(), r.windowSeconds()));
        // an answer read whole (embeddings, rerank) generates no token: no output rate (absent, never 0), inputs/s
        f.put("output_tokens_per_s", r -> r.options().target().api().streamed() ?
            Formulas.rate(r.counts().get(Counter.OUTPUT_TOKENS), r.windowSeconds()) : Double.NaN);
        f.put("inputs_per_s", r -> r.options().target().api().streamed() ? Double.NaN :
            Formulas.rate(r.counts().get(Counter.INPUTS), r.windowSeconds()));
        f.put("goodput_rps", r -> r.goodput() == null ? Double.NaN :
            Formulas.rate(r.goodput().good(), r.windowSeconds()));
        f.put("errors", r -> r.counts().errors() + r.counts().cancelled());
        return f;
    }

    /**
     * @return the runs that are samples of their set: those whose own record is whole. A run a signal cut short (its
     * record partial) measured a part of a window, so its figures are left out of a set's statistics (here and in
     * {@link AbReport}), never out of its data.
     */
    static List<RunResult> whole(final List<RunResult> runs)
    {
        return runs.stream().filter(r -> !r.partial()).toList();
    }

    /** Writes {@code repetitions.json} and prints the spread table, for a set that ran to its end. */
    public static void write(final List<RunResult> runs, final Path file, final PrintStream out) throws IOException
    {
        write(runs, null, file, out);
    }

    /**
     * Writes {@code repetitions.json} and prints the spread table. A repetition whose own record is partial (the one
     * a signal cut short) keeps its values in the file but is no sample of the run: the statistics leave it out.
     *
     * @param partialReason why the set stopped before its last repetition (a signal), or null when it ran to its end.
     */
    public static void write(final List<RunResult> runs, final String partialReason, final Path file,
        final PrintStream out) throws IOException
    {
        final ObjectNode root = JSON.createObjectNode();
        root.put("repetitions", runs.size());
        root.put("partial", partialReason);
        final ArrayNode dirs = root.putArray("runs");
        runs.forEach(r -> dirs.add(r.target().outputDir().toString()));
        final ArrayNode partialReps = root.putArray("partial_repetitions");
        final boolean[] whole = new boolean[runs.size()];
        for (int i = 0; i < runs.size(); i++)
        {
            whole[i] = !runs.get(i).partial();
            if (!whole[i])
            {
                partialReps.add(i + 1);
            }
        }
        root.put("outlier_rule", Outliers.RULE);
        root.put("ci", "95% percentile bootstrap of the mean over the kept repetitions, " + Bootstrap.RESAMPLES +
            " resamples, seed " + seed(runs));
        root.put("ci_min_repetitions", Bootstrap.MIN_N_NARROWER_THAN_RANGE);
        root.put("ci_note", CI_NOTE);
        final ObjectNode figures = root.putObject("figures");
        header(runs, partialReason, partialReps.size(), out);
        for (final Map.Entry<String, ToDoubleFunction<RunResult>> e : figures().entrySet())
        {
            final double[] all = runs.stream().mapToDouble(e.getValue()).toArray();
            if (Arrays.stream(all).allMatch(Double::isNaN))
            {
                continue; // goodput without an SLO or a quality rule
            }
            figure(figures.putObject(e.getKey()), e.getKey(), all, whole, seed(runs), out);
        }
        WholeFile.write(file, Json.PRETTY.writeValueAsBytes(root));
        out.println("repetitions: " + file.toAbsolutePath().normalize());
    }

    /**
     * @param n the repetitions the interval rests on.
     * @return what to print beside a bootstrap interval of their mean ({@link SmallSample#caveat}): {@code range},
     * {@code covers ~K%}, or nothing.
     */
    public static String caveat(final int n)
    {
        return SmallSample.caveat(n);
    }

    /** What the interval over few repetitions is, for {@code repetitions.json} and the console. */
    static final String CI_NOTE = "with 2 or 3 repetitions a 95% percentile-bootstrap interval of the mean is always " +
        "[min, max]: each end is a resample of one value drawn n times, with probability (1/n)^n >= 2.5%; it shows " +
        "the range, not a confidence interval. It can be narrower from at least " +
        Bootstrap.MIN_N_NARROWER_THAN_RANGE + " repetitions, and covers about 90% from " +
        Bootstrap.N_NEAR_NOMINAL_COVERAGE + " (it undercovers below)";

    private static void header(final List<RunResult> runs, final String partialReason, final int partialReps,
        final PrintStream out)
    {
        out.println();
        if (partialReason != null)
        {
            out.println("PARTIAL: " + partialReason + "; " + (runs.size() - partialReps) + " whole repetition(s) " +
                "kept, the one cut short is listed but left out of the figures below");
        }
        final int n = runs.size() - partialReps;
        out.printf(Locale.ROOT, "run-to-run over %d repetitions (95%% interval of the mean: bootstrap, and Student's " +
            "t; outliers: Tukey)%n", n);
        if (n >= 2 && n < Bootstrap.MIN_N_NARROWER_THAN_RANGE)
        {
            out.println("note: " + CI_NOTE);
        }
        else if (n >= 2 && n < Bootstrap.N_NEAR_NOMINAL_COVERAGE)
        {
            out.printf(Locale.ROOT, "note: with %d repetitions the bootstrap interval covers the true mean about " +
                "%d%% of the time, not 95%%; the t interval beside it is the one to quote (docs/METRICS.md)%n", n,
                SmallSample.coveragePercent(n));
        }
        out.printf(Locale.ROOT, HEAD, "figure", "mean", "stdev", "cv", "bootstrap ci95", "", "t ci95", "excluded");
    }

    /** Writes one figure's values (all), its spread and interval (over the whole repetitions), and prints its line. */
    private static void figure(final ObjectNode n, final String name, final double[] all, final boolean[] whole,
        final long seed, final PrintStream out)
    {
        final ArrayNode values = n.putArray("values");
        for (final double x : all)
        {
            values.add(x);
        }
        final double[] v = java.util.stream.IntStream.range(0, all.length).filter(i -> whole[i])
            .mapToDouble(i -> all[i]).toArray();
        final double mean = Bootstrap.mean(v);
        double ss = 0;
        for (final double x : v)
        {
            ss += (x - mean) * (x - mean);
        }
        final double stdev = v.length > 1 ? Math.sqrt(ss / (v.length - 1)) : 0;
        final List<Integer> excluded = Outliers.excluded(v);
        final double[] kept = Outliers.without(v, excluded);
        final Bootstrap.Interval ci = Bootstrap.interval(kept, Bootstrap::mean, 0.95, seed);
        n.put("mean", mean).put("stdev", stdev).put("min", Arrays.stream(v).min().orElse(Double.NaN))
            .put("max", Arrays.stream(v).max().orElse(Double.NaN)).put("cv", mean != 0 ? stdev / mean : 0);
        // One value has no spread to resample: [x, x] would claim a certainty nothing measured.
        final boolean hasInterval = kept.length >= 2;
        if (hasInterval)
        {
            n.putArray("ci95").add(ci.low()).add(ci.high());
        }
        else
        {
            n.putNull("ci95");
        }
        n.put("ci95_is_range", hasInterval && kept.length < Bootstrap.MIN_N_NARROWER_THAN_RANGE);
        final Bootstrap.Interval t = StudentT.mean(kept, 0.95);
        if (Double.isNaN(t.low()))
        {
            n.putNull("ci95_t");
        }
        else
        {
            n.putArray("ci95_t").add(t.low()).add(t.high());
        }
        n.put("ci95_caveat", hasInterval ? SmallSample.caveat(kept.length) : "one repetition: no interval");
        final ArrayNode ex = n.putArray("excluded_repetitions");
        excluded.forEach(i -> ex.add(i + 1));
        out.printf(Locale.ROOT, ROW, name, mean, stdev, mean != 0 ? 100 * stdev / mean : 0.0,
            hasInterval ? AbReport.interval(ci) : "none (1 repetition)", hasInterval ? SmallSample.caveat(kept.length) :
                "", AbReport.interval(t),
            excluded.isEmpty() ? "-" : excluded.stream().map(i -> "rep " + (i + 1)).toList().toString());
    }

    /** @return the resampling seed: the run's own seed, so that the same contract gives the same intervals. */
    private static long seed(final List<RunResult> runs)
    {
        return runs.isEmpty() ? 0 : runs.get(0).options().workload().seed();
    }
}
