package io.tokenclock.report.html;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.Result;
import io.tokenclock.results.Sweep;

/** Several results on the same graphs: sweeps as curves against load, anything else as percentile curves. */
final class Overlay
{
    private static final String[][] SWEEP_FIGURES = {
        {"achieved_rps", "Achieved rate", "req/s"},
        {"goodput_rps", "Goodput", "req/s"},
        {"ttft_p99_ms", "TTFT p99", "ms"},
        {"tpot_p99_ms", "TPOT p99", "ms"},
    };

    private Overlay()
    {
    }

    static void render(final Page page, final List<Result> results) throws IOException
    {
        if (results.stream().allMatch(r -> r instanceof Sweep))
        {
            sweeps(page, results.stream().map(r -> (Sweep)r).toList());
            return;
        }
        final List<String> labels = new ArrayList<>();
        final List<RunSeries> series = new ArrayList<>();
        final List<List<String>> rows = new ArrayList<>();
        final List<JsonNode> records = new ArrayList<>();
        for (final Result r : results)
        {
            for (final Result.Run run : r.runs())
            {
                if (series.size() == HtmlReport.MAX_LINES)
                {
                    break;
                }
                final String label = name(r) + (r.runs().size() == 1 ? "" : " " + run.role());
                labels.add(label);
                series.add(RunSeries.read(run.dir()));
                records.add(RecordJson.tree(run.record()));
                rows.add(row(label, records.get(records.size() - 1)));
            }
        }
        page.answer(sentence(labels, records));
        page.raw(Html.table(List.of("result", "ok", "req/s", "output tok/s", "TTFT p50", "TTFT p99", "TPOT p99",
            "e2e p99"), rows));
        RunCharts.percentiles(page, labels, series);
    }

    /** @return which run had the highest throughput and which the lowest TTFT and TPOT p99, in one sentence. */
    static String sentence(final List<String> labels, final List<JsonNode> records)
    {
        return "Highest throughput: " + best(labels, records, "throughput", "requests_per_s", true, " req/s") +
            "; lowest TTFT p99: " + best(labels, records, "ttft", "p99", false, " ms") + "; lowest TPOT p99: " +
            best(labels, records, "tpot", "p99", false, " ms") + ". Each figure of one run is one sample: a " +
            "difference between two runs is not shown to exceed run-to-run noise (repetitions, or tokenclock ab, " +
            "can show it).";
    }

    private static String best(final List<String> labels, final List<JsonNode> records, final String section,
        final String figure, final boolean highest, final String unit)
    {
        int at = -1;
        double v = highest ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        for (int i = 0; i < records.size(); i++)
        {
            final JsonNode r = records.get(i).path("report");
            final JsonNode n = "throughput".equals(section) ? r.path("throughput").path(figure) :
                r.path("distributions").path(section).path(figure);
            if (n.isNumber() && (highest ? n.asDouble() > v : n.asDouble() < v))
            {
                v = n.asDouble();
                at = i;
            }
        }
        return at < 0 ? "-" : labels.get(at) + " (" + Html.headline(v) + unit + ")";
    }

    private static String name(final Result r)
    {
        return r.path().toAbsolutePath().normalize().getFileName().toString();
    }

    private static List<String> row(final String label, final JsonNode record)
    {
        final JsonNode r = record.path("report");
        final JsonNode d = r.path("distributions");
        return List.of(label, Html.value(r.path("counts").path("ok")), Html.num(r.path("throughput")
            .path("requests_per_s")), Html.num(r.path("throughput").path("output_tokens_per_s")),
            Html.num(d.path("ttft").path("p50")), Html.num(d.path("ttft").path("p99")),
            Html.num(d.path("tpot").path("p99")), Html.num(d.path("e2e").path("p99")));
    }

    /** Every sweep's curve on the union of their offered loads (a sweep without a point there has a gap). */
    private static void sweeps(final Page page, final List<Sweep> sweeps)
    {
        final TreeSet<Double> loads = new TreeSet<>();
        sweeps.forEach(s -> s.sweep().path("points").forEach(p -> loads.add(p.path("offered").asDouble())));
        final double[] x = loads.stream().mapToDouble(Double::doubleValue).toArray();
        for (final String[] f : SWEEP_FIGURES)
        {
            final Chart c = Chart.of(page.id(f[0]), f[1] + " against load", "offered", f[2]).points().x(x);
            for (final Sweep s : sweeps)
            {
                final List<Double> y = new ArrayList<>();
                for (final double load : x)
                {
                    y.add(at(s.sweep(), load, f[0]));
                }
                c.series(name(s), y);
            }
            page.chart(c, f[1] + " (" + f[2] + ") of each sweep against the offered load");
        }
    }

    private static Double at(final JsonNode sweep, final double load, final String field)
    {
        for (final JsonNode p : sweep.path("points"))
        {
            if (p.path("offered").asDouble() == load && p.path(field).isNumber())
            {
                return p.path(field).asDouble();
            }
        }
        return null;
    }
}
