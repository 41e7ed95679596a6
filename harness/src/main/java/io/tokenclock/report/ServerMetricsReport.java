package io.tokenclock.report;

import java.io.PrintStream;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.run.RunResult;
import io.tokenclock.secrets.Redaction;
import io.tokenclock.telemetry.EngineNames;
import io.tokenclock.telemetry.ServerMetricsScraper;
import io.tokenclock.telemetry.ServerMetricsSummary;

/**
 * The server's own figures in the record ({@code measurement.server_metrics}, {@code report.server}) and the summary:
 * its gauges over the window, and its latency histograms beside the client's figures, so that the share of each
 * latency spent outside the engine (network, HTTP, the server's front end, the client) is visible. Format:
 * docs/RESULTS.md. Thread-safe: stateless.
 */
final class ServerMetricsReport
{
    private static final ObjectMapper JSON = Json.MAPPER;
    /** The client's metric beside each engine latency; the queue time has none. */
    private static final Map<EngineNames.Latency, Metric> CLIENT = Map.of(EngineNames.Latency.TTFT, Metric.TTFT,
        EngineNames.Latency.TPOT, Metric.TPOT, EngineNames.Latency.ITL, Metric.TOKEN_ITL, EngineNames.Latency.E2E,
        Metric.E2E);

    private ServerMetricsReport()
    {
    }

    /** @return {@code measurement.server_metrics}: what was scraped and what it cost; null when nothing was. */
    static ObjectNode scraping(final RunResult r)
    {
        final ServerMetricsSummary s = r.serverMetrics();
        if (s == null)
        {
            return null;
        }
        final ObjectNode n = JSON.createObjectNode();
        n.put("url", Redaction.url(s.url()));
        n.put("file", ServerMetricsScraper.FILE);
        n.put("interval_ms", s.intervalMs());
        n.put("scrapes", s.scrapes()).put("failures", s.failures()).put("bytes", s.bytes());
        n.put("bytes_per_scrape", s.scrapes() > 0 ? (double)s.bytes() / s.scrapes() : 0);
        if (s.cpuNs() >= 0)
        {
            n.put("cpu_ms", s.cpuNs() / 1e6).put("cpu_us_per_scrape", s.scrapes() > 0 ? s.cpuNs() / 1e3 / s.scrapes() :
                0);
        }
        else
        {
            n.putNull("cpu_ms").putNull("cpu_us_per_scrape");
        }
        n.put("parse_errors", s.parseErrors());
        n.put("last_error", s.lastError());
        n.put("method", "HTTP GET on a daemon thread of its own in the idle scheduling class (never an event loop " +
            "or the collector), one scrape before the window opens, every interval_ms, one after the drain; each " +
            "stamped on the run's clock (System.nanoTime) before and after; parsed as the Prometheus text format " +
            "0.0.4; cpu is that thread's CPU time (fetch, parse, map, write)");
        return n;
    }

    /** @return {@code report.server}: the server's figures over the window; null when it was not scraped. */
    static ObjectNode window(final RunResult r)
    {
        final ServerMetricsSummary s = r.serverMetrics();
        if (s == null)
        {
            return null;
        }
        final ObjectNode n = JSON.createObjectNode();
        n.put("engine", s.engine());
        n.putObject("bracket").put("from_ns", s.fromNs()).put("to_ns", s.toNs())
            .put("covers_window", s.coversWindow()).put("scrapes_in_window", s.scrapesInWindow());
        for (final EngineNames.Field f : new EngineNames.Field[] {EngineNames.Field.RUNNING,
            EngineNames.Field.WAITING, EngineNames.Field.KV_USAGE, EngineNames.Field.CACHE_HIT_RATE})
        {
            final ServerMetricsSummary.Gauge g = s.gauges().get(f);
            if (g == null)
            {
                n.putNull(f.key());
            }
            else
            {
                n.putObject(f.key()).put("source", s.sources().get(f)).put("scrapes", g.samples())
                    .put("mean", g.mean()).put("max", g.max());
            }
        }
        final double hitRate = s.prefixCacheHitRate();
        n.put("prefix_cache_hit_rate", Double.isNaN(hitRate) ? null : hitRate);
        n.set("spec_decode", specDecode(s));
        final ObjectNode counters = n.putObject("counters");
        for (final Map.Entry<EngineNames.Field, Double> e : s.deltas().entrySet())
        {
            counters.putObject(e.getKey().key()).put("source", s.sources().get(e.getKey()))
                .put("delta", e.getValue());
        }
        final ObjectNode latency = n.putObject("latency");
        for (final Map.Entry<EngineNames.Latency, ServerMetricsSummary.Latency> e : s.latencies().entrySet())
        {
            latency(latency.putObject(e.getKey().key()), e.getValue(), CLIENT.get(e.getKey()), r);
        }
        return n;
    }

