package io.tokenclock.report;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

import io.tokenclock.metrics.Counter;
import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.LoadSection;
import io.tokenclock.results.record.MeasurementSection;
import io.tokenclock.results.record.ReportSection;
import io.tokenclock.results.record.RunRecord;
import io.tokenclock.text.UntrustedText;

/**
 * Renders a {@code record.json} as the block a paper would print beside its figures: MODEL, RUNTIME, HARDWARE,
 * WORKLOAD, LOAD, MEASUREMENT, REPORT, then the grade and, for a local-debugging record, what is missing. Cold path.
 * It prints from the typed record ({@link RunRecord}); the sections that stay trees in the model (the contract's
 * declarations, the workload's declared distributions, the stamping of any record format, the quality and server
 * sections) are printed from their trees. A section a record lacks (a peer's file read in) prints as the figures'
 * defaults, as before.
 */
public final class RecordBlock
{
    private RecordBlock()
    {
    }

    /** @return the block for record {@code r}, one line per figure; server-sent text escaped. Thread-safe. */
    public static String render(final RunRecord r)
    {
        final StringBuilder sb = new StringBuilder();
        if (r.partial())
        {
            // a reason is free text of the file: on its line, escaped (a record may come from anywhere)
            sb.append("PARTIAL RECORD: ").append(UntrustedText.escaped(or(r.partialReason(), "no reason given"),
                Integer.MAX_VALUE)).append('\n');
        }
        model(sb, r.model());
        runtime(sb, r.runtime());
        hardware(sb, r.hardware());
        workload(sb, r.workload(), r.model());
        load(sb, r.load());
        measurement(sb, r.measurement());
        section(sb, "REPORT");
        final ReportSection rep = r.report();
        figures(sb, rep);
        outcomes(sb, rep);
        if (rep != null)
        {
            GoodputSection.block(rep.goodput(), sb);
            QualitySection.block(rep.quality(), sb);
        }
        CostEnergyBlock.render(r, sb);
        ServerMetricsReport.block(rep == null ? null : rep.server(), sb);
        final RunRecord.Grade grade = r.grade();
        sb.append('\n').append("GRADE: ").append(grade == null ? "?" : UntrustedText.escaped(or(grade.grade(), "?"),
            Integer.MAX_VALUE)).append('\n');
        for (final String missing : grade == null || grade.missing() == null ? List.<String>of() : grade.missing())
        {
            sb.append("  missing: ").append(UntrustedText.escaped(missing, Integer.MAX_VALUE)).append('\n');
        }
        return sb.toString();
    }

    private static void model(final StringBuilder sb, final RunRecord.Model model)
    {
        section(sb, "MODEL");
        final RunRecord.Model m = model != null ? model : new RunRecord.Model(null, null, null, null, null, null,
            null);
        line(sb, "model", join(or(m.name(), "?"), m.revision()));
        line(sb, "tokenizer", join(or(m.tokenizer(), "not declared"),
            m.tokenizerSha256() != null ? "sha256 " + m.tokenizerSha256() : null));
        line(sb, "decoding", decoding(m.decoding()));
        line(sb, "context limit", m.contextLimit() == null ? "not declared" : m.contextLimit().toString());
    }

    private static void runtime(final StringBuilder sb, final RunRecord.Runtime runtime)
    {
        section(sb, "RUNTIME");
        line(sb, "endpoint", runtime == null ? " ()" : runtime.endpoint() + " (" + runtime.api() + ")");
        line(sb, "declared", runtime != null && isObject(runtime.declared()) ? compact(runtime.declared()) :
            "not declared");
        line(sb, "server headers", runtime == null || runtime.serverHeaders() == null ? "-" :
            pairs(runtime.serverHeaders()));
    }

    private static void hardware(final StringBuilder sb, final RunRecord.Hardware hw)
    {
        section(sb, "HARDWARE");
        line(sb, "server (declared)", hw != null && isObject(hw.serverDeclared()) ? compact(hw.serverDeclared()) :
            "not declared");
        final RunRecord.Machine client = hw == null ? new RunRecord.Machine(null, null, null, null, null) :
            hw.machine();
        line(sb, "client", String.format(Locale.ROOT, "%s, %s logical CPUs, %.1f GiB, %s, %s",
            or(client.cpuModel(), "?"), client.logicalCpus() == null ? "?" : client.logicalCpus().toString(),
            (client.memoryTotalBytes() == null ? 0.0 : client.memoryTotalBytes()) / (1L << 30), or(client.os(), "?"),
            or(client.jvm(), "?")));
    }

