package io.tokenclock.report;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.record.RecordJson;
import io.tokenclock.record.RunRecord;
import io.tokenclock.text.UntrustedText;

/**
 * Renders a {@code record.json} as the block a paper would print beside its figures: MODEL, RUNTIME, HARDWARE,
 * WORKLOAD, LOAD, MEASUREMENT, REPORT, then the grade and, for a local-debugging record, what is missing. Cold path.
 */
public final class RecordBlock
{
    private RecordBlock()
    {
    }

    /** @return the block for record {@code r}, one line per figure; server-sent text escaped. Thread-safe. */
    public static String render(final RunRecord r)
    {
        return render(RecordJson.tree(r));
    }

    /** @return the block for a record read as a tree (any record format); see {@link #render(RunRecord)}. */
    public static String render(final JsonNode r)
    {
        final StringBuilder sb = new StringBuilder();
        if (r.path("partial").asBoolean(false))
        {
            sb.append("PARTIAL RECORD: ").append(r.path("partial_reason").asText("no reason given")).append('\n');
        }
        model(sb, r.path("model"));
        runtime(sb, r.path("runtime"));
        hardware(sb, r.path("hardware"));
        workload(sb, r.path("workload"), r.path("model"));
        load(sb, r.path("load"));
        measurement(sb, r.path("measurement"));
        section(sb, "REPORT");
        figures(sb, r.path("report"));
        outcomes(sb, r.path("report"));
        GoodputSection.block(r, sb);
        QualitySection.block(r, sb);
        CostEnergyBlock.render(r, sb);
        ServerMetricsReport.block(r, sb);
        final JsonNode grade = r.path("grade");
        sb.append('\n').append("GRADE: ").append(grade.path("grade").asText("?")).append('\n');
        for (final JsonNode missing : grade.path("missing"))
        {
            sb.append("  missing: ").append(missing.asText()).append('\n');
        }
        return sb.toString();
    }

    private static void model(final StringBuilder sb, final JsonNode model)
    {
        section(sb, "MODEL");
        line(sb, "model", join(model.path("name").asText("?"), model.path("revision").asText(null)));
        line(sb, "tokenizer", join(model.path("tokenizer").asText("not declared"),
            model.path("tokenizer_sha256").isTextual() ? "sha256 " + model.get("tokenizer_sha256").asText() : null));
        line(sb, "decoding", compact(model.path("decoding")));
        line(sb, "context limit", model.path("context_limit").asText("not declared"));
    }

    private static void runtime(final StringBuilder sb, final JsonNode runtime)
    {
        section(sb, "RUNTIME");
        line(sb, "endpoint", runtime.path("endpoint").asText() + " (" + runtime.path("api").asText() + ")");
        line(sb, "declared", runtime.path("declared").isObject() ? compact(runtime.get("declared")) : "not declared");
        line(sb, "server headers", compact(runtime.path("server_headers")));
    }

    private static void hardware(final StringBuilder sb, final JsonNode hw)
    {
        section(sb, "HARDWARE");
        final JsonNode client = hw.path("client");
        line(sb, "server (declared)", hw.path("server_declared").isObject() ? compact(hw.get("server_declared")) :
            "not declared");
        line(sb, "client", String.format(Locale.ROOT, "%s, %s logical CPUs, %.1f GiB, %s, %s",
            client.path("cpu_model").asText("?"), client.path("logical_cpus").asText("?"),
            client.path("memory_total_bytes").asDouble() / (1L << 30), client.path("os").asText("?"),
            client.path("jvm").asText("?")));
    }