    /**
     * @return {@code report.server.spec_decode}: the speculative decoder's acceptance over the bracket, from vLLM's
     * counters (acceptance rate = accepted / draft tokens, mean accepted length = 1 + accepted / drafts), else from
     * SGLang's own gauges (their mean over the window's scrapes); null when the engine exported neither.
     */
    private static ObjectNode specDecode(final ServerMetricsSummary s)
    {
        final double rate = s.specAcceptanceRate();
        if (!Double.isNaN(rate))
        {
            final ObjectNode n = JSON.createObjectNode().put("acceptance_rate", rate)
                .put("mean_accepted_length", finite(s.specMeanAcceptedLength()));
            n.put("drafts", s.deltas().get(EngineNames.Field.SPEC_DRAFTS))
                .put("draft_tokens", s.deltas().get(EngineNames.Field.SPEC_DRAFT_TOKENS))
                .put("accepted_tokens", s.deltas().get(EngineNames.Field.SPEC_ACCEPTED_TOKENS));
            return n.put("method", "counters over the bracket: " + s.sources().get(EngineNames.Field.SPEC_DRAFTS) +
                ", " + s.sources().get(EngineNames.Field.SPEC_DRAFT_TOKENS) + ", " +
                s.sources().get(EngineNames.Field.SPEC_ACCEPTED_TOKENS));
        }
        final ServerMetricsSummary.Gauge length = s.gauges().get(EngineNames.Field.SPEC_ACCEPT_LENGTH);
        final ServerMetricsSummary.Gauge accept = s.gauges().get(EngineNames.Field.SPEC_ACCEPT_RATE);
        if (length == null && accept == null)
        {
            return null;
        }
        final ObjectNode n = JSON.createObjectNode();
        n.put("acceptance_rate", accept == null ? null : accept.mean());
        n.put("mean_accepted_length", length == null ? null : length.mean());
        return n.put("method", "the engine's own gauges, mean over the window's scrapes (" +
            (length != null ? s.sources().get(EngineNames.Field.SPEC_ACCEPT_LENGTH) : "") +
            (length != null && accept != null ? ", " : "") +
            (accept != null ? s.sources().get(EngineNames.Field.SPEC_ACCEPT_RATE) : "") + ")");
    }

    private static void latency(final ObjectNode n, final ServerMetricsSummary.Latency engine, final Metric metric,
        final RunResult r)
    {
        n.put("source", engine.source()).put("engine_count", engine.count());
        n.put("engine_mean_ms", finite(engine.meanMs())).put("engine_p50_ms", finite(engine.p50Ms()))
            .put("engine_p99_ms", finite(engine.p99Ms()));
        final Distribution client = metric == null ? null : r.distributions().get(metric);
        if (client == null || client.count() == 0)
        {
            return;
        }
        n.put("client_metric", metric.key()).put("client_count", client.count());
        n.put("client_mean_ms", client.mean()).put("client_p50_ms", client.p50()).put("client_p99_ms", client.p99());
        final double outside = client.mean() - engine.meanMs();
        n.put("outside_engine_mean_ms", finite(outside));
        n.put("outside_engine_share", client.mean() > 0 ? finite(outside / client.mean()) : null);
    }

