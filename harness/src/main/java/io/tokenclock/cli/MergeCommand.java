package io.tokenclock.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import io.tokenclock.merge.ShardMerge;

/**
 * {@code tokenclock merge OUT DIR... [--force]}: the shards of one run merged into one result. OUT must not be one of
 * the shards, and must hold no result unless {@code --force}. docs/CLI.md, "merge".
 */
@Command(name = "merge", mixinStandardHelpOptions = true,
    description = "Merge the run directories of a sharded run's shards into one result (kind merged).")
public final class MergeCommand implements Callable<Integer>, ReadsFiles
{
    @Parameters(index = "0", paramLabel = "OUT", description = "The merged result's directory.")
    Path out;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "DIR", description = "The shards' run directories.")
    List<Path> dirs;

    @Option(names = "--force", description = "Replace the result OUT already holds (never one of the shards: OUT " +
        "that is a shard's directory is refused even so).")
    boolean force;

    @Override
    public Integer call() throws Exception
    {
        final ShardMerge.Outcome o = ShardMerge.merge(out, dirs, force);
        System.out.printf("merged %d of %d shards into %s: %d measured requests, %d lines in requests.jsonl, " +
            "workload hash %s%n", o.shards() - countMissing(o), o.shards(), o.dir(), o.measured(), o.requests(),
            o.hash());
        if (!o.incomplete().isEmpty())
        {
            // a shard's own partial reason is text of its files: escaped
            o.incomplete().forEach(line -> System.err.println(Main.errorLine("incomplete: " + line)));
            System.err.println("tokenclock: the merged record is marked partial (merge.incomplete_shards)");
            return Main.EXIT_FAILED;
        }
        return Main.EXIT_OK;
    }

    private static int countMissing(final ShardMerge.Outcome o)
    {
        return (int)o.incomplete().stream().filter(line -> !line.contains(": failed: ")).count();
    }

    @Override
    public List<Path> inputs()
    {
        return dirs;
    }
}
