package io.tokenclock.report.html;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.peers.PeerRun;
import io.tokenclock.record.RecordJson;
import io.tokenclock.report.RecordBlock;
import io.tokenclock.results.Imported;
import io.tokenclock.results.Result;

/** The runs a result holds: their percentile curves overlaid, and each one's summary table. */
final class Members
{
    private Members()
    {
    }

    static void render(final Page page, final List<Result.Run> runs) throws IOException
    {
        final List<String> labels = new ArrayList<>();
        final List<RunSeries> series = new ArrayList<>();
        for (int i = 0; i < runs.size() && i < HtmlReport.MAX_LINES; i++)
        {
            labels.add(runs.get(i).role());
            series.add(RunSeries.read(runs.get(i).dir()));
        }
        if (series.stream().anyMatch(s -> s.lines > 0))
        {
            RunCharts.percentiles(page, labels, series);
        }
        page.h2("Each run");
        for (final Result.Run run : runs)
        {
            page.h3(run.role() + " (" + run.dir().getFileName() + ")");
            page.raw(RunSection.distributions(RecordJson.tree(run.record()).path("report").path("distributions")));
        }
    }

    /** A peer tool's file: each run's record block and summary, as read into tokenclock's record. */
    static void imported(final Page page, final Imported imported)
    {
        page.h2("Imported from " + imported.path().getFileName());
        for (final PeerRun peer : imported.peers())
        {
            final JsonNode record = RecordJson.tree(peer.record());
            page.h3(record.path("run_id").asText("run")).pre(RecordBlock.render(peer.record()));
            RunSection.summary(page, record.path("report"));
        }
    }
}
