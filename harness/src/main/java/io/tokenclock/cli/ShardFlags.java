package io.tokenclock.cli;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;

import picocli.CommandLine.Option;

import io.tokenclock.config.ShardSpec;
import io.tokenclock.load.Stripe;

/**
 * {@code run}'s shard flags: which part of one run this process makes ({@code --shard I/N}, or {@code --shards N}
 * with the index from the scheduler's environment), and the common start ({@code --start-at}). docs/CLI.md,
 * "Shards". Every mistake is one line (exit 2).
 */
final class ShardFlags
{
    /** Kubernetes sets it in each pod of an Indexed Job. */
    static final String K8S_INDEX = "JOB_COMPLETION_INDEX";
    /** Slurm sets it in each task of a job array, with {@link #SLURM_COUNT}. */
    static final String SLURM_INDEX = "SLURM_ARRAY_TASK_ID";
    static final String SLURM_COUNT = "SLURM_ARRAY_TASK_COUNT";

    @Option(names = "--shard", paramLabel = "I/N",
        description = "Run only part I (0-based) of the N-shard run a single process would make.")
    String shard;

    @Option(names = "--shards", paramLabel = "N", description = "Run one of N shards, the index read from " +
        K8S_INDEX + " (Kubernetes Indexed Job) or " + SLURM_INDEX + " (Slurm job array).")
    Integer shards;

    @Option(names = "--start-at", paramLabel = "TIME",
        description = "Start the load at this wall-clock time (ISO-8601, e.g. 2026-12-01T20:30:00Z).")
    String startAt;

    @Option(names = "--start-tolerance", paramLabel = "S",
        description = "A shard ready later than --start-at plus this refuses to run (default 2 s).")
    Double startToleranceS;

    /** @return the shard's part and start, read from the flags and {@code env}; WHOLE when none was given. */
    ShardSpec toSpec(final Map<String, String> env, final Instant now)
    {
        final Stripe stripe = stripe(env);
        final Instant start = startAt == null ? null : parseStart(startAt, now);
        final double tolerance = startToleranceS == null ? ShardSpec.DEFAULT_TOLERANCE_S : startToleranceS;
        return stripe == Stripe.WHOLE && start == null && startToleranceS == null ? ShardSpec.WHOLE :
            new ShardSpec(stripe, start, tolerance);
    }

    private Stripe stripe(final Map<String, String> env)
    {
        if (shard != null && shards != null)
        {
            throw new IllegalArgumentException("--shard and --shards both given: use one (--shards reads the index " +
                "from the environment)");
        }
        if (shard != null)
        {
            final int slash = shard.indexOf('/');
            if (slash <= 0)
            {
                throw new IllegalArgumentException("--shard must be I/N (e.g. 0/4), got: " + shard);
            }
            return stripe(integer(shard.substring(0, slash), "--shard " + shard),
                integer(shard.substring(slash + 1), "--shard " + shard), "--shard " + shard);
        }
        if (shards == null)
        {
            return Stripe.WHOLE;
        }
        final String k8s = env.get(K8S_INDEX);
        final String slurm = env.get(SLURM_INDEX);
        if (k8s == null && slurm == null)
        {
            throw new IllegalArgumentException("--shards " + shards + " reads the shard index from " + K8S_INDEX +
                " or " + SLURM_INDEX + ", and neither is set: give --shard I/" + shards + " instead");
        }
        final String count = env.get(SLURM_COUNT);
        if (k8s == null && count != null && !count.equals(String.valueOf(shards)))
        {
            throw new IllegalArgumentException("--shards " + shards + " differs from the environment's shard count " +
                "(" + SLURM_COUNT + "=" + count + ")");
        }
        final String index = k8s != null ? k8s : slurm;
        return stripe(integer(index, k8s != null ? K8S_INDEX : SLURM_INDEX), shards, "--shards " + shards +
            " with " + (k8s != null ? K8S_INDEX : SLURM_INDEX) + "=" + index);
    }

    private static Stripe stripe(final int index, final int count, final String what)
    {
        if (count < 1)
        {
            throw new IllegalArgumentException(what + ": the shard count must be >= 1");
        }
        if (index < 0 || index >= count)
        {
            throw new IllegalArgumentException(what + ": shard index " + index + " is out of range 0.." +
                (count - 1));
        }
        return new Stripe(index, count);
    }

    private static int integer(final String text, final String what)
    {
        try
        {
            return Integer.parseInt(text.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(what + ": not an integer: " + text);
        }
    }

    private static Instant parseStart(final String text, final Instant now)
    {
        final Instant start;
        try
        {
            start = Instant.parse(text);
        }
        catch (final DateTimeParseException ex)
        {
            throw new IllegalArgumentException("--start-at must be an ISO-8601 UTC time such as " +
                "2026-12-01T20:30:00Z, got: " + text);
        }
        if (!start.isAfter(now))
        {
            throw new IllegalArgumentException("--start-at " + text + " is in the past (now " + now + "): give a " +
                "time far enough ahead for every shard to be ready");
        }
        return start;
    }
}
