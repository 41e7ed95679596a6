package io.tokenclock.jmh.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Prints a JMH JSON result file as the harness-overhead table that {@code scripts/overhead} shows: every benchmark's
 * score with its 99.9% error and B/op, then the whole per-chunk path's cost set against typical inter-token latencies
 * and against a client's per-chunk CPU budget.
 * <p>
 * Usage: {@code java -cp jmh/target/benchmarks.jar io.tokenclock.jmh.tools.OverheadReport RESULT.json
 * [--cores N] [--streams N] [--per-chunk BENCHMARK]}. {@code --cores} defaults to this machine's processors,
 * {@code --streams} (concurrent streams for the budget) to 1,000. Exit status 0, or 2 on bad usage or an unreadable
 * file. The report states whether the targets (per-chunk path under 1 µs, aim 200 ns; 0 B/op) are met but does not
 * fail on them: a noisy shared machine is no place for a timing gate.
 */
public final class OverheadReport
{
    /** The benchmark the overhead claim rests on. */
    public static final String PER_CHUNK = "io.tokenclock.jmh.PerChunkBenchmark.perChunk";
    private static final String CLOCK = "io.tokenclock.jmh.ClockBenchmark.nanoTime";
    private static final String CLOCK_FALLBACK = "io.tokenclock.jmh.PerChunkBenchmark.nanoTime";
    private static final String GRANULARITY = "io.tokenclock.jmh.ClockBenchmark.granularity";
    private static final String REQUEST = "io.tokenclock.jmh.RequestLifecycleBenchmark.request";
    private static final double[] ITL_MS = {1, 5, 20, 50};
    private static final double TARGET_NS = 1_000;
    private static final double AIM_NS = 200;
    /** B/op at or below which a benchmark counts as allocation-free: JMH's own bookkeeping shows as ~0.01 B/op. */
    public static final double ZERO_ALLOC_BYTES = JmhResult.ZERO_ALLOC_BYTES;

    private OverheadReport()
    {
    }

    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /** The flags; {@code help} when {@code -h} or {@code --help} came before any bad flag. */
    private record Flags(Path file, int cores, long streams, String perChunk, boolean help)
    {
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final Flags flags;
        try
        {
            flags = flags(args);
        }
        catch (final RuntimeException ex)
        {
            err.println("OverheadReport: " + ex.getMessage() + "\n" + usage());
            return 2;
        }
        if (flags.help())
        {
            out.println(usage());
            return 0;
        }
        final Path file = flags.file();
        if (!Files.isReadable(file))
        {
            err.println("OverheadReport: cannot read " + file);
            return 2;
        }
        final List<JmhResult> results;
        try
        {
            results = JmhResult.read(file);
        }
        catch (final IOException | RuntimeException ex)
        {
            err.println("OverheadReport: " + ex.getMessage());
            return 2;
        }
        final String perChunk = flags.perChunk();
        report(results, perChunk.contains(".") ? perChunk : "io.tokenclock.jmh." + perChunk, flags.cores(),
            flags.streams(), out);
        return 0;
    }

