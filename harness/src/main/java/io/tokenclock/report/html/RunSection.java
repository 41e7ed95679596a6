package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.record.RecordJson;
import io.tokenclock.record.RunRecord;
import io.tokenclock.report.RecordBlock;

/**
 * The report of a single run: its record block (grade and what is missing), summary tables per segment with the
 * p99 intervals, percentile plots, figures over time with the window's edges marked, the server's telemetry beside
 * the client's, the client's health, cost and energy, and a definition of every metric.
 */
final class RunSection
{
    private static final List<String> TABLE_METRICS = List.of("ttft", "stream_setup", "ttft_from_schedule", "ttfot",
        "ttst", "inter_chunk_latency", "token_itl", "tpot", "e2e", "e2e_from_schedule", "send_lag", "engine_ttft",
        "engine_tpot", "output_tokens", "input_tokens", "output_tps_per_request");
    private static final List<String> HEALTH = List.of("client_jitter", "client_gc", "client_jit",
        "client_safepoints", "client_cost", "readiness", "client_threads");

    private RunSection()
    {
    }

    /** Appends the whole single-run report of {@code run} and its series. */
    static void render(final Page page, final RunRecord run, final RunSeries s)
    {
        final JsonNode record = RecordJson.tree(run);
        page.h2("Record").pre(RecordBlock.render(run));
        summary(page, record.path("report"));
        RunCharts.percentiles(page, List.of(record.path("run_id").asText("run")), List.of(s));
        RunCharts.overTime(page, record, s);
        server(page, record, s);
        health(page, record.path("measurement"));
        costEnergy(page, record);
        Definitions.render(page);
    }

    /** The distributions of the whole run, then of each segment, with the p99 and p99.9 intervals. */
    static void summary(final Page page, final JsonNode report)
    {
        page.h2("Summary");
        final JsonNode t = report.path("throughput");
        final JsonNode c = report.path("counts");
        page.p("Measured " + Html.value(c.path("measured")) + " requests: " + Html.value(c.path("ok")) + " ok, " +
            Html.value(c.path("error")) + " failed, " + Html.value(c.path("cancelled")) + " cancelled over " +
            Html.value(report.path("window").path("duration_s")) + " s; " + Html.value(t.path("requests_per_s")) +
            " req/s, " + (t.has("output_tokens_per_s") ? Html.value(t.path("output_tokens_per_s")) + " output tok/s." :
            Html.value(t.path("inputs_per_s")) + " inputs/s, " + Html.value(t.path("input_tokens_per_s")) +
            " input tok/s (an API that answers whole: no token is generated, no TTFT, TPOT or ITL)."));
        page.raw(distributions(report.path("distributions")));
        final Iterator<Map.Entry<String, JsonNode>> segments = report.path("segments").properties().iterator();
        while (segments.hasNext())
        {
            final Map.Entry<String, JsonNode> e = segments.next();
            page.h3("Segment " + e.getKey());
            page.raw(distributions(e.getValue().path("distributions")));
        }
        for (final JsonNode w : report.path("tail_warnings"))
        {
            page.p("warning: " + w.asText());
        }
    }

    static String distributions(final JsonNode d)
    {
        final List<List<String>> rows = new ArrayList<>();
        for (final String m : TABLE_METRICS)
        {
            final JsonNode n = d.path(m);
            if (n.isObject() && n.path("count").asLong(0) > 0)
            {
                rows.add(List.of(m, n.path("unit").asText(), Html.value(n.path("count")), Html.num(n.path("mean")),
                    Html.num(n.path("p50")), Html.num(n.path("p90")), Html.num(n.path("p99")),
                    Html.num(n.path("p99_9")), Html.num(n.path("max")), Html.interval(n.path("p99_ci95")),
                    Html.interval(n.path("p99_9_ci95"))));
            }
        }
        return Html.table(List.of("metric", "unit", "n", "mean", "p50", "p90", "p99", "p99.9", "max",
            "p99 95% interval", "p99.9 95% interval"), rows);
    }

    private static void server(final Page page, final JsonNode record, final RunSeries s)
    {
        final JsonNode server = record.path("report").path("server");
        if (!server.isObject() && s.server.isEmpty())
        {
            return;
        }
        page.h2("The server's telemetry");
        RunCharts.server(page, s);
        if (server.isObject())
        {
            page.raw(Html.table(List.of("field", "value"), Flat.rows(server, "")));
        }
    }

    private static void health(final Page page, final JsonNode measurement)
    {
        page.h2("Client health");
        page.p("The client machine's own behaviour during the run: how late a 1 ms wake-up came (hiccups), garbage " +
            "collection, JIT compilation and safepoints during load, and the CPU the harness used.");
        final List<List<String>> rows = new ArrayList<>();
        for (final String key : HEALTH)
        {
            rows.addAll(Flat.rows(measurement.path(key), key));
        }
        page.raw(Html.table(List.of("figure", "value"), rows));
    }

    private static void costEnergy(final Page page, final JsonNode record)
    {
        final JsonNode cost = record.path("report").path("cost");
        final JsonNode energy = record.path("report").path("energy");
        page.h2("Cost and energy");
        if (!cost.isObject() && !energy.isObject())
        {
            page.p("No price model and no power source: the run has no cost and no energy figures " +
                "(--price, --power; docs/COST_ENERGY.md).");
            return;
        }
        page.p("Energy boundary: " + Html.value(record.path("measurement").path("power_boundary")) + ".");
        final List<List<String>> rows = new ArrayList<>(Flat.rows(cost, "cost"));
        rows.addAll(Flat.rows(energy, "energy"));
        page.raw(Html.table(List.of("figure", "value"), rows));
    }
}