    /** The workload; without a declared output distribution, the output length is the model's max_tokens. */
    private static void workload(final StringBuilder sb, final RunRecord.Workload w, final RunRecord.Model model)
    {
        section(sb, "WORKLOAD");
        final Integer maxTokens = model == null || model.decoding() == null ? null : model.decoding().maxTokens();
        line(sb, "prompts", w == null ? "" : String.valueOf(w.prompts()));
        line(sb, "input tokens", w != null && isObject(w.inputTokens()) ? compact(w.inputTokens()) : "see prompts");
        line(sb, "output tokens", w != null && isObject(w.outputTokens()) ? compact(w.outputTokens()) :
            "max_tokens " + (maxTokens == null ? "?" : maxTokens.toString()));
        line(sb, "correlation", w == null ? "0" : Double.toString(w.correlation()));
        line(sb, "seed / hash", (w == null ? "" : Long.toString(w.seed())) + " / " + (w == null ? "?" :
            or(w.hash(), "?")) + " over " + (w == null ? "?" : Long.toString(w.hashRequests())) + " requests");
        line(sb, "success criterion", w == null ? "not defined" : or(w.successCriterion(), "not defined"));
    }

    private static void load(final StringBuilder sb, final LoadSection load)
    {
        section(sb, "LOAD");
        if (load == null)
        {
            line(sb, "mode", "closed loop, concurrency ");
            line(sb, "length", "requests -, duration - s, warmup  requests /  s");
            line(sb, "end of window", "");
            return;
        }
        line(sb, "mode", "open".equals(load.mode()) ?
            String.format(Locale.ROOT, "open loop, %s %s req/s, burstiness %s, max in flight %s",
                load.arrival(), load.ratePerS(), load.burstiness(), load.maxInFlight()) :
            "closed loop, concurrency " + load.concurrency());
        line(sb, "length", "requests " + or(load.requests(), "-") + ", duration " + or(load.durationS(), "-") +
            " s, warmup " + load.warmupRequests() + " requests / " + load.warmupDurationS() + " s");
        line(sb, "end of window", String.valueOf(load.endOfWindowRule()));
    }

    private static void measurement(final StringBuilder sb, final MeasurementSection m)
    {
        section(sb, "MEASUREMENT");
        if (m == null)
        {
            line(sb, "boundary", "; network ");
            line(sb, "formulas", "");
            line(sb, "stamping", "");
        }
        else
        {
            line(sb, "boundary", m.boundary() + "; network " + m.networkPath());
            line(sb, "formulas", String.valueOf(m.formulas()));
            line(sb, "stamping", stamping(m.stamping() == null ? NullNode.getInstance() : m.stamping()));
        }
        final Dist lateness = m == null || m.clientJitter() == null ? null : m.clientJitter().lateness();
        line(sb, "client hiccups", lateness != null && lateness.p99() != null ? String.format(Locale.ROOT,
            "p50 %.3f ms, p99 %.3f ms, max %.3f ms", lateness.p50(), lateness.p99(), lateness.max()) :
            "not measured");
        line(sb, "power boundary", m == null ? "not measured" : or(m.powerBoundary(), "not measured"));
    }

