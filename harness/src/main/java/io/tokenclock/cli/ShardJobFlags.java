package io.tokenclock.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

import io.tokenclock.deploy.ShardJob;

/**
 * The flags of {@code slurm render} and {@code k8s render}: the shard count, the shared output directory, the common
 * start, one shard's CPUs, and the run's own arguments after {@code --}, which are checked here as {@code run} would
 * check them, so that a mistake is found before the job is submitted.
 */
final class ShardJobFlags
{
    @Mixin
    JobShapeFlags shape;

    @Option(names = "--output-dir", paramLabel = "DIR",
        description = "Shared results directory (default results/<name>); shard I writes shard-I, merge merged.")
    String outputDir;

    @Option(names = "--start-at", paramLabel = "TIME",
        description = "The common start (ISO-8601 UTC); default: the submitter sets START_AT.")
    String startAt;

    @Option(names = "--tokenclock", paramLabel = "PATH",
        description = "How a task invokes tokenclock (default: this launcher's absolute path).")
    String tokenclock;

    @Parameters(paramLabel = "RUN_ARGS", description = "The run's flags (after --), as tokenclock run takes them.")
    List<String> runArgs = new ArrayList<>();

    /** @return the job, its run arguments checked as {@code run} checks them for shard 0. */
    ShardJob toJob()
    {
        final ShardJob job = new ShardJob(shape.name, shape.shards, runArgs, outputDir != null ? outputDir :
            Path.of("results", shape.name).toAbsolutePath().toString(), startAt == null ? null : parseStart(startAt),
            shape.cpusPerTask, tokenclock != null ? tokenclock : launcher());
        checkRunArgs(job.runArgs(), shape.shards);
        return job;
    }

    /** @return {@code startAt} as an instant. */
    static Instant parseStart(final String startAt)
    {
        try
        {
            return Instant.parse(startAt);
        }
        catch (final DateTimeParseException ex)
        {
            throw new IllegalArgumentException("--start-at must be an ISO-8601 UTC time such as " +
                "2026-12-01T20:30:00Z, got: " + startAt);
        }
    }

    /** Builds shard 0's options from the run's arguments: what fails there would fail in every task. */
    static void checkRunArgs(final List<String> runArgs, final int shards)
    {
        final RunCommand run = new RunCommand();
        final CommandLine cli = new CommandLine(run);
        final List<String> args = new ArrayList<>(runArgs);
        args.add("--shard");
        args.add("0/" + shards);
        try
        {
            cli.parseArgs(args.toArray(String[]::new));
        }
        catch (final CommandLine.ParameterException ex)
        {
            throw new IllegalArgumentException("the run's arguments: " + ex.getMessage());
        }
        run.toOptions();
    }

    /** @return the absolute path of the launcher that started this JVM, or "tokenclock" on the PATH. */
    static String launcher()
    {
        final String home = System.getProperty("tokenclock.home");
        return home != null ? Path.of(home, "tokenclock").toAbsolutePath().toString() : "tokenclock";
    }
}
