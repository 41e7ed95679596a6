package io.tokenclock.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import io.tokenclock.json.Json;
import io.tokenclock.report.html.HtmlReport;
import io.tokenclock.runner.Refusal;

/** {@code tokenclock report DIR... [--output FILE]}: one self-contained report.html of any results. */
@Command(name = "report", mixinStandardHelpOptions = true,
    description = {"Write one self-contained report.html of any result, or of several results overlaid.",
        "A run, repetitions, a sweep, an A/B, a merged run, a peer's result file, or a run the server refused."})
public final class ReportCommand implements Callable<Integer>, ReadsFiles
{
    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Result directories.")
    List<Path> dirs;

    @Option(names = "--output", paramLabel = "FILE",
        description = "Where to write it (default: DIR/report.html for one directory, ./report.html for several).")
    Path output;

    @Option(names = "--force", description = "Overlay results whose definitions differ (the differences are " +
        "listed above the charts).")
    boolean force;

    @Override
    public Integer call() throws IOException
    {
        final Path file;
        final Path refusal = dirs.size() == 1 ? RecordCommand.refusal(dirs.get(0)) : null;
        if (refusal != null)
        {
            // A run the server refused at the preflight: record prints its refusal, so the report shows it too.
            file = HtmlReport.writeRefusal(dirs.get(0), Refusal.render(Json.MAPPER.readTree(refusal.toFile())),
                output);
            System.out.println("report: " + file.toAbsolutePath().normalize());
            return Main.EXIT_OK;
        }
        try
        {
            file = HtmlReport.write(dirs, output, force);
        }
        catch (final HtmlReport.MismatchException ex)
        {
            // The same rules as compare, and the same exit status.
            System.err.println(Main.errorLine("refused: " + ex.getMessage()));
            return Main.EXIT_INCOMPARABLE;
        }
        System.out.println("report: " + file.toAbsolutePath().normalize());
        return Main.EXIT_OK;
    }

    /**
     * Writes DIR/report.html at the end of a run, sweep or A/B unless {@code wanted} is false ({@code --no-report});
     * a failure is one line, never the run's failure.
     */
    static void afterRun(final Path dir, final boolean wanted)
    {
        if (!wanted)
        {
            return;
        }
        try
        {
            System.out.println("report: " + HtmlReport.write(List.of(dir), null, false).toAbsolutePath().normalize());
        }
        catch (final IOException | RuntimeException ex)
        {
            System.err.println(Main.errorLine("report.html not written: " + ex.getMessage()));
        }
    }

    @Override
    public List<Path> inputs()
    {
        return dirs;
    }
}
