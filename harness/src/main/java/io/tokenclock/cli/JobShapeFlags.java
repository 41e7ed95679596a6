package io.tokenclock.cli;

import picocli.CommandLine.Option;

/**
 * What every shard job takes, whichever scheduler runs it ({@code slurm render}, {@code k8s render}): how many shards,
 * the job's name and the CPUs of one shard. A mixin, so that the two commands spell, default and document these the
 * same way; what differs between them (where the results go, how a task starts tokenclock, the common start's
 * default) stays in each command.
 */
final class JobShapeFlags
{
    @Option(names = "--shards", required = true, paramLabel = "N", description = "How many shards.")
    int shards;

    @Option(names = "--name", paramLabel = "NAME",
        description = "The job's name, and the prefix of every object it makes (default tokenclock).")
    String name = "tokenclock";

    @Option(names = "--cpus-per-task", paramLabel = "N", description = "CPUs one shard gets (default 1).")
    int cpusPerTask = 1;
}
