package io.tokenclock.jmh.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compares two JMH JSON result files benchmark by benchmark and says, for each, whether the new run is a regression,
 * an improvement, or the same within noise.
 * <p>
 * Benchmarks are matched on name, {@code @Param} values and mode. For each pair the ratio new/base is printed with
 * both runs' error bounds, where a bound is {@code score ± scoreError} and JMH's {@code scoreError} is the
 * half-width of the 99.9% confidence interval of the score. For a time-per-operation mode (lower is better) the
 * verdict is:
 * <ul>
 * <li><b>regression</b> only if the new run's lower bound is above the base run's upper bound (the intervals do not
 * overlap, so the difference is not explained by the run-to-run noise JMH saw) <em>and</em> new/base exceeds
 * {@code 1 + threshold} (the difference is big enough to matter);</li>
 * <li><b>improvement</b> symmetrically: the new run's upper bound is below the base's lower bound and base/new
 * exceeds {@code 1 + threshold} (so swapping the two files turns a regression into an improvement);</li>
 * <li><b>same (within noise)</b> otherwise.</li>
 * </ul>
 * For throughput mode (higher is better) the directions are reversed. When JMH gave no error (a single iteration,
 * {@code NaN}), the bound is the score itself and the line is marked {@code no CI}. Benchmarks present in only one
 * file are listed and do not affect the outcome. Allocation ({@code gc.alloc.rate.norm}) is shown beside the timing
 * and a new allocation above {@value OverheadReport#ZERO_ALLOC_BYTES} B/op where the base had none is flagged in a
 * note, but it does not change the exit status.
 * <p>
 * Usage: {@code JmhCompare BASE.json NEW.json [--threshold PERCENT]} (default 10). Exit status: 0 if no
 * regression, 1 if at least one, 2 on bad usage or an unreadable file.
 */
public final class JmhCompare
{
    public static final double DEFAULT_THRESHOLD_PERCENT = 10.0;

    /** The outcome of comparing one benchmark. */
    public enum Verdict
    {
        REGRESSION("regression"),
        IMPROVEMENT("improvement"),
        SAME("same (within noise)");

        private final String label;

        Verdict(final String label)
        {
            this.label = label;
        }

        public String label()
        {
            return label;
        }
    }

    private JmhCompare()
    {
    }

    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Decides one pair. Pure, for tests.
     *
     * @param threshold the relative change that matters, as a fraction (0.10 for 10%).
     */
    public static Verdict verdict(final JmhResult base, final JmhResult now, final double threshold)
    {
        final double baseLow = base.score() - base.errorOrZero();
        final double baseHigh = base.score() + base.errorOrZero();
        final double newLow = now.score() - now.errorOrZero();
        final double newHigh = now.score() + now.errorOrZero();
        final double ratio = now.score() / base.score();
        final boolean slower;
        final boolean faster;
        if (base.lowerIsBetter())
        {
            slower = newLow > baseHigh && ratio > 1 + threshold;
            faster = newHigh < baseLow && 1 / ratio > 1 + threshold;
        }
        else
        {
            slower = newHigh < baseLow && 1 / ratio > 1 + threshold;
            faster = newLow > baseHigh && ratio > 1 + threshold;
        }
        return slower ? Verdict.REGRESSION : faster ? Verdict.IMPROVEMENT : Verdict.SAME;
    }

    /** The flags; {@code help} when {@code -h} or {@code --help} came before any bad flag. */
    private record Flags(List<Path> files, double thresholdPercent, boolean help)
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
            err.println("jmh-compare: " + ex.getMessage() + "\n" + usage());
            return 2;
        }
        if (flags.help())
        {
            out.println(usage());
            return 0;
        }

        final List<Path> files = flags.files();
        final List<JmhResult> base;
        final List<JmhResult> now;
        try
        {
            base = readFile(files.get(0));
            now = readFile(files.get(1));
        }
        catch (final IOException | RuntimeException ex)
        {
            err.println("jmh-compare: " + ex.getMessage());
            return 2;
        }
        return compare(base, now, flags.thresholdPercent(), files.get(0), files.get(1), out);
    }

    private static Flags flags(final String[] args)
    {
        final List<Path> files = new ArrayList<>();
        double thresholdPercent = DEFAULT_THRESHOLD_PERCENT;
        for (int i = 0; i < args.length; i++)
        {
            final String a = args[i];
            if (a.equals("--threshold"))
            {
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException("--threshold needs a value");
                }
                thresholdPercent = percent(args[++i]);
            }
            else if (a.startsWith("--threshold="))
            {
                thresholdPercent = percent(a.substring("--threshold=".length()));
            }
            else if (a.equals("-h") || a.equals("--help"))
            {
                return new Flags(files, thresholdPercent, true);
            }
            else if (a.startsWith("-"))
            {
                throw new IllegalArgumentException("unknown option: " + a);
            }
            else
            {
                files.add(Path.of(a));
            }
        }
        if (files.size() != 2)
        {
            throw new IllegalArgumentException("need exactly two result files, got " + files.size());
        }
        if (!(thresholdPercent >= 0) || Double.isInfinite(thresholdPercent))
        {
            throw new IllegalArgumentException("--threshold must be a percentage >= 0");
        }
        return new Flags(files, thresholdPercent, false);
    }

    private static double percent(final String text)
    {
        try
        {
            return Double.parseDouble(text.endsWith("%") ? text.substring(0, text.length() - 1) : text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("--threshold: not a number: " + text);
        }
    }

    private static String pct(final double percent)
    {
        return percent == Math.rint(percent) ? String.format(Locale.ROOT, "%.0f", percent) :
            String.format(Locale.ROOT, "%s", percent);
    }

    private static List<JmhResult> readFile(final Path file) throws IOException
    {
        if (!Files.isReadable(file))
        {
            throw new IOException("cannot read " + file);
        }
        return JmhResult.read(file);
    }

    static int compare(
        final List<JmhResult> base, final List<JmhResult> now, final double thresholdPercent, final Path baseFile,
        final Path newFile, final PrintStream out)
    {
        final double threshold = thresholdPercent / 100.0;
        final Map<String, JmhResult> newByKey = new LinkedHashMap<>();
        for (final JmhResult r : now)
        {
            newByKey.put(r.key(), r);
        }
        final int width = Math.max(36, base.stream().mapToInt(r -> r.displayName().length()).max().orElse(0));
        final String row = "%-" + width + "s %5s %22s %22s %7s %9s %9s  %s%n";
        out.printf(Locale.ROOT, "base: %s%nnew:  %s%nthreshold: %s%% (and non-overlapping 99.9%% CIs)%n%n",
            baseFile, newFile, pct(thresholdPercent));
        out.printf(Locale.ROOT, row, "benchmark", "mode", "base ± error", "new ± error", "new/base", "base B/op",
            "new B/op", "verdict");
        final Map<Verdict, Integer> verdicts = new EnumMap<>(Verdict.class);
        final List<String> notes = new ArrayList<>();
        final List<String> onlyInBase = new ArrayList<>();
        for (final JmhResult b : base)
        {
            final JmhResult n = newByKey.remove(b.key());
            if (n == null)
            {
                onlyInBase.add(b.displayName() + " (" + b.mode() + ")");
                continue;
            }
            if (!b.unit().equals(n.unit()))
            {
                notes.add("unit differs, not compared: " + b.displayName() + " (" + b.unit() + " vs " + n.unit() + ")");
                continue;
            }
            verdicts.merge(comparePair(b, n, threshold, row, out, notes), 1, Integer::sum);
        }
        final List<String> onlyInNew = new ArrayList<>();
        for (final JmhResult n : newByKey.values())
        {
            onlyInNew.add(n.displayName() + " (" + n.mode() + ")");
        }
        if (!onlyInBase.isEmpty())
        {
            notes.add("only in base, not compared (" + onlyInBase.size() + "): " + String.join(", ", onlyInBase));
        }
        if (!onlyInNew.isEmpty())
        {
            notes.add("only in new, not compared (" + onlyInNew.size() + "): " + String.join(", ", onlyInNew));
        }
        return summary(verdicts, notes, out);
    }

    /** Prints one pair's row, notes an allocation the base did not have, and returns the pair's verdict. */
    private static Verdict comparePair(
        final JmhResult b, final JmhResult n, final double threshold, final String row, final PrintStream out,
        final List<String> notes)
    {
        final Verdict v = verdict(b, n, threshold);
        final boolean noCi = Double.isNaN(b.scoreError()) || Double.isNaN(n.scoreError());
        out.printf(Locale.ROOT, row, b.displayName(), b.mode(), bounds(b), bounds(n),
            String.format(Locale.ROOT, "%.3f", n.score() / b.score()), b.allocCell(), n.allocCell(),
            v.label() + (noCi ? " (no CI)" : ""));
        if (n.allocates(OverheadReport.ZERO_ALLOC_BYTES) && !b.allocates(OverheadReport.ZERO_ALLOC_BYTES))
        {
            notes.add("allocates now: " + b.displayName() + " " + n.allocCell() + " B/op (base " + b.allocCell() +
                ")");
        }
        return v;
    }

    /** Prints the notes and the count of each verdict; returns the exit status, 1 on any regression. */
    private static int summary(final Map<Verdict, Integer> verdicts, final List<String> notes, final PrintStream out)
    {
        final int regressions = verdicts.getOrDefault(Verdict.REGRESSION, 0);
        final int improvements = verdicts.getOrDefault(Verdict.IMPROVEMENT, 0);
        final int same = verdicts.getOrDefault(Verdict.SAME, 0);
        out.println();
        for (final String note : notes)
        {
            out.println("note: " + note);
        }
        out.printf(Locale.ROOT, "%d compared: %d regression%s, %d improvement%s, %d same (within noise)%n",
            regressions + improvements + same, regressions, regressions == 1 ? "" : "s", improvements,
            improvements == 1 ? "" : "s", same);
        return regressions > 0 ? 1 : 0;
    }

    private static String bounds(final JmhResult r)
    {
        return OverheadReport.fmt(r.score()) + " ± " +
            (Double.isNaN(r.scoreError()) ? "n/a" : OverheadReport.fmt(r.scoreError())) + " " + shortUnit(r.unit());
    }

    private static String shortUnit(final String unit)
    {
        return unit.endsWith("/op") ? unit.substring(0, unit.length() - 3) : unit;
    }

    private static String usage()
    {
        return "usage: jmh-compare BASE.json NEW.json [--threshold PERCENT]   (default " +
            pct(DEFAULT_THRESHOLD_PERCENT) + "; exit 0 no regression, 1 regression, 2 bad usage)";
    }
}
