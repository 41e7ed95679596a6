package io.tokenclock.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import io.tokenclock.report.RecordBlock;

/** {@code tokenclock record DIR}: prints a run's record as the block a paper would print. */
@Command(name = "record", mixinStandardHelpOptions = true,
    description = "Print a run's record.json as a benchmark record block (MODEL ... REPORT, grade).")
public final class RecordCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "DIR", description = "A run's results directory (or its record.json).")
    Path dir;

    @Override
    public Integer call() throws IOException
    {
        final Path file = Files.isDirectory(dir) ? dir.resolve("record.json") : dir;
        if (!Files.isReadable(file))
        {
            throw new IllegalArgumentException("no record.json at " + file);
        }
        System.out.print(RecordBlock.render(new ObjectMapper().readTree(file.toFile())));
        return Main.EXIT_OK;
    }
}
