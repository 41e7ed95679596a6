package io.tokenclock.jmh.tools;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One entry of a JMH JSON result file ({@code -rf json}), reduced to what the tools need.
 *
 * @param benchmark   the fully qualified benchmark method, e.g. {@code io.tokenclock.jmh.PerChunkBenchmark.perChunk}.
 * @param mode        JMH's short mode name: {@code avgt}, {@code thrpt}, {@code sample}, {@code ss}.
 * @param params      the {@code @Param} values, sorted by name; empty if none.
 * @param score       the primary metric's score.
 * @param scoreError  JMH's {@code scoreError}: the half-width of the 99.9% confidence interval; NaN when JMH could
 *                    not compute one (a single measurement iteration).
 * @param unit        the score's unit, e.g. {@code ns/op}.
 * @param allocNorm   {@code gc.alloc.rate.norm} in B/op, or NaN if absent.
 * @param gcProfiled  true if any {@code gc.*} secondary metric is present (the run used {@code -prof gc}).
 * @param iterationNs the length of one measurement iteration in ns (JMH's {@code measurementTime}), or NaN.
 */
public record JmhResult(
    String benchmark, String mode, Map<String, String> params, double score, double scoreError, String unit,
    double allocNorm, boolean gcProfiled, double iterationNs)
{
    /**
     * Allocation per measurement iteration below which a non-zero {@code gc.alloc.rate.norm} is JMH's own
     * bookkeeping (a few KB per iteration, measured at 7-10 KB on the development VM) spread over the iteration's
     * operations rather than the benchmark's: a benchmark that allocated even one 16-byte object per operation
     * would exceed it at any rate above 1,000 ops/s.
     */
    public static final double JMH_BOOKKEEPING_BYTES_PER_ITERATION = 16 * 1024;

    /** B/op at or below which a benchmark counts as allocation-free outright. */
    public static final double ZERO_ALLOC_BYTES = 0.5;

    private static final String PACKAGE = "io.tokenclock.jmh.";

    /** Reads a JMH JSON result file. */
    public static List<JmhResult> read(final Path file) throws IOException
    {
        final JsonNode root = new ObjectMapper().readTree(file.toFile());
        if (root == null || !root.isArray())
        {
            throw new IOException(file + ": not a JMH JSON result file (expected a top-level array)");
        }
        final List<JmhResult> out = new ArrayList<>();
        for (final JsonNode b : root)
        {
            final JsonNode primary = b.get("primaryMetric");
            if (!b.hasNonNull("benchmark") || !b.hasNonNull("mode") || primary == null || !primary.has("score"))
            {
                throw new IOException(file + ": an entry lacks benchmark, mode or primaryMetric.score");
            }
            final Map<String, String> params = new TreeMap<>();
            final JsonNode p = b.get("params");
            if (p != null && p.isObject())
            {
                for (final Map.Entry<String, JsonNode> e : p.properties())
                {
                    params.put(e.getKey(), e.getValue().asText());
                }
            }
            double alloc = Double.NaN;
            boolean gc = false;
            final JsonNode secondary = b.get("secondaryMetrics");
            if (secondary != null && secondary.isObject())
            {
                for (final Map.Entry<String, JsonNode> e : secondary.properties())
                {
                    final String name = e.getKey();
                    if (name.startsWith("gc."))
                    {
                        gc = true;
                    }
                    if (name.equals("gc.alloc.rate.norm"))
                    {
                        alloc = number(e.getValue().get("score"));
                    }
                }
            }
            out.add(new JmhResult(
                b.get("benchmark").asText(), b.get("mode").asText(), params, number(primary.get("score")),
                number(primary.get("scoreError")), primary.path("scoreUnit").asText(""), alloc, gc,
                durationNs(b.path("measurementTime").asText(""))));
        }
        return out;
    }

    /** Parses JMH's time value ("1 s", "500 ms", "10 us", "100 ns"), or NaN. */
    static double durationNs(final String text)
    {
        final String[] f = text.trim().split("\\s+");
        if (f.length != 2)
        {
            return Double.NaN;
        }
        try
        {
            final double v = Double.parseDouble(f[0]);
            return switch (f[1])
            {
                case "s" -> v * 1e9;
                case "ms" -> v * 1e6;
                case "us" -> v * 1e3;
                case "ns" -> v;
                case "min" -> v * 60e9;
                default -> Double.NaN;
            };
        }
        catch (final NumberFormatException ex)
        {
            return Double.NaN;
        }
    }

    private static double number(final JsonNode n)
    {
        if (n == null || n.isNull())
        {
            return Double.NaN;
        }
        if (n.isNumber())
        {
            return n.doubleValue();
        }
        // JMH writes "NaN" as a string when it has no error estimate.
        try
        {
            return Double.parseDouble(n.asText());
        }
        catch (final NumberFormatException ex)
        {
            return Double.NaN;
        }
    }

    /** @return the key two runs are matched on: benchmark, params and mode. */
    public String key()
    {
        return benchmark + params + "/" + mode;
    }

    /** @return the benchmark without this suite's package, plus its params if any: {@code Class.method[:k=v,...]}. */
    public String displayName()
    {
        final String name = benchmark.startsWith(PACKAGE) ? benchmark.substring(PACKAGE.length()) : benchmark;
        if (params.isEmpty())
        {
            return name;
        }
        final StringBuilder sb = new StringBuilder(name).append(':');
        params.forEach((k, v) -> sb.append(k).append('=').append(v).append(','));
        sb.setLength(sb.length() - 1);
        return sb.toString();
    }

    /** @return the error, or 0 when JMH gave none (NaN), so that bounds degrade to the score itself. */
    public double errorOrZero()
    {
        return Double.isNaN(scoreError) || scoreError < 0 ? 0.0 : scoreError;
    }

    /** @return true for modes where a lower score is better (time per operation). */
    public boolean lowerIsBetter()
    {
        return !mode.equals("thrpt");
    }

    /**
     * @return B/op as a table cell: the value, suffixed {@code ~} when it is only JMH's bookkeeping (see
     * {@link #allocIsBookkeeping()}); {@code 0*} if -prof gc ran but JMH omitted the key; {@code -} without -prof gc.
     */
    public String allocCell()
    {
        if (!Double.isNaN(allocNorm))
        {
            return String.format(Locale.ROOT, "%.3f", allocNorm) + (allocIsBookkeeping() ? "~" : "");
        }
        return gcProfiled ? "0*" : "-";
    }

    /**
     * @return true if the allocation per op is above {@code threshold} B/op, and not explained by JMH's own
     * per-iteration bookkeeping.
     */
    public boolean allocates(final double threshold)
    {
        final double a = allocOrZero();
        return !Double.isNaN(a) && a > threshold && !allocIsBookkeeping();
    }

    /**
     * @return true if {@code gc.alloc.rate.norm} is non-zero but, multiplied by the operations of one measurement
     * iteration, stays under {@link #JMH_BOOKKEEPING_BYTES_PER_ITERATION} and below 16 B/op (less than one object per
     * op): what JMH itself allocates per iteration, spread thin. Typical for benchmarks of a few µs or more per op.
     */
    public boolean allocIsBookkeeping()
    {
        final double ns = nsPerOp();
        if (Double.isNaN(allocNorm) || allocNorm <= ZERO_ALLOC_BYTES || allocNorm >= 16 || Double.isNaN(ns) ||
            ns <= 0 ||
            Double.isNaN(iterationNs))
        {
            return false;
        }
        return allocNorm * (iterationNs / ns) < JMH_BOOKKEEPING_BYTES_PER_ITERATION;
    }

    /** @return B/op as a number, 0 when -prof gc ran and JMH omitted the key, NaN without -prof gc. */
    public double allocOrZero()
    {
        if (!Double.isNaN(allocNorm))
        {
            return allocNorm;
        }
        return gcProfiled ? 0.0 : Double.NaN;
    }

    /** @return the score converted to nanoseconds per operation, or NaN if the unit is not a time per op. */
    public double nsPerOp()
    {
        return switch (unit)
        {
            case "ns/op" -> score;
            case "us/op" -> score * 1e3;
            case "ms/op" -> score * 1e6;
            case "s/op" -> score * 1e9;
            default -> Double.NaN;
        };
    }

    /** @return the error converted like {@link #nsPerOp()}. */
    public double errorNsPerOp()
    {
        final double s = nsPerOp();
        return Double.isNaN(s) || score == 0 ? Double.NaN : errorOrZero() * (s / score);
    }
}
