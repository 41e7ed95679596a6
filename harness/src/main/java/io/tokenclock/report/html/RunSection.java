package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.record.RunRecord;
import io.tokenclock.report.ClientShaping;
import io.tokenclock.report.RecordBlock;

/**
 * The report of a single run, the answer first: the cards, one sentence, the warnings and the grade ({@link Lead});
 * then TTFT and ITL over time with the window marked and the percentile plots; the other figures over time; the
 * summary tables per segment with the p99 intervals; the server's telemetry beside the client's; the client's health;
 * cost and energy; the record block, last, as a table; and a definition of every metric.
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
        final String block = RecordBlock.render(run);
        Lead.run(page, record, s);
        RunCharts.latencyOverTime(page, record, s);
        RunCharts.percentiles(page, List.of(record.path("run_id").asText("run")), List.of(s));
        RunCharts.overTime(page, record, s);
        summary(page, record.path("report"));
        CacheSessionsSection.render(page, record.path("report"));
        server(page, record, s, block);
        health(page, record);
        costEnergy(page, record);
        record(page, block);
        Definitions.render(page);
    }

    /** The record block, last, as a readable table; the grade line at the top links here. */
    static void record(final Page page, final String block)
    {
        page.h2("The record", "record");
        page.p("What produced these figures (docs/RESULTS.md): the same block as tokenclock record DIR prints; the " +
            "grade says what a comparison-grade record would also declare.");
        page.raw(RecordTable.html(block));
    }

    /** The distributions of the whole run, then of each segment, with the p99 and p99.9 intervals. */
    static void summary(final Page page, final JsonNode report)
    {
        page.h2("Every figure");
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

    /**
     * The server's own view: its gauges over time beside the client's in-flight count, the small table the record
     * block prints (engine, running, waiting, KV cache, the engine's TTFT against the client's), and every field it
     * exported folded away.
     */
    private static void server(final Page page, final JsonNode record, final RunSeries s, final String block)
    {
        final JsonNode server = record.path("report").path("server");
        if (!server.isObject() && s.server.isEmpty())
        {
            return;
        }
        page.h2("The server's telemetry");
        RunCharts.server(page, s);
        final List<List<String>> rows = RecordTable.section(block, "SERVER");
        if (!rows.isEmpty())
        {
            page.raw(Html.kv(List.of("figure", "value"), rows));
        }
        if (server.isObject())
        {
            page.raw("<details><summary>Every field of report.server</summary>\n" +
                Html.table(List.of("field", "value"), Flat.rows(server, "")) + "</details>\n");
        }
    }

    /**
     * The client's own behaviour during the run, as a verdict (whether it may have moved the stamps, and why), a
     * small table of what decides it, and its CPU by thread as a chart; every field folded away.
     */
    private static void health(final Page page, final JsonNode record)
    {
        final JsonNode m = record.path("measurement");
        page.h2("Client health");
        final Optional<String> warning = ClientShaping.warning(record);
        page.p(warning.isEmpty() ? "No sign that the client machine moved these figures: " + (kernel(m) ?
            "the kernel stamped each read, and no more than 1 content chunk in 1,000 took a later chunk's stamp." :
            "its hiccups, safepoints and compilation stayed well below the inter-chunk latency.") :
            "Warning: " + warning.get() + ".");
        page.raw(Html.kv(List.of("figure", "value", "what it means"), healthRows(record)));
        ClientCharts.cpuByThread(page, m.path("client_cpu_by_thread"));
        final List<List<String>> rows = new ArrayList<>();
        for (final String key : HEALTH)
        {
            rows.addAll(Flat.rows(m.path(key), key));
        }
        page.raw("<details><summary>Every field of the client's health (record.json measurement)</summary>\n" +
            Html.table(List.of("figure", "value"), rows) + "</details>\n");
    }

    /** @return a figure in us as ms, to 3 decimals. */
    private static String ms(final JsonNode us)
    {
        return us.isNumber() ? Html.num(Math.round(us.asDouble()) / 1e3) : "-";
    }

    private static boolean kernel(final JsonNode m)
    {
        return "kernel".equals(m.path("stamping").path("mode").asText());
    }

    /** @return the figures that decide whether the client shaped the run, one row each, with what each means. */
    private static List<List<String>> healthRows(final JsonNode record)
    {
        final JsonNode m = record.path("measurement");
        final JsonNode rep = record.path("report");
        final JsonNode st = m.path("stamping");
        final JsonNode lat = m.path("client_jitter").path("lateness");
        final JsonNode rd = rep.path("client_receive_delay");
        final List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("stamping", st.path("mode").asText("?") + ", " + Html.value(st.path("reads")) + " reads, " +
            Html.value(st.path("fallback_reads")) + " fell back", "who took each read's stamp"));
        if (rd.isObject())
        {
            rows.add(List.of("client receive delay", "p50 " + ms(rd.path("p50")) + ", p99 " + ms(rd.path("p99")) +
                ", max " + ms(rd.path("max")) + " ms", "kernel stamp to the client's read; a read later than the " +
                "next segment gets its stamp"));
            rows.add(List.of("reads on a shared stamp", Html.value(st.path("shared_stamp_reads")) + " of " +
                Html.value(st.path("reads")), "the previous read's kernel stamp: merged or one segment"));
        }
        final JsonNode chunks = st.path("shared_stamp_chunks");
        if (chunks.isObject())
        {
            rows.add(List.of("chunks on a later chunk's stamp", Html.value(chunks.path("shared")) + " of " +
                Html.value(chunks.path("chunks")) + " (first chunks: " + Html.value(chunks.path("first_shared")) +
                " of " + Html.value(chunks.path("first_chunks")) + ")", "the bound is 1 in 1,000: above it the " +
                "client's late reads moved the tail (the warning, and the grade)"));
        }
        rows.add(List.of("hiccups", "p50 " + Html.num(lat.path("p50")) + ", p99 " + Html.num(lat.path("p99")) +
            ", max " + Html.num(lat.path("max")) + " ms", "how late a thread asking to wake woke"));
        rows.add(List.of("inter-chunk latency p50", Html.num(rep.path("distributions").path("inter_chunk_latency")
            .path("p50")) + " ms", "the gap a stall is measured against"));
        rows.add(List.of("GC", Html.value(m.path("client_gc").path("collections")) + " pauses, " +
            Html.value(m.path("client_gc").path("total_ms")) + " ms", "stops every thread"));
        rows.add(List.of("safepoints during load", Html.value(m.path("client_safepoints").path("count")) + ", " +
            Html.num(m.path("client_safepoints").path("total_ms")) + " ms stopped", "stops every thread"));
        rows.add(List.of("JIT during load", Html.value(m.path("client_jit").path("compilation_ms_during_load")) +
            " ms", m.path("readiness").path("compiler_threads_idle").asInt(0) > 0 ? "compiler threads in the " +
            "idle scheduling class" : "compiler threads at normal priority"));
        return rows;
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