    /** The workload; without a declared output distribution, the output length is the model's max_tokens. */
    private static void workload(final StringBuilder sb, final JsonNode w, final JsonNode model)
    {
        section(sb, "WORKLOAD");
        line(sb, "prompts", w.path("prompts").asText());
        line(sb, "input tokens", w.path("input_tokens").isObject() ? compact(w.get("input_tokens")) : "see prompts");
        line(sb, "output tokens", w.path("output_tokens").isObject() ? compact(w.get("output_tokens")) :
            "max_tokens " + model.path("decoding").path("max_tokens").asText("?"));
        line(sb, "correlation", w.path("correlation").asText("0"));
        line(sb, "seed / hash", w.path("seed").asText() + " / " + w.path("hash").asText("?") + " over " +
            w.path("hash_requests").asText("?") + " requests");
        line(sb, "success criterion", w.path("success_criterion").asText("not defined"));
    }

    private static void load(final StringBuilder sb, final JsonNode load)
    {
        section(sb, "LOAD");
        line(sb, "mode", load.path("mode").asText().equals("open") ?
            String.format(Locale.ROOT, "open loop, %s %s req/s, burstiness %s, max in flight %s",
                load.path("arrival").asText(), load.path("rate_per_s").asText(), load.path("burstiness").asText(),
                load.path("max_in_flight").asText()) :
            "closed loop, concurrency " + load.path("concurrency").asText());
        line(sb, "length", "requests " + load.path("requests").asText("-") + ", duration " +
            load.path("duration_s").asText("-") + " s, warmup " + load.path("warmup_requests").asText() +
            " requests / " + load.path("warmup_duration_s").asText() + " s");
        line(sb, "end of window", load.path("end_of_window_rule").asText());
    }

    private static void measurement(final StringBuilder sb, final JsonNode m)
    {
        section(sb, "MEASUREMENT");
        line(sb, "boundary", m.path("boundary").asText() + "; network " + m.path("network_path").asText());
        line(sb, "formulas", m.path("formulas").asText());
        line(sb, "stamping", stamping(m.path("stamping")));
        final JsonNode lateness = m.path("client_jitter").path("lateness");
        line(sb, "client hiccups", lateness.has("p99") ? String.format(Locale.ROOT, "p50 %.3f ms, p99 %.3f ms, max " +
            "%.3f ms", lateness.get("p50").asDouble(), lateness.get("p99").asDouble(), lateness.get("max").asDouble()) :
            "not measured");
        line(sb, "power boundary", m.path("power_boundary").asText("not measured"));
    }

    /** The report's figures: requests, throughput, the headline latencies, and each segment's TTFT. */
    private static void figures(final StringBuilder sb, final JsonNode rep)
    {
        final JsonNode c = rep.path("counts");
        line(sb, "requests", String.format(Locale.ROOT, "%d measured: %d ok, %d error, %d cancelled; window %.2f s",
            c.path("measured").asLong(), c.path("ok").asLong(), c.path("error").asLong(), c.path("cancelled").asLong(),
            rep.path("window").path("duration_s").asDouble()));
        final JsonNode t = rep.path("throughput");
        line(sb, "throughput", String.format(Locale.ROOT, "%.2f req/s, %.1f output tok/s",
            t.path("requests_per_s").asDouble(), t.path("output_tokens_per_s").asDouble()));
        for (final String metric : List.of("ttft", "engine_ttft", "tpot", "engine_tpot", "inter_chunk_latency",
            "e2e"))
        {
            final JsonNode d = rep.path("distributions").path(metric);
            if (d.path("count").asLong() > 0)
            {
                line(sb, metric, String.format(Locale.ROOT, "p50 %.3f  p95 %.3f  p99 %.3f  max %.3f %s (n=%d)",
                    d.get("p50").asDouble(), d.get("p95").asDouble(), d.get("p99").asDouble(), d.get("max").asDouble(),
                    d.path("unit").asText(), d.get("count").asLong()));
            }
        }
        for (final Iterator<Map.Entry<String, JsonNode>> it = rep.path("segments").fields(); it.hasNext(); )
        {
            final Map.Entry<String, JsonNode> e = it.next();
            final JsonNode ttft = e.getValue().path("distributions").path("ttft");
            line(sb, "segment " + e.getKey(), String.format(Locale.ROOT, "%d ok, %d error; TTFT p50 %.3f p99 %.3f ms",
                e.getValue().path("ok").asLong(), e.getValue().path("error").asLong(), ttft.path("p50").asDouble(),
                ttft.path("p99").asDouble()));
        }
    }

