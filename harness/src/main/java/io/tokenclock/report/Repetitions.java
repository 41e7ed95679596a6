package io.tokenclock.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.Metric;
import io.tokenclock.result.RunResult;
import io.tokenclock.stats.Bootstrap;
import io.tokenclock.stats.Outliers;

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
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

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
        f.put("output_tokens_per_s", r -> Formulas.rate(r.counts().outputTokens(), r.windowSeconds()));
        f.put("goodput_rps", r -> r.goodput() == null ? Double.NaN :
            Formulas.rate(r.goodput().good(), r.windowSeconds()));
        f.put("errors", r -> r.counts().errors() + r.counts().cancelled());
        return f;
    }

    /** Writes {@code repetitions.json} and prints the spread table. */
    public static void write(final List<RunResult> runs, final Path file, final PrintStream out) throws IOException
    {
        final ObjectNode root = JSON.createObjectNode();
        root.put("repetitions", runs.size());
        final ArrayNode dirs = root.putArray("runs");
        runs.forEach(r -> dirs.add(r.target().outputDir().toString()));
        root.put("outlier_rule", Outliers.RULE);
        root.put("ci", "95% percentile bootstrap of the mean over the kept repetitions, " + Bootstrap.RESAMPLES +
            " resamples, seed " + seed(runs));
        final ObjectNode figures = root.putObject("figures");
        out.println();
        out.printf(Locale.ROOT,
            "run-to-run over %d repetitions (95%% interval of the mean: bootstrap; outliers: Tukey)%n",
            runs.size());
        out.printf(Locale.ROOT, "%-22s %12s %12s %8s %25s %s%n", "figure", "mean", "stdev", "cv", "ci95", "excluded");
        for (final Map.Entry<String, ToDoubleFunction<RunResult>> e : figures().entrySet())
        {
            final double[] v = runs.stream().mapToDouble(e.getValue()).toArray();
            if (Arrays.stream(v).allMatch(Double::isNaN))
            {
                continue; // goodput without an SLO or a quality rule
            }
            figure(figures.putObject(e.getKey()), e.getKey(), v, seed(runs), out);
        }
        Files.write(file, JSON.writeValueAsBytes(root));
        out.println("repetitions: " + file.toAbsolutePath().normalize());
    }

    /** Writes one figure's values, spread, interval and exclusions, and prints its line. */
    private static void figure(
        final ObjectNode n, final String name, final double[] v, final long seed, final PrintStream out)
    {
        final double mean = Bootstrap.mean(v);
        double ss = 0;
        for (final double x : v)
        {
            ss += (x - mean) * (x - mean);
        }
        final double stdev = v.length > 1 ? Math.sqrt(ss / (v.length - 1)) : 0;
        final ArrayNode values = n.putArray("values");
        for (final double x : v)
        {
            values.add(x);
        }
        final List<Integer> excluded = Outliers.excluded(v);
        final Bootstrap.Interval ci = Bootstrap.interval(Outliers.without(v, excluded), Bootstrap::mean, 0.95, seed);
        n.put("mean", mean).put("stdev", stdev).put("min", Arrays.stream(v).min().orElse(Double.NaN))
            .put("max", Arrays.stream(v).max().orElse(Double.NaN)).put("cv", mean != 0 ? stdev / mean : 0);
        n.putArray("ci95").add(ci.low()).add(ci.high());
        final ArrayNode ex = n.putArray("excluded_repetitions");
        excluded.forEach(i -> ex.add(i + 1));
        out.printf(Locale.ROOT, "%-22s %12.3f %12.3f %7.1f%% %25s %s%n", name, mean, stdev,
            mean != 0 ? 100 * stdev / mean : 0.0, String.format(Locale.ROOT, "[%.3f, %.3f]", ci.low(), ci.high()),
            excluded.isEmpty() ? "-" : excluded.stream().map(i -> "rep " + (i + 1)).toList().toString());
    }

    /** @return the resampling seed: the run's own seed, so that the same contract gives the same intervals. */
    private static long seed(final List<RunResult> runs)
    {
        return runs.isEmpty() ? 0 : runs.get(0).options().workload().seed();
    }
}
