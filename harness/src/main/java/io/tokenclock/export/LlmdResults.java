package io.tokenclock.export;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import io.tokenclock.json.Json;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Metric;
import io.tokenclock.results.record.MeasurementSection;
import io.tokenclock.results.record.ReportSection;
import io.tokenclock.results.record.RunRecord;

/**
 * The report's {@code results}: the requests' figures ({@code request_performance.aggregate}), the sessions' where the
 * run had sessions or agent tasks ({@code session_performance}), the server's own gauges and the measured power
 * ({@code observability}), and the profiler's files ({@code profiling}).
 * <p>
 * Which tokenclock metric fills which slot: TTFT {@code ttft}; TPOT {@code tpot}; ITL {@code token_itl} where the
 * server reported tokens per chunk, else {@code inter_chunk_latency} (every chunk gap, as vLLM's {@code itl} and
 * llm-d's converters take it); request latency {@code e2e}; NTPOT each measured ok request's {@code e2e_ms} over its
 * {@code output_tokens}, from {@code requests.jsonl}.
 */
final class LlmdResults
{
    private LlmdResults()
    {
    }

    /**
     * What one run gives.
     *
     * @param record     its record.
     * @param histograms its metrics' histograms (its {@code .hlog} files), by metric; empty for a peer's file.
     * @param lines      what its {@code requests.jsonl} gives, or null without one.
     */
    record RunData(RunRecord record, Map<Metric, Histogram> histograms, PerRequest.Data lines)
    {
        /** @return the statistics of {@code m}: from its histogram when there is one, else from the record. */
        ObjectNode stats(final Metric m, final String units)
        {
            final Histogram h = histograms.get(m);
            if (h != null)
            {
                return Stats.of(h, m.scale(), units);
            }
            return record.report() == null ? null : Stats.of(record.report().distribution(m.key()), units);
        }
    }

    /** @return the {@code results} of a run, labelling the server's figures with {@code label}. */
    static ObjectNode of(final RunData d, final String label)
    {
        final ObjectNode results = Json.MAPPER.createObjectNode();
        results.putObject("request_performance").set("aggregate", aggregate(d));
        final ObjectNode sessions = sessions(d);
        if (sessions != null)
        {
            results.putObject("session_performance").set("sessions", sessions);
        }
        final ObjectNode observed = label == null ? null : observability(d.record(), label);
        if (observed != null)
        {
            results.set("observability", observed);
        }
        final MeasurementSection.Profile profile = d.record().measurement() == null ? null :
            d.record().measurement().profile();
        if (profile != null)
        {
            results.set("profiling", Json.MAPPER.valueToTree(profile));
        }
        return results;
    }

    private static ObjectNode aggregate(final RunData d)
    {
        final ReportSection report = d.record().report();
        final ReportSection.Counts counts = report == null ? null : report.counts();
        final ObjectNode a = Json.MAPPER.createObjectNode();
        final ObjectNode requests = a.putObject("requests");
        requests.put("total", counts == null ? 0 : counts.measured());
        if (counts != null)
        {
            requests.put("failures", counts.get(Counter.ERRORS)).put("incomplete", counts.get(Counter.CANCELLED));
        }
        set(requests, "input_length", d.stats(Metric.INPUT_TOKENS, Stats.COUNT));
        set(requests, "output_length", d.stats(Metric.OUTPUT_TOKENS, Stats.COUNT));
        final ObjectNode latency = a.putObject("latency");
        set(latency, "time_to_first_token", d.stats(Metric.TTFT, Stats.MS));
        if (d.lines() != null)
        {
            set(latency, "normalized_time_per_output_token",
                Stats.of(d.lines().ntpot(), PerRequest.Data.NS_PER_MS, Stats.MS_PER_TOKEN));
        }
        set(latency, "time_per_output_token", d.stats(Metric.TPOT, Stats.MS_PER_TOKEN));
        final ObjectNode tokenItl = d.stats(Metric.TOKEN_ITL, Stats.MS_PER_TOKEN);
        set(latency, "inter_token_latency",
            tokenItl != null ? tokenItl : d.stats(Metric.INTER_CHUNK_LATENCY, Stats.MS_PER_TOKEN));
        set(latency, "request_latency", d.stats(Metric.E2E, Stats.MS));
        if (report != null && report.throughput() != null)
        {
            final ReportSection.Throughput t = report.throughput();
            final ObjectNode throughput = a.putObject("throughput");
            set(throughput, "input_token_rate", Stats.mean(t.inputTokensPerS(), Stats.TOKENS_PER_S));
            // embeddings and rerank generate no token: no output rate (absent, never 0), the total is the input's
            final double output = t.outputTokensPerS() == null ? 0 : t.outputTokensPerS();
            if (t.outputTokensPerS() != null)
            {
                set(throughput, "output_token_rate", Stats.mean(output, Stats.TOKENS_PER_S));
            }
            set(throughput, "total_token_rate", Stats.mean(t.inputTokensPerS() + output, Stats.TOKENS_PER_S));
            set(throughput, "request_rate", Stats.mean(t.requestsPerS(), Stats.QUERIES_PER_S));
        }
        return a;
    }