    /** The report's figures: requests, throughput, the headline latencies, and each segment's TTFT. */
    private static void figures(final StringBuilder sb, final ReportSection rep)
    {
        final ReportSection.Counts c = rep == null ? null : rep.counts();
        line(sb, "requests", String.format(Locale.ROOT, "%d measured: %d ok, %d error, %d cancelled; window %.2f s",
            c == null ? 0 : c.measured(), c == null ? 0 : c.get(Counter.OK), c == null ? 0 : c.get(Counter.ERRORS),
            c == null ? 0 : c.get(Counter.CANCELLED),
            rep == null || rep.window() == null ? 0.0 : rep.window().durationS()));
        final ReportSection.Throughput t = rep == null ? null : rep.throughput();
        line(sb, "throughput", t != null && t.outputTokensPerS() == null ?
            String.format(Locale.ROOT, "%.2f req/s, %.1f inputs/s, %.1f input tok/s", t.requestsPerS(),
                t.inputsPerSOrNaN(), t.inputTokensPerS()) :
            String.format(Locale.ROOT, "%.2f req/s, %.1f output tok/s", t == null ? 0.0 : t.requestsPerS(),
                t == null ? 0.0 : t.outputTokensPerS()));
        for (final String metric : List.of("ttft", "engine_ttft", "tpot", "engine_tpot", "inter_chunk_latency",
            "e2e"))
        {
            final Dist d = rep == null || rep.distributions() == null ? null : rep.distributions().get(metric);
            if (d != null && d.count() > 0)
            {
                line(sb, metric, String.format(Locale.ROOT, "p50 %.3f  p95 %.3f  p99 %.3f  max %.3f %s (n=%d)",
                    d.p50(), d.p95(), d.p99(), d.max(), d.unit(), d.count()));
            }
        }
        if (rep == null || rep.segments() == null)
        {
            return;
        }
        for (final Map.Entry<String, ReportSection.Segment> e : rep.segments().entrySet())
        {
            final Dist ttft = e.getValue().distributions() == null ? null : e.getValue().distributions().get("ttft");
            line(sb, "segment " + e.getKey(), String.format(Locale.ROOT, "%d ok, %d error; TTFT p50 %.3f p99 %.3f ms",
                e.getValue().ok(), e.getValue().error(), zero(ttft == null ? null : ttft.p50()),
                zero(ttft == null ? null : ttft.p99())));
        }
    }

    /** The report's outcomes, when present: agent tasks, cold start; then errors and repetitions. */
    private static void outcomes(final StringBuilder sb, final ReportSection rep)
    {
        final ReportSection.Tasks tasks = rep == null ? null : rep.tasks();
        if (tasks != null)
        {
            line(sb, "agent tasks", String.format(Locale.ROOT, "%d finished, %d succeeded; latency p50 %.0f ms; " +
                "model %.1f s vs tools %.1f s", tasks.tasks(), tasks.succeeded(),
                zero(tasks.taskLatency() == null ? null : tasks.taskLatency().p50()), tasks.modelTimeS(),
                tasks.toolTimeS()));
        }
        final ReportSection.ColdStart cold = rep == null ? null : rep.coldStart();
        if (cold != null)
        {
            line(sb, "cold start", String.format(Locale.ROOT, "%s, TTFT %.3f ms, e2e %.3f ms", cold.status(),
                cold.ttftMs(), cold.e2eMs()));
        }
        final Map<String, Long> errors = rep == null ? null : rep.errorsByClass();
        line(sb, "errors", errors == null || errors.isEmpty() ? "none" : pairs(errors));
        final ReportSection.RepetitionRef repetitions = rep == null ? null : rep.repetitions();
        line(sb, "repetitions", repetitions != null ? "repetition " + repetitions.index() + " of " +
            repetitions.of() + " (run-to-run spread in repetitions.json)" : "1 (no run-to-run variance measured)");
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
        for (final Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); )
        {
            final Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isNull())
            {
                parts.add(e.getKey() + "=" + (e.getValue().isTextual() ? e.getValue().asText() : e.getValue()));
            }
        }
        return String.join(", ", parts);
    }

    /** @return {@code v}, or {@code dflt} when it is null: what a record's missing value prints as. */
    private static String or(final Object v, final String dflt)
    {
        return v == null ? dflt : v.toString();
    }

    private static double zero(final Double v)
    {
        return v == null ? 0.0 : v;
    }

    private static boolean isObject(final JsonNode n)
    {
        return n != null && n.isObject();
    }

    /** @return a map as {@code key=value, ...}, null values left out: the form of {@link #compact}. */
    private static String pairs(final Map<String, ?> map)
    {
        final List<String> parts = new ArrayList<>();
        map.forEach((k, v) ->
        {
            if (v != null)
            {
                parts.add(k + "=" + v);
            }
        });
        return String.join(", ", parts);
    }

    /** @return how the model decoded, as {@code max_tokens=..., ignore_eos=...}, null values left out. */
    private static String decoding(final RunRecord.Decoding d)
    {
        if (d == null)
        {
            return "-";
        }
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("max_tokens", d.maxTokens());
        m.put("ignore_eos", d.ignoreEos());
        m.put("temperature", d.temperature());
        m.put("extra_body", d.extraBody());
        return pairs(m);
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
