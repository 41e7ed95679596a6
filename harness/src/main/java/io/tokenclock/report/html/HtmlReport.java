package io.tokenclock.report.html;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.compare.CompareJson;
import io.tokenclock.compare.Comparison;
import io.tokenclock.compare.ContractDiff;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.report.PooledRepetitions;
import io.tokenclock.results.AbResult;
import io.tokenclock.results.Imported;
import io.tokenclock.results.Merged;
import io.tokenclock.results.RepetitionSet;
import io.tokenclock.results.Result;
import io.tokenclock.results.Results;
import io.tokenclock.results.RunResultDir;
import io.tokenclock.results.Sweep;
import io.tokenclock.util.WholeFile;

/**
 * {@code report.html}: one self-contained page for any result the shared model reads ({@link Results#open}: a run,
 * repetitions, a sweep, an A/B comparison, a merged run, a peer's imported file), or several overlaid under the
 * refusal rules of {@code compare}. Read from the files on disk only, so it can be written for any result at any
 * time; written whole (a temporary file, then a rename).
 */
public final class HtmlReport
{
    public static final String FILE = "report.html";
    /** The most runs one overlaid chart draws; more would be unreadable. */
    static final int MAX_LINES = 12;

    private HtmlReport()
    {
    }

    /** Thrown when results may not be overlaid: the rules they break and the facts that differ (exit 2). */
    public static final class MismatchException extends IllegalArgumentException
    {
        private static final long serialVersionUID = 1L;

        MismatchException(final List<String> differences)
        {
            super("these results are not comparable (--force to overlay them anyway): " +
                String.join("; ", differences));
        }
    }

    /**
     * Writes the report of {@code paths} to {@code output} (null: DIR/report.html for one directory,
     * ./report.html for several or for a file).
     *
     * @return the file written.
     */
    public static Path write(final List<Path> paths, final Path output, final boolean force) throws IOException
    {
        if (output != null)
        {
            WholeFile.checkTarget(output); // before the work: a directory, or one that is missing, is one line
        }
        final List<Result> results = new ArrayList<>();
        for (final Path p : paths)
        {
            results.add(Results.open(p));
        }
        final Page page = new Page();
        final String title = results.size() == 1 ? single(page, results.get(0)) : overlay(page, results, force);
        final Path file = output != null ? output : results.size() == 1 && Files.isDirectory(paths.get(0)) ?
            paths.get(0).resolve(FILE) : Path.of(FILE);
        WholeFile.writeString(file, page.render(title));
        return file;
    }

    /**
     * Writes the report of a run that the server refused at its preflight: it has no record and no requests, only
     * what the server answered ({@code refusal.json}), which {@code rendered} says in the words {@code record} prints.
     *
     * @return the file written: {@code output}, or DIR/report.html.
     */
    public static Path writeRefusal(final Path dir, final String rendered, final Path output) throws IOException
    {
        final Page page = new Page();
        page.raw("<p class=\"answer\">" + Html.text("The server refused this run at its preflight: nothing was " +
            "measured. What it answered:") + "</p>\n").pre(rendered);
        if (output != null)
        {
            WholeFile.checkTarget(output);
        }
        final Path file = output != null ? output : dir.resolve(FILE);
        WholeFile.writeString(file, page.render("tokenclock report: refused " + dir.toAbsolutePath().normalize()
            .getFileName()));
        return file;
    }

    private static String single(final Page page, final Result r) throws IOException
    {
        final String name = r.path().toAbsolutePath().normalize().getFileName().toString();
        if ((r instanceof Sweep || r instanceof AbResult || r instanceof RepetitionSet) && r.partial() != null)
        {
            page.p("PARTIAL SET: " + r.partial()); // a set stopped before its end, or in progress when killed
        }
        switch (r)
        {
            case RunResultDir run ->
            {
                final JsonNode record = RecordJson.tree(run.record());
                RunSection.render(page, run.record(), RunSeries.read(run.path()));
                return "tokenclock report: " + record.path("run_id").asText(name);
            }
            case Merged merged -> RunSection.render(page, merged.record(), RunSeries.read(merged.path()));
            case Sweep sweep -> SweepSection.render(page, sweep.sweep());
            case AbResult ab -> SpreadSection.ab(page, ab.ab());
            case RepetitionSet reps -> SpreadSection.repetitions(page, reps.spread(), PooledRepetitions.of(reps));
            case Imported imported -> Members.imported(page, imported);
        }
        if (r instanceof Sweep sweep)
        {
            Members.sweep(page, sweep.sweep(), r.runs());
        }
        else if (r instanceof AbResult || r instanceof RepetitionSet)
        {
            Members.render(page, r.runs());
        }
        if (!(r instanceof Merged))
        {
            Definitions.render(page);
        }
        return "tokenclock report: " + r.kind().name().toLowerCase(java.util.Locale.ROOT) + " " + name;
    }

    private static String overlay(final Page page, final List<Result> results, final boolean force)
        throws IOException
    {
        final List<String> differences = new ArrayList<>();
        final CompareJson c = Comparison.of(results, true);
        for (final CompareJson.Pair p : c.comparisons())
        {
            for (final ContractDiff.Difference d : p.differences())
            {
                if (d.rule() != null)
                {
                    differences.add(d.rule() + " (" + d.key() + "): " + p.baseline() + " " + d.a() + ", " +
                        p.other() + " " + d.b());
                }
            }
        }
        if (!differences.isEmpty() && !force)
        {
            throw new MismatchException(differences);
        }
        page.h2("Overlay of " + results.size() + " results");
        differences.forEach(d -> page.p("differs (overlaid under --force): " + d));
        Overlay.render(page, results);
        Definitions.render(page);
        return "tokenclock report: " + results.size() + " results overlaid";
    }
}