    /** @return the sessions: agent tasks as the record counts them, else the sessions {@code requests.jsonl} names. */
    private static ObjectNode sessions(final RunData d)
    {
        final ReportSection report = d.record().report();
        final ReportSection.Tasks tasks = report == null ? null : report.tasks();
        if (tasks != null)
        {
            final ObjectNode s = Json.MAPPER.createObjectNode().put("total", tasks.tasks())
                .put("succeeded", tasks.succeeded()).put("failed", tasks.tasks() - tasks.succeeded());
            set(s, "session_rate", Stats.mean(tasks.tasksPerS(), Stats.QUERIES_PER_S));
            set(s, "session_duration", Stats.of(tasks.taskLatency(), Stats.MS));
            set(s, "events_per_session", Stats.of(tasks.steps(), Stats.COUNT));
            return s;
        }
        final List<PerRequest.Session> sessions = d.lines() == null ? List.of() : d.lines().sessions();
        if (sessions.isEmpty())
        {
            return null;
        }
        return sessions(sessions, report == null || report.window() == null ? 0 : report.window().durationS());
    }

    private static ObjectNode sessions(final List<PerRequest.Session> sessions, final double windowS)
    {
        final int n = sessions.size();
        final long succeeded = sessions.stream().filter(PerRequest.Session::succeeded).count();
        final ObjectNode s = Json.MAPPER.createObjectNode().put("total", n).put("succeeded", succeeded)
            .put("failed", n - succeeded)
            .put("total_events", sessions.stream().mapToLong(PerRequest.Session::events).sum())
            .put("total_events_completed", sessions.stream().mapToLong(PerRequest.Session::completed).sum())
            .put("total_events_cancelled", sessions.stream().mapToLong(PerRequest.Session::cancelled).sum());
        if (windowS > 0)
        {
            set(s, "session_rate", Stats.mean(n / windowS, Stats.QUERIES_PER_S));
        }
        set(s, "session_duration", Stats.of(sessions.stream().mapToDouble(PerRequest.Session::durationS)
            .toArray(), 1e9, Stats.S));
        set(s, "events_per_session", Stats.of(sessions.stream().mapToDouble(PerRequest.Session::events)
            .toArray(), 1, Stats.COUNT));
        set(s, "events_cancelled_per_session", Stats.of(sessions.stream()
            .mapToDouble(PerRequest.Session::cancelled).toArray(), 1, Stats.COUNT));
        set(s, "input_tokens_per_session", Stats.of(sessions.stream()
            .mapToDouble(PerRequest.Session::inputTokens).toArray(), 1, Stats.COUNT));
        set(s, "output_tokens_per_session", Stats.of(sessions.stream()
            .mapToDouble(PerRequest.Session::outputTokens).toArray(), 1, Stats.COUNT));
        return s;
    }

    /** @return the server's gauges over the window and the measured power, or null when the run has neither. */
    private static ObjectNode observability(final RunRecord r, final String label)
    {
        final ReportSection report = r.report();
        final JsonNode server = report == null || report.server() == null ? Json.MAPPER.missingNode() :
            report.server();
        final ObjectNode m = Json.MAPPER.createObjectNode();
        set(m, "kv_cache_usage", gauge(server.path("kv_usage"), Stats.FRACTION));
        final ObjectNode hits = gauge(server.path("cache_hit_rate"), Stats.FRACTION);
        final JsonNode prefix = server.path("prefix_cache_hit_rate");
        set(m, "cache_hit_rate", hits != null || !prefix.isNumber() ? hits :
            Stats.mean(prefix.asDouble(), Stats.FRACTION));
        set(m, "running_requests", gauge(server.path("running"), Stats.COUNT));
        set(m, "waiting_requests", gauge(server.path("waiting"), Stats.COUNT));
        if (report != null && report.energy() != null && report.energy().averageWatts() != null)
        {
            set(m, "power_consumption", Stats.mean(report.energy().averageWatts(), Stats.WATTS));
        }
        if (m.isEmpty())
        {
            return null;
        }
        final ObjectNode o = Json.MAPPER.createObjectNode();
        o.putArray("components").addObject().put("component_label", label).set("aggregate", m);
        return o;
    }

    /** @return a scraped gauge ({@code mean}, {@code max} over the window's scrapes), or null when not exported. */
    private static ObjectNode gauge(final JsonNode g, final String units)
    {
        if (!g.path("mean").isNumber())
        {
            return null;
        }
        final ObjectNode n = Stats.mean(g.path("mean").asDouble(), units);
        if (n != null && g.path("max").isNumber())
        {
            Stats.put(n, "max", g.path("max").asDouble());
        }
        return n;
    }

    private static void set(final ObjectNode parent, final String key, final ObjectNode value)
    {
        if (value != null)
        {
            parent.set(key, value);
        }
    }
}
