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

/**
 * Run-to-run variance: one run describes one sample of a noisy system, so a contract can be repeated and the spread of
 * its headline figures reported. Every repetition keeps its own results directory (nothing is averaged away or
 * dropped); {@code repetitions.json} beside them lists each figure per repetition with its mean, standard deviation
 * (sample, n - 1), min, max and coefficient of variation.
 */
public final class Repetitions
{
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Repetitions()
    {
    }

    /** The figures compared across repetitions, in the order printed. */
    static Map<String, ToDoubleFunction<RunResult>> figures()
    {
        final Map<String, ToDoubleFunction<RunResult>> f = new LinkedHashMap<>();
        f.put("ttft_p50_ms", r -> r.distributions().get(Metric.TTFT).p50());
        f.put("ttft_p99_ms", r -> r.distributions().get(Metric.TTFT).p99());
        f.put("tpot_p50_ms", r -> r.distributions().get(Metric.TPOT).p50());
        f.put("tpot_p99_ms", r -> r.distributions().get(Metric.TPOT).p99());
        f.put("e2e_p50_ms", r -> r.distributions().get(Metric.E2E).p50());
        f.put("requests_per_s", r -> Formulas.rate(r.counts().ok(), r.windowSeconds()));
        f.put("output_tokens_per_s", r -> Formulas.rate(r.counts().outputTokens(), r.windowSeconds()));
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
        final ObjectNode figures = root.putObject("figures");
        out.println();
        out.printf(Locale.ROOT, "run-to-run over %d repetitions%n", runs.size());
        out.printf(Locale.ROOT, "%-22s %12s %12s %12s %12s %8s%n", "figure", "mean", "stdev", "min", "max", "cv");
        for (final Map.Entry<String, ToDoubleFunction<RunResult>> e : figures().entrySet())
        {
            final double[] v = runs.stream().mapToDouble(e.getValue()).toArray();
            final double mean = Arrays.stream(v).average().orElse(Double.NaN);
            double ss = 0;
            for (final double x : v)
            {
                ss += (x - mean) * (x - mean);
            }
            final double stdev = v.length > 1 ? Math.sqrt(ss / (v.length - 1)) : 0;
            final double min = Arrays.stream(v).min().orElse(Double.NaN);
            final double max = Arrays.stream(v).max().orElse(Double.NaN);
            final ObjectNode n = figures.putObject(e.getKey());
            final ArrayNode values = n.putArray("values");
            for (final double x : v)
            {
                values.add(x);
            }
            n.put("mean", mean).put("stdev", stdev).put("min", min).put("max", max)
                .put("cv", mean != 0 ? stdev / mean : 0);
            out.printf(Locale.ROOT, "%-22s %12.3f %12.3f %12.3f %12.3f %7.1f%%%n", e.getKey(), mean, stdev, min, max,
                mean != 0 ? 100 * stdev / mean : 0.0);
        }
        Files.write(file, JSON.writeValueAsBytes(root));
        out.println("repetitions: " + file.toAbsolutePath().normalize());
    }
}
