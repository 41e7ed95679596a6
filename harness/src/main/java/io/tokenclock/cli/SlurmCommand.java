package io.tokenclock.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import io.tokenclock.deploy.SlurmScript;

/** {@code tokenclock slurm render}: an sbatch script for N shards of one run. docs/DISTRIBUTED.md. */
@Command(name = "slurm", mixinStandardHelpOptions = true, description = "Run shards on Slurm.",
    subcommands = SlurmCommand.Render.class)
public final class SlurmCommand implements Callable<Integer>
{
    @Override
    public Integer call()
    {
        throw new IllegalArgumentException("missing subcommand: tokenclock slurm render --shards N ...");
    }

    /** Prints the sbatch script. */
    @Command(name = "render", mixinStandardHelpOptions = true, description = "Print an sbatch script: a job array " +
        "of N shards, and the merge step. The run's own flags follow --.")
    static final class Render implements Callable<Integer>
    {
        @Mixin
        ShardJobFlags job;

        @Override
        public Integer call()
        {
            System.out.print(SlurmScript.render(job.toJob()));
            return Main.EXIT_OK;
        }
    }
}
