package io.tokenclock.report.html;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.record.RecordJson;
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
                rows.add(row(label, RecordJson.tree(run.record())));
            }
        }
        page.raw(Html.table(List.of("result", "ok", "req/s", "output tok/s", "TTFT p50", "TTFT p99", "TPOT p99",
            "e2e p99"), rows));
        RunCharts.percentiles(page, labels, series);
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
