package io.tokenclock.report.html;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.peers.PeerRun;
import io.tokenclock.peers.PerRequest;
import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.report.RecordBlock;
import io.tokenclock.results.Imported;
import io.tokenclock.results.Result;

/** The runs a result holds: their percentile curves overlaid, and each one's summary table. */
final class Members
{
    private Members()
    {
    }

    /** The most of a sweep's points whose percentile curves are overlaid: more would not be read. */
    static final int SWEEP_CURVES = 4;

    /**
     * A sweep's percentile curves, for a few chosen points only: the lowest load, the first point past the latency
     * knee, the point nearest the throughput knee (when the fit saw saturation) and the highest load, in increasing
     * load on a sequential palette (light: low load, dark: high); then every point's summary table.
     */
    static void sweep(final Page page, final JsonNode sweep, final List<Result.Run> runs) throws IOException
    {
        final List<Result.Run> points = runs.stream().filter(r -> r.role().startsWith("point ")).toList();
        final java.util.TreeSet<Integer> chosen = new java.util.TreeSet<>();
        if (!points.isEmpty())
        {
            chosen.add(0);
            chosen.add(points.size() - 1);
            // Past the latency knee: the first point whose TTFT p99 passed the threshold shows what the knee means.
            chosen.add(nearest(sweep, sweep.path("knee").path("latency_factor").path("first_above")));
            final JsonNode fit = sweep.path("knee").path("throughput_fit");
            chosen.add(fit.path("saturated").asBoolean(false) ? nearest(sweep, fit.path("offered")) : -1);
        }
        chosen.removeIf(i -> i < 0 || i >= points.size());
        final List<String> labels = new ArrayList<>();
        final List<RunSeries> series = new ArrayList<>();
        for (final int i : chosen)
        {
            if (series.size() < SWEEP_CURVES)
            {
                labels.add("offered " + Html.num(sweep.path("points").path(i).path("offered")));
                series.add(RunSeries.read(points.get(i).dir()));
            }
        }
        if (series.stream().anyMatch(s -> s.lines > 0))
        {
            RunCharts.percentiles(page, labels, series, true);
        }
        each(page, runs);
    }

    /** @return the index of the point whose offered load is nearest {@code load}, or -1 without one. */
    private static int nearest(final JsonNode sweep, final JsonNode load)
    {
        if (!load.isNumber())
        {
            return -1;
        }
        int best = -1;
        double distance = Double.POSITIVE_INFINITY;
        for (int i = 0; i < sweep.path("points").size(); i++)
        {
            final double d = Math.abs(sweep.path("points").path(i).path("offered").asDouble() - load.asDouble());
            if (d < distance)
            {
                distance = d;
                best = i;
            }
        }
        return best;
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
            RunCharts.percentiles(page, labels, series, false);
        }
        each(page, runs);
    }

    private static void each(final Page page, final List<Result.Run> runs)
    {
        page.h2("Each run");
        for (final Result.Run run : runs)
        {
            page.h3(run.role() + " (" + run.dir().getFileName() + ")");
            page.raw(RunSection.distributions(RecordJson.tree(run.record()).path("report").path("distributions")));
        }
    }

    /**
     * A peer tool's file, each run as a run is reported: the lead (cards, sentence, grade), with per-request data
     * the percentile plots and, with start times, TTFT and ITL over time; the peer's figures beside tokenclock's
     * recomputation; the summary; the record as a table.
     */
    static void imported(final Page page, final Imported imported)
    {
        page.h2("Imported from " + imported.path().getFileName());
        for (final PeerRun peer : imported.peers())
        {
            final JsonNode record = RecordJson.tree(peer.record());
            final RunSeries s = peer.perRequest() == null ? RunSeries.of(new PerRequest(null, new double[0], null,
                null, null)) : RunSeries.of(peer.perRequest());
            page.h3(peer.shape() + ": " + record.path("run_id").asText(record.path("header").path("tool")
                .asText(peer.tool())));
            Lead.run(page, record, s);
            if (peer.perRequest() == null)
            {
                page.p("This file has no per-request data, so there are no charts: the figures below are the " +
                    peer.tool() + "'s own summary.");
            }
            else
            {
                final PerRequest kept = peer.perRequest();
                if (kept.sampled())
                {
                    page.p(String.format(java.util.Locale.ROOT, "The charts draw %,d of the file's %,d successful " +
                        "requests: every %d%s in the file's order (report.html keeps at most %,d requests and %,d " +
                        "chunk gaps of a peer's file). The cards and the tables are all %,d requests'.", kept.size(),
                        kept.requests(), kept.every(), ordinal(kept.every()), PerRequest.MAX_REQUESTS,
                        PerRequest.MAX_GAPS, kept.requests()));
                }
                if (s.timed)
                {
                    RunCharts.latencyOverTime(page, record, s);
                }
                RunCharts.percentiles(page, List.of(peer.tool()), List.of(s));
            }
            page.h3("The peer's figures beside tokenclock's recomputation");
            page.raw(Html.table(List.of("metric", "peer p50", "peer p99", "tokenclock p50", "tokenclock p99",
                "peer's definition"), peerRows(peer)));
            peer.notes().forEach(n -> page.p("note: " + n));
            RunSection.summary(page, record.path("report"));
            RunSection.record(page, RecordBlock.render(peer.record()));
        }
    }

    private static List<List<String>> peerRows(final PeerRun peer)
    {
        final List<List<String>> rows = new ArrayList<>();
        for (final java.util.Map.Entry<String, Dist> e : peer.reported().entrySet())
        {
            final Dist ours = peer.record() == null || peer.record().report() == null ? null :
                peer.record().report().distributions().get(e.getKey());
            rows.add(List.of(e.getKey(), Html.num(orNaN(e.getValue().figure("p50"))),
                Html.num(orNaN(e.getValue().figure("p99"))), ours == null ? "-" : Html.num(orNaN(ours.figure("p50"))),
                ours == null ? "-" : Html.num(orNaN(ours.figure("p99"))),
                peer.definitions().getOrDefault(e.getKey(), "as tokenclock")));
        }
        return rows;
    }

    /** @return the suffix of ordinal {@code n}: st, nd, rd or th (2nd, 11th, 32nd). */
    static String ordinal(final int n)
    {
        final int tens = n % 100;
        final int ones = n % 10;
        return tens >= 11 && tens <= 13 ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
    }

    private static double orNaN(final Double v)
    {
        return v == null ? Double.NaN : v;
    }
}
