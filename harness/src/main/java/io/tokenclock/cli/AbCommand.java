package io.tokenclock.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import io.tokenclock.compare.ContractDiff;
import io.tokenclock.config.RunOptions;
import io.tokenclock.contract.ContractFile;
import io.tokenclock.contract.ContractOptions;
import io.tokenclock.report.ConsoleSummary;
import io.tokenclock.run.RunResult;
import io.tokenclock.results.OutputDir;
import io.tokenclock.results.Results;
import io.tokenclock.runner.BenchmarkRunner;
import io.tokenclock.runner.Interruption;
import io.tokenclock.runner.ServerProbe;

/**
 * {@code tokenclock ab A.yaml B.yaml}: compares two contracts on the same system, interleaved so that drift (thermal,
 * caches, a neighbour's load) falls on both alike: A B, then B A, then A B ... Each run keeps its own directory
 * ({@code DIR/A/rep-K}, {@code DIR/B/rep-K}); {@code DIR/ab.json} gives each figure's difference B - A with a seeded
 * 95% bootstrap interval and whether it exceeds the noise (the interval excludes 0). Each pair K runs with its own
 * seed ({@link #pairSeed}), A and B of it with the same one. {@code DIR/index.json} and {@code DIR/ab.json} are
 * written as the set begins and after each run ({@link AbSet}), so that a set stopped at any moment, {@code kill -9}
 * included, reads as partial; a signal stops it after the run in flight. Flags: docs/CLI.md.
 */
@Command(name = "ab", mixinStandardHelpOptions = true,
    description = "Compare two contracts, interleaved (A B B A ...), with intervals on every difference.")
public final class AbCommand implements Callable<Integer>
{
    @Parameters(index = "0", description = "Contract A (YAML).")
    Path contractA;

    @Parameters(index = "1", description = "Contract B (YAML).")
    Path contractB;

    @Option(names = "--repetitions", defaultValue = "3",
        description = "Runs of each variant, interleaved (default: ${DEFAULT-VALUE}).")
    int repetitions;

    @Option(names = "--output-dir", description = "Where the runs and ab.json go (default: results/ab-TIME).")
    Path outputDir;

    @Option(names = "--force", description = "Replace the runs of an earlier comparison in the output directory " +
        "(without it, a directory that holds a run is refused).")
    boolean force;

    @Option(names = "--no-report", description = "Write no report.html at the end.")
    boolean noReport;

    @Override
    public Integer call() throws Exception
    {
        if (repetitions < 2 || repetitions > 100)
        {
            throw new IllegalArgumentException("--repetitions must be in [2, 100] for an interval: " + repetitions);
        }
        final RunOptions a = load(contractA);
        final RunOptions b = load(contractB);
        sameQuality(a, b);
        final Path base = outputDir != null ? outputDir : Path.of("results", "ab-" + System.currentTimeMillis());
        refuseExisting(base);
        final AbSet set = new AbSet(contractA, contractB, base, 2 * repetitions);
        final Interruption signals = Interruption.install(System.err, a.load().graceS());
        set.write(set.inProgress(), null);
        final int status = runAll(a, b, set, signals);
        if (status != Main.EXIT_OK)
        {
            return status;
        }
        set.write(signals.requested() ? "interrupted by " + signals.signalName() + ": stopped after the run in " +
            "flight; " + set.made() + " of " + 2 * repetitions + " runs made" : null, System.out);
        ReportCommand.afterRun(base, !noReport);
        return signals.requested() ? signals.exitStatus() : Main.EXIT_OK;
    }

    /**
     * Runs the pairs, interleaved, until the last or a signal: a signal lets the run in flight end (or ends its
     * preparation) and no run is started after it.
     *
     * @return {@link Main#EXIT_OK} when the loop ended (all runs made, or a signal), else the exit status of a set
     * that cannot go on (the server unusable, the variants refused), whose ab.json then says why.
     */
    private int runAll(final RunOptions a, final RunOptions b, final AbSet set, final Interruption signals)
        throws IOException, InterruptedException
    {
        for (int k = 1; k <= repetitions; k++)
        {
            final boolean aFirst = k % 2 == 1;
            for (final boolean isA : aFirst ? new boolean[] {true, false} : new boolean[] {false, true})
            {
                if (signals.requested())
                {
                    return Main.EXIT_OK;
                }
                final String name = isA ? "A" : "B";
                System.out.printf(Locale.ROOT, "%ntokenclock ab: %s, repetition %d of %d%n", name, k, repetitions);
                final RunOptions one = variant(isA ? a : b, name, k, a.workload().seed(), set.base()).toBuilder()
                    .force(force).build();
                final RunResult result;
                try
                {
                    result = new BenchmarkRunner().interruptedBy(signals).run(one, System.err);
                }
                catch (final ServerProbe.UnreachableException ex)
                {
                    set.write("stopped: the server could not be used: " + ex.getMessage(), null);
                    System.err.println(Main.errorLine(ex.getMessage()));
                    return Main.EXIT_UNREACHABLE;
                }
                catch (final Interruption.Stopped ex)
                {
                    return Main.EXIT_OK; // a signal before the run's window: nothing of it to keep
                }
                ConsoleSummary.print(result, System.out);
                set.add(isA, result);
                set.write(set.inProgress(), null);
                if (set.made() == 2 && refused(set.a().get(0), set.b().get(0)))
                {
                    set.write("refused: the variants would not measure the same thing (their differences were " +
                        "printed)", null);
                    return Main.EXIT_INCOMPARABLE;
                }
            }
        }
        return Main.EXIT_OK;
    }