    private static Flags flags(final String[] args)
    {
        Path file = null;
        int cores = Runtime.getRuntime().availableProcessors();
        long streams = 1_000;
        String perChunk = PER_CHUNK;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--cores" -> cores = Integer.parseInt(args[++i]);
                case "--streams" -> streams = Long.parseLong(args[++i]);
                case "--per-chunk" -> perChunk = args[++i];
                case "-h", "--help" ->
                {
                    return new Flags(file, cores, streams, perChunk, true);
                }
                default ->
                {
                    if (args[i].startsWith("-") || file != null)
                    {
                        throw new IllegalArgumentException("unexpected argument: " + args[i]);
                    }
                    file = Path.of(args[i]);
                }
            }
        }
        if (file == null)
        {
            throw new IllegalArgumentException("no result file given");
        }
        if (cores < 1 || streams < 1)
        {
            throw new IllegalArgumentException("--cores and --streams must be >= 1");
        }
        return new Flags(file, cores, streams, perChunk, false);
    }

    private static String usage()
    {
        return "usage: OverheadReport RESULT.json [--cores N] [--streams N] [--per-chunk BENCHMARK]";
    }

    static void report(
        final List<JmhResult> results, final String perChunkName, final int cores, final long streams,
        final PrintStream out)
    {
        table(results, out);
        final JmhResult pc = find(results, perChunkName);
        if (pc == null || Double.isNaN(pc.nsPerOp()))
        {
            out.println();
            out.println("(no " + perChunkName + " time-per-op result in this file: no per-chunk overhead summary)");
            return;
        }
        final double ns = pc.nsPerOp();
        final double upper = ns + pc.errorNsPerOp();
        out.println();
        out.printf(Locale.ROOT, "Whole per-chunk path (%s): %s ns/chunk (99.9%% CI upper bound %s ns), %s B/op%n",
            pc.displayName(), fmt(ns), fmt(upper), pc.allocCell());
        clockReads(results, ns, out);
        out.println();
        out.println("As a fraction of the inter-token latency (ITL) it measures, per stream:");
        for (final double itl : ITL_MS)
        {
            out.printf(Locale.ROOT, "  ITL %2s ms: %8.4f%% of each gap%n", ms(itl), 100.0 * ns / (itl * 1e6));
        }
        out.println();
        budget(results, ns, cores, streams, out);
        out.println();
        final double alloc = pc.allocOrZero();
        final boolean timeMet = upper < TARGET_NS;
        final boolean allocMet = !Double.isNaN(alloc) && !pc.allocates(ZERO_ALLOC_BYTES);
        out.printf(Locale.ROOT, "Targets: per-chunk path < 1,000 ns: %s (%s ns; aim 200 ns: %s); 0 B/op: %s%n",
            timeMet ? "MET" : "NOT MET", fmt(ns), ns <= AIM_NS ? "met" : "not met",
            Double.isNaN(alloc) ? "UNKNOWN (run with -prof gc)" : allocMet ? "MET" : "NOT MET (" + pc.allocCell() +
                ")");
    }

    /** Every benchmark's score, error and B/op, with what the B/op column means and whether anything allocates. */
    private static void table(final List<JmhResult> results, final PrintStream out)
    {
        final int width = Math.max(40, results.stream().mapToInt(r -> r.displayName().length()).max().orElse(0));
        final String row = "%-" + width + "s %5s %12s %11s %-7s %9s%n";
        out.printf(Locale.ROOT, row, "benchmark", "mode", "score", "error", "unit", "B/op");
        int allocating = 0;
        for (final JmhResult r : results)
        {
            out.printf(Locale.ROOT, row, r.displayName(), r.mode(), fmt(r.score()),
                Double.isNaN(r.scoreError()) ? "± n/a" : "± " + fmt(r.scoreError()), r.unit(), r.allocCell());
            if (r.allocates(ZERO_ALLOC_BYTES))
            {
                allocating++;
            }
        }
        final boolean gc = results.stream().anyMatch(JmhResult::gcProfiled);
        out.println();
        out.println("error: half-width of JMH's 99.9% confidence interval. B/op: gc.alloc.rate.norm" +
            (gc ? "; 0* = JMH omitted the key (nothing allocated); ~ = under 16 KB per measurement iteration, i.e. " +
                "JMH's own per-iteration allocation spread over few ops, not the benchmark's" :
                "; - = run without -prof gc") + ".");
        if (gc)
        {
            out.println(allocating == 0 ?
                "allocation: every benchmark is allocation-free in steady state (<= " + ZERO_ALLOC_BYTES +
                    " B/op, or JMH bookkeeping only; scripts/overhead --alloc-check counts exactly)." :
                "allocation: " + allocating + " benchmark(s) allocate more than " + ZERO_ALLOC_BYTES +
                    " B/op; run scripts/overhead --alloc-check and --profile alloc to see what.");
        }
    }

    /** The per-chunk path in reads of the clock it stamps with, when the file has the clock's benchmark. */
    private static void clockReads(final List<JmhResult> results, final double ns, final PrintStream out)
    {
        JmhResult clock = find(results, CLOCK);
        if (clock == null)
        {
            clock = find(results, CLOCK_FALLBACK);
        }
        if (clock != null && clock.nsPerOp() > 0)
        {
            final JmhResult gran = find(results, GRANULARITY);
            out.printf(Locale.ROOT, "  = %.1f reads of the clock it stamps with (System.nanoTime: %s ns per read%s)%n",
                ns / clock.nsPerOp(), fmt(clock.nsPerOp()),
                gran != null ? ", " + fmt(gran.nsPerOp()) + " ns between distinct readings" : "");
        }
    }

    /** The per-chunk path against a client's CPU budget: streams x ITL on the given cores, and one core's ceiling. */
    private static void budget(
        final List<JmhResult> results, final double ns, final int cores, final long streams, final PrintStream out)
    {
        out.printf(Locale.ROOT, "Client CPU budget (%,d concurrent streams, %d core%s):%n", streams, cores,
            cores == 1 ? "" : "s");
        for (final double itl : ITL_MS)
        {
            final double chunksPerSecond = streams * 1e3 / itl;
            final double budgetNs = cores * 1e9 / chunksPerSecond;
            out.printf(Locale.ROOT,
                "  at %2s ms ITL x %,d streams = %,.0f chunks/s, %d core%s give %,.0f ns per chunk; " +
                    "perChunk uses %.2f%%%n",
                ms(itl), streams, chunksPerSecond, cores, cores == 1 ? "" : "s", budgetNs, 100.0 * ns / budgetNs);
        }
        final double perCore = 1e9 / ns;
        out.printf(Locale.ROOT,
            "  one core saturates at %,.0f chunks/s: %,.0f streams at 1 ms ITL, %,.0f at 5 ms (path alone; the " +
                "network stack costs more)%n", perCore, perCore / 1e3, perCore * 5 / 1e3);
        final JmhResult request = find(results, REQUEST);
        if (request != null && !Double.isNaN(request.nsPerOp()))
        {
            out.printf(Locale.ROOT,
                "  per request (RequestLifecycleBenchmark.request, 4 events included): %s ns; over 256 tokens %.1f " +
                    "ns per chunk%n", fmt(request.nsPerOp()), request.nsPerOp() / 256);
        }
    }

    private static JmhResult find(final List<JmhResult> results, final String benchmark)
    {
        for (final JmhResult r : results)
        {
            if (r.benchmark().equals(benchmark) && r.params().isEmpty())
            {
                return r;
            }
        }
        for (final JmhResult r : results)
        {
            if (r.benchmark().equals(benchmark))
            {
                return r;
            }
        }
        return null;
    }

    /** Three significant digits at least, no exponent: 0.00213, 0.021, 21.43, 258.1, 61,234. */
    static String fmt(final double v)
    {
        if (Double.isNaN(v))
        {
            return "NaN";
        }
        final double a = Math.abs(v);
        final String pattern = a >= 1_000 ? "%,.0f" : a >= 100 ? "%.1f" : a >= 1 || a == 0 ? "%.2f" :
            a >= 0.01 ? "%.3f" : "%.5f";
        return String.format(Locale.ROOT, pattern, v);
    }

    private static String ms(final double itl)
    {
        return String.format(Locale.ROOT, "%.0f", itl);
    }
}
