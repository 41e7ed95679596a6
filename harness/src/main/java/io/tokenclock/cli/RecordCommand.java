package io.tokenclock.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import io.tokenclock.report.RecordBlock;
import io.tokenclock.runner.Refusal;

/** {@code tokenclock record DIR}: prints a run's record as the block a paper would print. */
@Command(name = "record", mixinStandardHelpOptions = true,
    description = "Print a run's record.json as a benchmark record block (MODEL ... REPORT, grade), or the " +
        "server's refusal (refusal.json) of a run that the preflight ended.")
public final class RecordCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "DIR", description = "A run's results directory (or its record.json).")
    Path dir;

    @Override
    public Integer call() throws IOException
    {
        final Path file = Files.isDirectory(dir) ? dir.resolve("record.json") : dir;
        final Path refusal = Files.isDirectory(dir) ? dir.resolve(Refusal.FILE) : null;
        if (!Files.isReadable(file) && refusal != null && Files.isReadable(refusal))
        {
            // A run the server refused at the preflight has no record, only what the server answered.
            System.out.print(Refusal.render(new ObjectMapper().readTree(refusal.toFile())));
            return Main.EXIT_OK;
        }
        if (!Files.isReadable(file))
        {
            throw new IllegalArgumentException("no record.json at " + file);
        }
        System.out.print(RecordBlock.render(new ObjectMapper().readTree(file.toFile())));
        return Main.EXIT_OK;
    }
}
