package io.tokenclock.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * {@code tokenclock slurm render}: an {@code sbatch} script that runs a {@link ShardJob} as a Slurm job array, one
 * shard per array task, and, submitted a second time as the step {@code merge}, merges them (docs/DISTRIBUTED.md).
 * Slurm sets {@code SLURM_ARRAY_TASK_ID} and {@code SLURM_ARRAY_TASK_COUNT} in each task, which {@code run --shards}
 * reads. Tasks are never requeued: a shard run again would replay its part of the schedule late.
 */
public final class SlurmScript
{
    private SlurmScript()
    {
    }

    /** @return the script's text. */
    public static String render(final ShardJob job)
    {
        final String out = ShardJob.shellQuote(job.outputDir());
        final List<String> lines = new ArrayList<>();
        lines.add("#!/bin/bash");
        lines.add("# tokenclock: " + job.shards() + " shards of one run as a Slurm job array " +
            "(tokenclock slurm render).");
        lines.add("# Submit the shards, then the merge as a job that runs when every task has ended, ok or not:");
        lines.add("#   mkdir -p " + out + " && jid=$(" + (job.startAt() == null ?
            "START_AT=$(date -u -d +2min +%Y-%m-%dT%H:%M:%SZ) " : "") + "sbatch --parsable THIS_SCRIPT)");
        lines.add("#   sbatch --dependency=afterany:$jid --array=0 --export=ALL,TOKENCLOCK_STEP=merge THIS_SCRIPT");
        lines.add("# The output directory must be on storage every node shares; shard I writes shard-I under it.");
        lines.add("#SBATCH --job-name=" + job.name());
        lines.add("#SBATCH --array=0-" + (job.shards() - 1));
        lines.add("#SBATCH --ntasks=1");
        lines.add("#SBATCH --cpus-per-task=" + job.cpusPerTask());
        lines.add("#SBATCH --no-requeue");
        lines.add("#SBATCH --output=" + job.outputDir() + "/slurm-%A_%a.out");
        lines.add("set -euo pipefail");
        lines.add("TOKENCLOCK=${TOKENCLOCK:-" + ShardJob.shellQuote(job.tokenclock()) + "}");
        lines.add("OUT=" + out);
        lines.add("if [ \"${TOKENCLOCK_STEP:-shard}\" = merge ]; then");
        final String dirs = IntStream.range(0, job.shards()).mapToObj(i -> "\"$OUT/shard-" + i +
            "\"").collect(Collectors.joining(" "));
        lines.add("  exec \"$TOKENCLOCK\" merge \"$OUT/merged\" " + dirs);
        lines.add("fi");
        lines.add(job.startAt() == null ?
            ": \"${START_AT:?set START_AT to the common start, e.g. " +
                "START_AT=$(date -u -d +2min +%Y-%m-%dT%H:%M:%SZ)}\"" :
            "START_AT=${START_AT:-" + job.startAt() + "}");
        lines.add("mkdir -p \"$OUT\"");
        final List<String> cmd = new ArrayList<>();
        cmd.add("exec \"$TOKENCLOCK\" run " + job.runArgs().stream().map(ShardJob::shellQuote)
            .collect(Collectors.joining(" ")));
        cmd.add("--shards " + job.shards() + " --start-at \"$START_AT\"");
        cmd.add("--output-dir \"$OUT/shard-$SLURM_ARRAY_TASK_ID\" --no-progress");
        lines.add(String.join(" \\\n  ", cmd));
        return String.join("\n", lines) + "\n";
    }
}