    /** Prints the server's figures in one or two lines of the summary, when it was scraped. */
    static void print(final RunResult r, final PrintStream out)
    {
        final ServerMetricsSummary s = r.serverMetrics();
        if (s == null)
        {
            return;
        }
        if (s.engine() == null)
        {
            out.printf(Locale.ROOT, "server metrics: %d scrapes of %s, none succeeded (%s)%n", s.scrapes(),
                Redaction.url(s.url()), s.lastError());
            return;
        }
        final StringBuilder sb = new StringBuilder(160).append("server (").append(s.engine()).append(", ")
            .append(s.scrapes()).append(" scrapes):");
        gauge(sb, "running", s.gauges().get(EngineNames.Field.RUNNING), 1, "");
        gauge(sb, "waiting", s.gauges().get(EngineNames.Field.WAITING), 1, "");
        gauge(sb, "KV", s.gauges().get(EngineNames.Field.KV_USAGE), 100, "%");
        out.println(sb);
        final ServerMetricsSummary.Latency ttft = s.latencies().get(EngineNames.Latency.TTFT);
        final Distribution client = r.distributions().get(Metric.TTFT);
        if (ttft != null && ttft.count() > 0 && client.count() > 0)
        {
            out.printf(Locale.ROOT, "engine TTFT mean %.3f ms vs client %.3f ms: %.1f%% outside the engine%n",
                ttft.meanMs(), client.mean(), 100 * (client.mean() - ttft.meanMs()) / client.mean());
        }
    }

    /**
     * Appends the record block's SERVER section from {@code report.server}, when the server was scraped. The section
     * is a tree in the typed record (what it holds depends on what the engine exposed), so it is read as one.
     */
    static void block(final JsonNode server, final StringBuilder sb)
    {
        if (server == null || !server.isObject())
        {
            return;
        }
        RecordBlock.section(sb, "SERVER");
        RecordBlock.line(sb, "engine", server.path("engine").asText("unknown (no scrape succeeded)") + ", " +
            server.path("bracket").path("scrapes_in_window").asText("0") + " scrapes in the window");
        for (final String field : new String[] {"running", "waiting", "kv_usage"})
        {
            final JsonNode g = server.path(field);
            if (g.isObject())
            {
                RecordBlock.line(sb, field, String.format(Locale.ROOT, "mean %.3g, max %.3g (%s)",
                    g.path("mean").asDouble(), g.path("max").asDouble(), g.path("source").asText()));
            }
        }
        for (final Iterator<Map.Entry<String, JsonNode>> it = server.path("latency").properties().iterator();
            it.hasNext(); )
        {
            final Map.Entry<String, JsonNode> e = it.next();
            final JsonNode l = e.getValue();
            if (l.has("client_mean_ms"))
            {
                RecordBlock.line(sb, "engine " + e.getKey(), String.format(Locale.ROOT, "mean %.3f ms vs client " +
                    "%.3f ms (%s outside the engine)", l.path("engine_mean_ms").asDouble(),
                    l.path("client_mean_ms").asDouble(), l.path("outside_engine_share").isNumber() ?
                        String.format(Locale.ROOT, "%.1f%%", 100 * l.get("outside_engine_share").asDouble()) : "-"));
            }
        }
    }

    private static void gauge(final StringBuilder sb, final String name, final ServerMetricsSummary.Gauge g,
        final double scale, final String unit)
    {
        if (g != null)
        {
            sb.append(String.format(Locale.ROOT, "  %s mean %.1f%s max %.1f%s", name, g.mean() * scale, unit,
                g.max() * scale, unit));
        }
    }

    private static Double finite(final double v)
    {
        return Double.isFinite(v) ? v : null;
    }
}
