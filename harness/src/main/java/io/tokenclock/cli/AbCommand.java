package io.tokenclock.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
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
import io.tokenclock.report.AbReport;
import io.tokenclock.report.ConsoleSummary;
import io.tokenclock.result.RunResult;
import io.tokenclock.results.Index;
import io.tokenclock.results.Kind;
import io.tokenclock.results.Results;
import io.tokenclock.runner.BenchmarkRunner;
import io.tokenclock.runner.Interruption;
import io.tokenclock.runner.ServerProbe;

/**
 * {@code tokenclock ab A.yaml B.yaml}: compares two contracts on the same system, interleaved so that drift (thermal,
 * caches, a neighbour's load) falls on both alike: A B, then B A, then A B ... Each run keeps its own directory
 * ({@code DIR/A/rep-K}, {@code DIR/B/rep-K}); {@code DIR/ab.json} gives each figure's difference B - A with a seeded
 * 95% bootstrap interval and whether it exceeds the noise (the interval excludes 0). Each pair K runs with its own
 * seed ({@link #pairSeed}), A and B of it with the same one. Flags: docs/CLI.md.
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
        final List<RunResult> runsA = new ArrayList<>();
        final List<RunResult> runsB = new ArrayList<>();
        final List<String> order = new ArrayList<>();
        final Interruption signals = Interruption.install(System.err, a.load().graceS());
        for (int k = 1; k <= repetitions && !signals.requested(); k++)
        {
            final boolean aFirst = k % 2 == 1;
            for (final boolean isA : aFirst ? new boolean[] {true, false} : new boolean[] {false, true})
            {
                final String name = isA ? "A" : "B";
                order.add(name);
                System.out.printf(Locale.ROOT, "%ntokenclock ab: %s, repetition %d of %d%n", name, k, repetitions);
                final RunOptions one = variant(isA ? a : b, name, k, a.workload().seed(), base).toBuilder().force(force)
                    .build();
                final RunResult result;
                try
                {
                    result = new BenchmarkRunner().interruptedBy(signals).run(one, System.err);
                }
                catch (final ServerProbe.UnreachableException ex)
                {
                    System.err.println(Main.errorLine(ex.getMessage()));
                    return Main.EXIT_UNREACHABLE;
                }
                ConsoleSummary.print(result, System.out);
                (isA ? runsA : runsB).add(result);
                if (runsA.size() == 1 && runsB.size() == 1 && order.size() == 2 && refused(runsA.get(0), runsB.get(0)))
                {
                    return Main.EXIT_INCOMPARABLE;
                }
            }
        }
        AbReport.write(contractA, contractB, order, runsA, runsB, base.resolve("ab.json"), System.out);
        writeIndex(base, runsA.size(), runsB.size());
        ReportCommand.afterRun(base, !noReport);
        return signals.requested() ? signals.exitStatus() : Main.EXIT_OK;
    }

    /** @return the options of variant {@code name}'s run in pair {@code k}, in {@code DIR/NAME/rep-K}. */
    static RunOptions variant(final RunOptions v, final String name, final int k, final long baseSeed,
        final Path base)
    {
        return v.toBuilder().repetitionIndex(k).runId("ab-" + name + "-rep" + k).seed(pairSeed(baseSeed, k))
            .outputDir(base.resolve(name).resolve("rep-" + k)).build();
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

    /** Writes the A/B's index: by repetition, {@code A/rep-K} as {@code a K}, then {@code B/rep-K} as {@code b K}. */
    private static void writeIndex(final Path base, final int runsA, final int runsB) throws IOException
    {
        final List<Index.Member> members = new ArrayList<>();
        for (int k = 1; k <= Math.max(runsA, runsB); k++)
        {
            if (k <= runsA)
            {
                members.add(new Index.Member(base.resolve("A").resolve("rep-" + k).toAbsolutePath().toString(),
                    "a " + k));
            }
            if (k <= runsB)
            {
                members.add(new Index.Member(base.resolve("B").resolve("rep-" + k).toAbsolutePath().toString(),
                    "b " + k));
            }
        }
        Index.write(base, Kind.AB, members);
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
