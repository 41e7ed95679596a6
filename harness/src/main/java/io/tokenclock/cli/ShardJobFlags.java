package io.tokenclock.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

import io.tokenclock.config.RunOptions;
import io.tokenclock.deploy.JobCredentials;
import io.tokenclock.deploy.RenderChecks;
import io.tokenclock.deploy.ShardJob;
import io.tokenclock.quality.JudgeSpec;

/**
 * The flags of {@code slurm render}: the shard count, the shared output directory, the common start, one shard's
 * CPUs, where the job's credentials go, and the run's own arguments after {@code --}, which are checked here as
 * {@code run} would check them, so that a mistake is found before the job is submitted. What both renderers share
 * of the run's arguments (the check, the credentials they carry) is here too.
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

    @Option(names = "--secrets-file", paramLabel = "FILE", description = "Where the run's credentials go (-H " +
        "values, a URL's user information or query, the API key), readable only by you and sourced by each task; " +
        "written only when there are some (default ./<name>-secrets.env; on storage the nodes share).")
    Path secretsFile;

    @Parameters(paramLabel = "RUN_ARGS", description = "The run's flags (after --), as tokenclock run takes them.")
    List<String> runArgs = new ArrayList<>();

    /**
     * @return the job, its run arguments checked as {@code run} checks them for shard 0; a relative
     * {@code --config} or {@code --output-dir} made absolute (the file the render checked, wherever sbatch is called).
     */
    ShardJob toJob()
    {
        // before any of them becomes a Path, which refuses a NUL with a message of its own
        RenderChecks.text("--output-dir", outputDir == null ? "" : outputDir);
        for (int i = 0; i < runArgs.size(); i++)
        {
            RenderChecks.text(ShardJob.argument(i), runArgs.get(i));
        }
        final List<String> args = absoluteConfig(runArgs);
        final RunOptions options = checkRunArgs(args, shape.shards);
        return new ShardJob(shape.name, shape.shards, args, Path.of(outputDir != null ? outputDir :
            Path.of("results", shape.name).toString()).toAbsolutePath().normalize().toString(),
            startAt == null ? null : parseStart(startAt), shape.cpusPerTask, tokenclock != null ? tokenclock :
            launcher(), JobCredentials.of(args, keyVariables(options, System.getenv())));
    }

    /** @return where the credentials file goes. */
    Path secretsFile()
    {
        return secretsFile != null ? secretsFile : Path.of(shape.name + "-secrets.env");
    }

    /** @return {@code args} with the value of {@code --config} absolute. */
    static List<String> absoluteConfig(final List<String> args)
    {
        final List<String> out = new ArrayList<>(args);
        for (int i = 0; i < out.size(); i++)
        {
            if (out.get(i).equals("--config") && i + 1 < out.size())
            {
                out.set(i + 1, Path.of(out.get(i + 1)).toAbsolutePath().normalize().toString());
            }
            else if (out.get(i).startsWith("--config="))
            {
                out.set(i, "--config=" + Path.of(out.get(i).substring("--config=".length())).toAbsolutePath()
                    .normalize());
            }
        }
        return out;
    }

    /**
     * @return the API keys' variables the run reads ({@code --api-key-env} or {@code target.api_key_env}, the
     * judge's {@code api_key_env}) that are set in {@code env}, with their values: the job carries them, since a pod
     * has none of the renderer's environment and a Slurm task need not have it.
     */
    static Map<String, String> keyVariables(final RunOptions options, final Map<String, String> env)
    {
        final Map<String, String> keys = new LinkedHashMap<>();
        final JudgeSpec judge = options.quality().rule() == null ? null : options.quality().rule().judge();
        for (final String name : new String[] {options.target().apiKeyEnv(), judge == null ? null : judge.apiKeyEnv()})
        {
            final String value = name == null ? null : env.get(name);
            if (value != null && !value.isBlank())
            {
                keys.put(name, value);
            }
        }
        return keys;
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

    /**
     * Builds shard 0's options from the run's arguments: what fails there would fail in every task.
     *
     * @return those options.
     */
    static RunOptions checkRunArgs(final List<String> runArgs, final int shards)
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
        return run.toOptions();
    }

    /** @return the absolute path of the launcher that started this JVM, or "tokenclock" on the PATH. */
    static String launcher()
    {
        final String home = System.getProperty("tokenclock.home");
        return home != null ? Path.of(home, "tokenclock").toAbsolutePath().toString() : "tokenclock";
    }
}
