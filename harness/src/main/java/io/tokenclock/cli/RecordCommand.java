package io.tokenclock.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import io.tokenclock.json.Json;
import io.tokenclock.report.ResultTables;
import io.tokenclock.results.Results;
import io.tokenclock.runner.Refusal;

/**
 * {@code tokenclock record DIR}: prints any result: a run's record as the block a paper would print, a repetition
 * set's, an A/B's or a sweep's tables, an imported peer file's figures beside tokenclock's.
 */
@Command(name = "record", mixinStandardHelpOptions = true,
    description = {"Print any result: a run's record block, the tables of repetitions, a sweep, an A/B or a peer file.",
        "A merged run prints as a run; a run the server refused at its preflight prints its refusal (refusal.json)."})
public final class RecordCommand implements Callable<Integer>, ReadsFiles
{
    @Parameters(index = "0", paramLabel = "DIR",
        description = "A results directory of any kind, one of its files, or a peer tool's result file.")
    Path dir;

    /** @return {@code dir}'s refusal.json when it holds a run the preflight ended (no record); else null. */
    static Path refusal(final Path dir)
    {
        final Path refusal = Files.isDirectory(dir) ? dir.resolve(Refusal.FILE) : null;
        return refusal != null && Files.isReadable(refusal) && !Files.exists(dir.resolve("record.json")) ? refusal :
            null;
    }

    @Override
    public Integer call() throws IOException
    {
        final Path refusal = refusal(dir);
        if (refusal != null)
        {
            // A run the server refused at the preflight has no record, only what the server answered.
            System.out.print(Refusal.render(Json.MAPPER.readTree(refusal.toFile())));
            return Main.EXIT_OK;
        }
        System.out.print(ResultTables.render(Results.open(dir)));
        return Main.EXIT_OK;
    }

    @Override
    public List<Path> inputs()
    {
        return List.of(dir);
    }
}
