package io.tokenclock.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import io.tokenclock.deploy.ShardJob;
import io.tokenclock.deploy.SlurmScript;
import io.tokenclock.secrets.SecretFile;

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

    /** Prints the sbatch script; writes the credentials, if any, to a file only the user reads. */
    @Command(name = "render", mixinStandardHelpOptions = true, description = "Print an sbatch script: a job array " +
        "of N shards, and the merge step. The run's own flags follow --. Credentials among them go to " +
        "--secrets-file, never into the script.")
    static final class Render implements Callable<Integer>
    {
        @Mixin
        ShardJobFlags job;

        @Override
        public Integer call() throws IOException
        {
            final ShardJob shardJob = job.toJob();
            final Path secrets = shardJob.credentials().isEmpty() ? null :
                job.secretsFile().toAbsolutePath().normalize();
            // rendered (and so checked) before the file is written: a refused value leaves nothing behind
            final String script = SlurmScript.render(shardJob, secrets == null ? null : secrets.toString());
            if (secrets != null)
            {
                SecretFile.write("--secrets-file", secrets, SlurmScript.secretsFile(shardJob));
                System.err.println("slurm render: the run's credentials are in " + secrets + " (readable only by " +
                    "you), which each task sources; keep it on storage the nodes share, out of the results");
            }
            System.out.print(script);
            return Main.EXIT_OK;
        }
    }
}
