package io.tokenclock.report.html;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code report.html}: one self-contained page for any result (a run, repetitions, a sweep, an A/B comparison), or
 * several overlaid. Read from the files on disk only, so it can be written for any directory at any time; written
 * whole (a temporary file, then a rename).
 */
public final class HtmlReport
{
    public static final String FILE = "report.html";
    /** The most runs one overlaid chart draws; more would be unreadable. */
    private static final int MAX_LINES = 12;

    private HtmlReport()
    {
    }

    /** Thrown when results may not be overlaid: the list of what differs (exit 2 unless forced). */
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
     * Writes the report of {@code dirs} to {@code output} (null: DIR/report.html for one directory,
     * ./report.html for several).
     *
     * @return the file written.
     */
    public static Path write(final List<Path> dirs, final Path output, final boolean force) throws IOException
    {
        final Page page = new Page();
        final String title;
        if (dirs.size() == 1)
        {
            title = single(page, ResultDir.open(dirs.get(0)));
        }
        else
        {
            title = overlay(page, dirs, force);
        }
        final Path file = output != null ? output : dirs.size() == 1 ? dirs.get(0).resolve(FILE) : Path.of(FILE);
        final Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, page.render(title), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    private static String single(final Page page, final ResultDir r) throws IOException
    {
        switch (r.kind())
        {
            case "run" ->
            {
                RunSection.render(page, r.summary(), RunSeries.read(r.dir()));
                return "tokenclock report: " + r.summary().path("run_id").asText(r.dir().toString());
            }
            case "sweep" -> SweepSection.render(page, r.summary());
            case "ab" -> SpreadSection.ab(page, r.summary());
            default -> SpreadSection.repetitions(page, r.summary());
        }
        members(page, r);
        Definitions.render(page);
        return "tokenclock report: " + r.kind() + " " + r.dir().toAbsolutePath().normalize().getFileName();
    }

    /** The runs a repetition set, sweep or A/B holds: their percentile curves overlaid, and a summary of each. */
    private static void members(final Page page, final ResultDir r) throws IOException
    {
        final List<String> labels = new ArrayList<>();
        final List<RunSeries> series = new ArrayList<>();
        for (int i = 0; i < r.runs().size() && i < MAX_LINES; i++)
        {
            labels.add(r.roles().get(i));
            series.add(RunSeries.read(r.runs().get(i)));
        }
        if (!series.isEmpty())
        {
            RunCharts.percentiles(page, labels, series);
        }
        page.h2("Each run");
        for (int i = 0; i < r.runs().size(); i++)
        {
            final Path record = r.runs().get(i).resolve("record.json");
            if (Files.isRegularFile(record))
            {
                page.h3(r.roles().get(i));
                page.raw(RunSection.distributions(ResultDir.read(record).path("report").path("distributions")));
            }
        }
    }

    private static String overlay(final Page page, final List<Path> dirs, final boolean force) throws IOException
    {
        final List<ResultDir> results = new ArrayList<>();
        for (final Path d : dirs)
        {
            results.add(ResultDir.open(d));
        }
        final List<String> differences = new ArrayList<>();
        final JsonNode first = results.get(0).firstRecord();
        for (int i = 1; i < results.size(); i++)
        {
            differences.addAll(OverlayRules.differences(dirs.get(0).toString(), first, dirs.get(i).toString(),
                results.get(i).firstRecord()));
        }
        if (!differences.isEmpty() && !force)
        {
            throw new MismatchException(differences);
        }
        page.h2("Overlay of " + dirs.size() + " results");
        differences.forEach(d -> page.p("differs (overlaid under --force): " + d));
        Overlay.render(page, results);
        Definitions.render(page);
        return "tokenclock report: " + dirs.size() + " results overlaid";
    }

    static int maxLines()
    {
        return MAX_LINES;
    }
}
