package io.tokenclock.deploy;

import java.time.Instant;
import java.util.List;

/**
 * What a rendered job of N shards runs, whatever the scheduler: the shard count, the run's own arguments (as
 * {@code tokenclock run} takes them, less the shard and output flags the job sets), where results go, the common
 * start, and the resources of one shard.
 *
 * @param name        the job's name (DNS-1123 safe: lowercase letters, digits, '-').
 * @param shards      how many shards, at least 1.
 * @param runArgs     the arguments of {@code tokenclock run}, e.g. {@code --config c.yaml --url ...}.
 * @param outputDir   the shared results directory; shard I writes {@code shard-I} under it, merge {@code merged}.
 * @param startAt     the common start, or null for a start the submitter sets ({@code START_AT}).
 * @param cpusPerTask CPUs of one shard.
 * @param tokenclock  how the job invokes tokenclock (a path to the launcher, or the image's entry point).
 * @param credentials what of the run's arguments, and which API keys, the job carries in its environment.
 */
public record ShardJob(String name, int shards, List<String> runArgs, String outputDir, Instant startAt,
    int cpusPerTask, String tokenclock, JobCredentials credentials)
{
    public ShardJob
    {
        if (shards < 1)
        {
            throw new IllegalArgumentException("--shards must be >= 1: " + shards);
        }
        if (cpusPerTask < 1)
        {
            throw new IllegalArgumentException("--cpus-per-task must be >= 1: " + cpusPerTask);
        }
        if (!name.matches("[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?"))
        {
            throw new IllegalArgumentException("--name must be lowercase letters, digits and '-' (at most 42), " +
                "got: " + name);
        }
        runArgs = List.copyOf(runArgs);
        for (int i = 0; i < runArgs.size(); i++)
        {
            RenderChecks.text(argument(i), runArgs.get(i));
        }
        RenderChecks.text("--tokenclock", tokenclock);
        RenderChecks.text("--output-dir", outputDir);
        for (final String a : runArgs)
        {
            if (a.equals("--shard") || a.equals("--shards") || a.startsWith("--shard=") || a.startsWith("--shards=") ||
                a.equals("--output-dir") || a.startsWith("--output-dir=") || a.equals("--start-at") ||
                a.startsWith("--start-at="))
            {
                throw new IllegalArgumentException(a + " is set by the rendered job for each shard: leave it out of " +
                    "the run's arguments");
            }
        }
    }

    /** @return how a message names run argument {@code i}: by position, never by value (it may be a credential). */
    public static String argument(final int i)
    {
        return "the run's argument " + (i + 1) + " (after --)";
    }

    /** @return the run's arguments as the script's words: each quoted, or its variable if it holds a credential. */
    public String runWords()
    {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < runArgs.size(); i++)
        {
            sb.append(i == 0 ? "" : " ").append(credentials.word(runArgs, i));
        }
        return sb.toString();
    }
}