    /** The report's outcomes, when present: agent tasks, cold start; then errors and repetitions. */
    private static void outcomes(final StringBuilder sb, final JsonNode rep)
    {
        final JsonNode tasks = rep.path("tasks");
        if (tasks.isObject())
        {
            line(sb, "agent tasks", String.format(Locale.ROOT, "%d finished, %d succeeded; latency p50 %.0f ms; " +
                "model %.1f s vs tools %.1f s", tasks.path("tasks").asLong(), tasks.path("succeeded").asLong(),
                tasks.path("task_latency").path("p50").asDouble(), tasks.path("model_time_s").asDouble(),
                tasks.path("tool_time_s").asDouble()));
        }
        final JsonNode cold = rep.path("cold_start");
        if (cold.isObject())
        {
            line(sb, "cold start", String.format(Locale.ROOT, "%s, TTFT %.3f ms, e2e %.3f ms",
                cold.path("status").asText(), cold.path("ttft_ms").asDouble(), cold.path("e2e_ms").asDouble()));
        }
        line(sb, "errors", rep.path("errors_by_class").isEmpty() ? "none" : compact(rep.path("errors_by_class")));
        final JsonNode repetitions = rep.path("repetitions");
        line(sb, "repetitions", repetitions.isObject() ? "repetition " + repetitions.path("index").asText() + " of " +
            repetitions.path("of").asText() + " (run-to-run spread in repetitions.json)" :
            "1 (no run-to-run variance measured)");
    }

    static void section(final StringBuilder sb, final String name)
    {
        if (!sb.isEmpty())
        {
            sb.append('\n');
        }
        sb.append(name).append('\n');
    }

    static void line(final StringBuilder sb, final String key, final String value)
    {
        // Values may hold what a server sent (model ids, headers, error details): never raw on a terminal.
        sb.append("  ").append(String.format(Locale.ROOT, "%-21s", key))
            .append(value == null ? "-" : UntrustedText.escaped(value, Integer.MAX_VALUE)).append('\n');
    }

    private static String join(final String a, final String b)
    {
        return b == null || b.equals("null") ? a : a + " @ " + b;
    }

    private static String compact(final JsonNode node)
    {
        if (node == null || node.isMissingNode() || node.isNull())
        {
            return "-";
        }
        if (!node.isObject())
        {
            return node.isTextual() ? node.asText() : node.toString();
        }
        final List<String> parts = new ArrayList<>();
        for (final Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); )
        {
            final Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isNull())
            {
                parts.add(e.getKey() + "=" + (e.getValue().isTextual() ? e.getValue().asText() : e.getValue()));
            }
        }
        return String.join(", ", parts);
    }

    /** @return how reads were stamped, in one line: the mode, what fell back and why, then the rule. */
    private static String stamping(final JsonNode n)
    {
        if (n.isTextual() || n.isMissingNode())
        {
            return n.asText(); // a record written before record.json said kernel or user
        }
        final StringBuilder sb = new StringBuilder(n.path("mode").asText());
        if (n.path("reads").asLong() > 0)
        {
            sb.append(" (").append(n.path("reads").asLong()).append(" reads, ").append(n.path("fallback_reads")
                .asLong()).append(" fell back to user stamps)");
        }
        if (!n.path("fallback_reason").isNull() && !n.path("fallback_reason").isMissingNode())
        {
            sb.append(" (kernel asked: ").append(n.path("fallback_reason").asText()).append(')');
        }
        return sb.append(": ").append(n.path("rule").asText()).toString();
    }
}
