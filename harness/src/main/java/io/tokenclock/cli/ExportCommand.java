package io.tokenclock.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import io.tokenclock.export.LlmdReport;
import io.tokenclock.json.Json;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.Results;

/**
 * {@code tokenclock export --format llmd-report DIR [--output FILE]}: any result, or a peer's file, as llm-d's
 * Benchmark Report, one report per run. docs/CLI.md, "export"; docs/RESULTS.md, "llm-d Benchmark Report".
 */
@Command(name = "export", mixinStandardHelpOptions = true,
    description = "Write a result (a run, repetitions, a sweep, an A/B, a merged run) or a peer tool's result file " +
        "in another tool's format: llm-d's Benchmark Report v" + LlmdReport.VERSION + ", one report per run.")
public final class ExportCommand implements Callable<Integer>, ReadsFiles
{
    /** The one format so far. */
    static final String LLMD_REPORT = "llmd-report";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR",
        description = "A results directory of any kind, one of its files, or a peer tool's result file.")
    Path dir;

    @Option(names = "--format", required = true, paramLabel = "FORMAT",
        description = "llmd-report: llm-d's Benchmark Report v" + LlmdReport.VERSION + " (JSON).")
    String format;

    @Option(names = "--output", paramLabel = "FILE",
        description = "Write the report to FILE (several reports, e.g. a sweep's points: FILE with _0, _1 ... " +
            "before its extension); default: standard output, one report per line.")
    Path output;

    @Override
    public Integer call() throws IOException
    {
        if (!LLMD_REPORT.equals(format))
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--format: expected " + LLMD_REPORT + ", got '" + format + "'");
        }
        checkOutput();
        final List<LlmdReport.Report> reports = LlmdReport.of(Results.open(dir));
        if (output == null)
        {
            final StringBuilder out = new StringBuilder();
            for (final LlmdReport.Report r : reports)
            {
                out.append(Json.MAPPER.writeValueAsString(r.report())).append('\n');
            }
            System.out.print(out);
            return Main.EXIT_OK;
        }
        final List<Path> files = files(output, reports.size());
        for (int i = 0; i < reports.size(); i++)
        {
            RecordJson.write(reports.get(i).report(), files.get(i));
            System.out.println("export: " + files.get(i).toAbsolutePath().normalize() +
                (reports.size() > 1 ? " (" + reports.get(i).role() + ")" : ""));
        }
        return Main.EXIT_OK;
    }

    private void checkOutput()
    {
        if (output == null)
        {
            return;
        }
        if (Files.isDirectory(output))
        {
            throw new IllegalArgumentException("--output " + output + ": a directory; name a file");
        }
        final Path parent = output.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent))
        {
            throw new IllegalArgumentException("--output " + output + ": no such directory: " + parent);
        }
    }

    @Override
    public List<Path> inputs()
    {
        return List.of(dir);
    }

    /** @return {@code file} for one report; for several {@code NAME_K.EXT} from K = 0, as llm-d's CLI names them. */
    static List<Path> files(final Path file, final int count)
    {
        if (count == 1)
        {
            return List.of(file);
        }
        final String name = file.getFileName().toString();
        final int dot = name.lastIndexOf('.');
        final String stem = dot > 0 ? name.substring(0, dot) : name;
        final String ext = dot > 0 ? name.substring(dot) : "";
        final List<Path> files = new ArrayList<>();
        for (int k = 0; k < count; k++)
        {
            files.add(file.resolveSibling(stem + "_" + k + ext));
        }
        return files;
    }
}
