package io.tokenclock.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import io.tokenclock.compare.CompareJson;
import io.tokenclock.compare.Comparison;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.Result;
import io.tokenclock.results.Results;

/**
 * {@code tokenclock compare A B [C...]}: sets results of any kind (and peers' result files) against the first: the
 * contracts diffed by protocol group, then each figure's difference, with an interval where there are repetitions.
 * Refuses (exit 4) results whose timing endpoints, token counting, formulas, percentile method, workload, load
 * model, warm-up or failure handling differ, unless {@code --force}. Writes {@code compare.json} where
 * {@code --output} says, and nothing else: a comparison leaves no file in the working directory unless asked.
 * Docs: docs/CLI.md.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
    description = "Compare results of any kind against the first: contracts by protocol group, then figures.")
public final class CompareCommand implements Callable<Integer>, ReadsFiles
{
    @Parameters(arity = "2..*", paramLabel = "RESULT",
        description = "Result directories (run, repetitions, sweep, ab, merged), their files, or peers' result files.")
    List<Path> inputs;

    @Option(names = "--force", description = "Compare even when a refusal rule is broken; the differences are " +
        "printed above the table.")
    boolean force;

    @Option(names = "--output", paramLabel = "FILE",
        description = "Write the comparison as compare.json to FILE (default: nothing is written).")
    Path output;

    @Override
    public Integer call() throws IOException
    {
        final List<Result> results = new ArrayList<>();
        for (final Path p : inputs)
        {
            results.add(Results.open(p));
        }
        final CompareJson c = Comparison.of(results, force);
        Comparison.print(c, System.out);
        if (output != null)
        {
            if (output.toAbsolutePath().getParent() != null)
            {
                Files.createDirectories(output.toAbsolutePath().getParent());
            }
            RecordJson.write(c, output);
            System.out.println("compare: " + output.toAbsolutePath().normalize());
        }
        if (c.refused() && !force)
        {
            System.err.println("tokenclock: refused: the results differ in " + String.join("; ", c.comparisons()
                .stream().flatMap(p -> p.brokenRules().stream()).distinct().toList()) + " (listed above; --force " +
                "compares them anyway)");
            return Main.EXIT_INCOMPARABLE;
        }
        return Main.EXIT_OK;
    }

    @Override
    public List<Path> inputs()
    {
        return inputs;
    }
}