    /**
     * Refuses, before anything is written or run, a set directory that already holds a result or a run directory of
     * the set that does ({@link OutputDir}, the rule of {@code run}), unless {@code --force}.
     */
    private void refuseExisting(final Path base)
    {
        OutputDir.refuseExisting(base, force, "--output-dir");
        for (int k = 1; k <= repetitions; k++)
        {
            OutputDir.refuseExisting(runDir(base, "A", k), force, "--output-dir");
            OutputDir.refuseExisting(runDir(base, "B", k), force, "--output-dir");
        }
    }

    /** @return the options of variant {@code name}'s run in pair {@code k}, in {@code DIR/NAME/rep-K}. */
    static RunOptions variant(final RunOptions v, final String name, final int k, final long baseSeed,
        final Path base)
    {
        return v.toBuilder().repetitionIndex(k).runId("ab-" + name + "-rep" + k).seed(pairSeed(baseSeed, k))
            .outputDir(runDir(base, name, k)).build();
    }

    /** @return variant {@code name}'s run directory in pair {@code k}: {@code DIR/NAME/rep-K}. */
    static Path runDir(final Path base, final String name, final int k)
    {
        return base.resolve(name).resolve("rep-" + k);
    }

    /**
     * The seed of pair {@code k} (1-based), the same for A and B within it: {@code mix64(base + k x 0x9E3779B97F4A7C15)},
     * with {@code mix64} the finalizer of {@link java.util.SplittableRandom} (Stafford's variant 13), {@code base} A's
     * declared seed. Every pair draws its own prompts and its own arrival times, so a difference between A and B is
     * measured over several schedules instead of being an artefact of one: with one seed for every pair, open-loop
     * runs replay identical arrivals and a variant that answers later only looks slower in throughput. A and B of a
     * pair share theirs, so within a pair the comparison stays paired. Depends on the base seed and k alone.
     */
    static long pairSeed(final long baseSeed, final int k)
    {
        long z = baseSeed + k * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * The rules of {@code compare}, on the first record of each variant: variants that differ in timing endpoints,
     * token counting, formulas, percentile method, workload, load model, warm-up or failure handling are refused
     * before the other runs are made.
     *
     * @return whether the variants are refused (the differences printed).
     */
    private static boolean refused(final RunResult a, final RunResult b) throws IOException
    {
        final ContractDiff diff = ContractDiff.of(Results.record(a.target().outputDir()),
            Results.record(b.target().outputDir()));
        if (diff.refusals().isEmpty())
        {
            System.out.println("tokenclock ab: " + diff.sentence());
            return false;
        }
        diff.differences().forEach(d -> System.err.println("  " + d.line()));
        System.err.println("tokenclock: refused: the variants differ in " + String.join(", ", diff.brokenRules()) +
            " (listed above): their figures would not measure the same thing");
        return true;
    }

    /**
     * Refuses variants whose quality sections differ: goodput and success compared under two rules would compare the
     * rules, not the systems. The SLO, the success criterion, the checks and the judge (its rubric by content) must
     * be the same.
     */
    private static void sameQuality(final RunOptions a, final RunOptions b)
    {
        if (!Objects.equals(a.quality().slo(), b.quality().slo()) ||
            !a.quality().rule().sameAs(b.quality().rule()))
        {
            throw new IllegalArgumentException("the variants must declare the same quality section (slo, success, " +
                "checks, judge): A and B are judged by one rule, fixed before the runs");
        }
    }

    /** @return the contract's options; a contract that breaks a rule is a usage error naming its file. */
    private static RunOptions load(final Path contract)
    {
        final ContractFile file = ContractFile.load(contract);
        if (!file.isValid())
        {
            throw new IllegalArgumentException(contract + ": " + file.errors().get(0));
        }
        return ContractOptions.apply(file, RunOptions.builder()).commandLine(List.of("tokenclock", "ab",
            contract.toString())).build();
    }
}
