package io.tokenclock.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.report.ConsoleSummary;
import io.tokenclock.report.PooledRepetitions;
import io.tokenclock.report.Repetitions;
import io.tokenclock.report.ResultTables;
import io.tokenclock.run.RunResult;
import io.tokenclock.results.Index;
import io.tokenclock.results.Kind;
import io.tokenclock.results.Results;
import io.tokenclock.runner.BenchmarkRunner;
import io.tokenclock.runner.Interruption;
import io.tokenclock.runner.LateStartException;
import io.tokenclock.runner.ServerProbe;
import io.tokenclock.secrets.Redaction;

/** {@code tokenclock run}: benchmark any OpenAI-compatible streaming endpoint. Flags: docs/CLI.md. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
    modelTransformer = TableFlags.class,
    description = "Benchmark an OpenAI-compatible streaming endpoint.")
public final class RunCommand implements Callable<Integer>
{
    @Mixin
    RunFlags flags;

    @Mixin
    ShardFlags shardFlags;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        return execute(toBuilder().commandLine(RecordedCommand.of("run", spec.commandLine().getParseResult()))
            .build());
    }

    /** @return the validated options: the contract's, if any, overridden by the flags given beside it. */
    RunOptions toOptions()
    {
        return toBuilder().build();
    }

    private RunOptionsBuilder toBuilder()
    {
        return flags.toBuilder(spec.commandLine().getParseResult())
            .shard(shardFlags.toSpec(System.getenv(), Instant.now()));
    }

    static RateSchedule.Ramp parseRamp(final String text, final String flag)
    {
        final String[] parts = text.split(":");
        if (parts.length < 3 || parts.length > 4 || (parts.length == 4 && !parts[3].equals("exponential") &&
            !parts[3].equals("linear")))
        {
            throw new IllegalArgumentException(flag + " must be FROM:TO:SECONDS[:linear|exponential], got: " + text);
        }
        return new RateSchedule.Ramp(number(parts[0], flag), number(parts[1], flag), number(parts[2], flag),
            parts.length == 4 && parts[3].equals("exponential"));
    }

    static double number(final String text, final String flag)
    {
        try
        {
            return Double.parseDouble(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(flag + ": not a number: " + text);
        }
    }

    /** Runs validated options, prints the summary, and returns the exit code. Shared with the demo. */
    static int execute(final RunOptions o) throws Exception
    {
        if (o.state().repetitions() > 1)
        {
            return executeRepeated(o);
        }
        final Interruption signals = Interruption.install(System.err, o.load().graceS());
        final RunResult result;
        try
        {
            result = new BenchmarkRunner().interruptedBy(signals).run(o, System.err);
        }
        catch (final ServerProbe.UnreachableException ex)
        {
            System.err.println(Main.errorLine(ex.getMessage()));
            return Main.EXIT_UNREACHABLE;
        }
        catch (final LateStartException ex)
        {
            System.err.println(Main.errorLine(ex.getMessage() + "; record.json says so"));
            return Main.EXIT_FAILED;
        }
        ConsoleSummary.print(result, System.out);
        ReportCommand.afterRun(result.target().outputDir(), o.output().htmlReport());
        if (signals.requested())
        {
            System.err.println(Main.errorLine(result.partialReason() + "; record.json is marked partial"));
            return signals.exitStatus();
        }
        if (result.counts().ok() == 0)
        {
            System.err.println("tokenclock: no measured request succeeded (see errors above and requests.jsonl)");
            return Main.EXIT_FAILED;
        }
        return Main.EXIT_OK;
    }

    /** Runs the same options N times back to back, each in DIR/rep-K, then reports the spread. */
    private static int executeRepeated(final RunOptions o) throws Exception
    {
        final String runId = o.output().runId() != null ? o.output().runId() : "run-" + DateTimeFormatter
            .ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        final Path base = o.output().outputDir() != null ? o.output().outputDir() : Path.of("results", runId);
        final List<RunResult> runs = new ArrayList<>();
        final Interruption signals = Interruption.install(System.err, o.load().graceS());
        // The set's files are written as it begins and after each repetition, marked in progress, so that a set
        // stopped at any moment (kill -9 included) reads as the repetitions it made.
        writeSet(base, runs, inProgress(runs, o), null);
        for (int k = 1; k <= o.state().repetitions() && !signals.requested(); k++)
        {
            final RunOptions one = o.toBuilder().repetitionIndex(k).runId(runId + "-rep" + k)
                .outputDir(base.resolve("rep-" + k)).build();
            System.out.printf(Locale.ROOT, "%ntokenclock: repetition %d of %d%n", k, o.state().repetitions());
            try
            {
                runs.add(new BenchmarkRunner().interruptedBy(signals).run(one, System.err));
            }
            catch (final ServerProbe.UnreachableException ex)
            {
                System.err.println(Main.errorLine(ex.getMessage()));
                return Main.EXIT_UNREACHABLE;
            }
            ConsoleSummary.print(runs.get(runs.size() - 1), System.out);
            writeSet(base, runs, inProgress(runs, o), null);
        }
        final String cutShort = signals.requested() ? "interrupted by " + signals.signalName() +
            " during repetition " + runs.size() + " of " + o.state().repetitions() : null;
        writeSet(base, runs, cutShort, System.out);
        // The set's top-level record: the repetitions' histograms pooled, read back from what each one wrote.
        System.out.println();
        System.out.print(ResultTables.pooled(PooledRepetitions.write(base, Results.open(base).runs())));
        ReportCommand.afterRun(base, o.output().htmlReport());
        if (signals.requested())
        {
            System.err.println("tokenclock: " + cutShort + "; its record.json and repetitions.json are marked " +
                "partial");
            return signals.exitStatus();
        }
        return runs.stream().allMatch(r -> r.counts().ok() > 0) ? Main.EXIT_OK : Main.EXIT_FAILED;
    }

    /** @return the {@code partial} of a repetition set still running: how far it got. */
    private static String inProgress(final List<RunResult> runs, final RunOptions o)
    {
        return "in progress: " + runs.size() + " of " + o.state().repetitions() + " repetitions made " +
            "(repetitions.json is rewritten after each one; read while it says so, the set was stopped before its " +
            "end or is still running)";
    }

    /**
     * Writes {@code repetitions.json} and {@code index.json} of the repetitions made so far.
     *
     * @param partialReason why the set is not whole, or null for a set that ran to its end.
     * @param out           where the spread table goes; null: nowhere (the writes while the set runs).
     */
    private static void writeSet(final Path base, final List<RunResult> runs, final String partialReason,
        final PrintStream out) throws IOException
    {
        Files.createDirectories(base);
        Repetitions.write(runs, partialReason, base.resolve("repetitions.json"),
            out == null ? new PrintStream(OutputStream.nullOutputStream()) : out);
        final List<Index.Member> members = new ArrayList<>();
        for (int k = 1; k <= runs.size(); k++)
        {
            members.add(new Index.Member(base.resolve("rep-" + k).toAbsolutePath().toString(), "repetition " + k));
        }
        Index.write(base, Kind.REPETITIONS, members);
    }

    static Map<String, String> parseHeaders(final List<String> raw)
    {
        final Map<String, String> m = new LinkedHashMap<>();
        for (final String h : raw)
        {
            final int colon = h.indexOf(':');
            if (colon <= 0)
            {
                throw new IllegalArgumentException("--header must be NAME:VALUE, got: " + Redaction.headerArgument(h));
            }
            m.put(h.substring(0, colon).trim(), h.substring(colon + 1).trim());
        }
        return m;
    }
}
