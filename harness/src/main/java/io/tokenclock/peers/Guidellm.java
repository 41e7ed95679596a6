package io.tokenclock.peers;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.ReportSection;

/**
 * GuideLLM {@code benchmarks.json}, one run per benchmark, in its three shapes: 0.3's bare {@code {benchmarks}}, each
 * benchmark with its own {@code args} and its {@code request_totals} beside its {@code metrics}; the {@code {args,
 * benchmarks}} of the releases after it; and the current {@code {metadata, config, benchmarks}}, whose
 * {@code request_totals} sits inside {@code metrics}. Its {@code time_per_output_token_ms} includes TTFT (latency over
 * output tokens); its {@code inter_token_latency_ms} is roughly the others' TPOT; it has no per-gap ITL. Request
 * timings are epoch seconds, {@code request_latency} is in seconds, and its requests may be a sample of those run.
 * Percentiles are nearest rank.
 */
final class Guidellm
{
    static final String NEAREST_RANK = "nearest rank over the successful requests";
    static final PeerRecord.Timing TIMING = new PeerRecord.Timing(
        "client-side (GuideLLM): from the request's start to its end (last token received)",
        "GuideLLM: the first streamed token (first_token_time)",
        "GuideLLM: usage from the server when reported, else its own count",
        "time.time (epoch seconds)");
    static final Map<String, String> DEFINITIONS = Map.of(
        "tpot", "GuideLLM's inter_token_latency_ms: (last token - first token) / (output tokens - 1)",
        "time_per_output_token", "GuideLLM's time_per_output_token_ms: request latency / output tokens, TTFT included",
        "e2e", "GuideLLM's request_latency (seconds, converted)");

    private Guidellm()
    {
    }

    /**
     * @return whether {@code n} is a GuideLLM report: {@code benchmarks} beside its metadata, config or args, or (0.3)
     * alone, its first benchmark holding {@code metrics}.
     */
    static boolean is(final JsonNode n)
    {
        return n.isObject() && n.has("benchmarks") && (n.has("metadata") || n.has("config") || n.has("args") ||
            n.get("benchmarks").path(0).path("metrics").isObject());
    }

    static List<PeerRun> read(final PeerFile f, final JsonNode n)
    {
        final JsonNode benchmarks = n.get("benchmarks");
        if (!benchmarks.isArray() || benchmarks.isEmpty())
        {
            throw f.error("benchmarks", "a non-empty array of benchmarks", benchmarks);
        }
        final String shape = n.has("metadata") ? "current {metadata, config, benchmarks}" : n.has("args") ?
            "older {args, benchmarks}" : "0.3 {benchmarks}";
        final List<PeerRun> runs = new ArrayList<>();
        for (int i = 0; i < benchmarks.size(); i++)
        {
            runs.add(one(f, benchmarks.get(i), "benchmarks[" + i + "].", shape, n));
        }
        return runs;
    }

    private static PeerRun one(final PeerFile f, final JsonNode b, final String at, final String shape,
        final JsonNode root)
    {
        final JsonNode metrics = b.path("metrics");
        if (!metrics.isObject())
        {
            throw f.error(at + "metrics", "an object of metrics", metrics);
        }
        // request_totals: inside metrics (current), or beside it (0.3)
        final boolean inside = metrics.path("request_totals").isObject();
        final JsonNode totals = inside ? metrics.get("request_totals") : b.path("request_totals");
        final String totalsAt = at + (inside ? "metrics." : "") + "request_totals.";
        final long ok = totals.has("successful") ? f.count(totals, "successful", totalsAt + "successful") : 0;
        final long errored = totals.has("errored") ? f.count(totals, "errored", totalsAt + "errored") : 0;
        final Map<String, Dist> reported = new LinkedHashMap<>();
        put(f, reported, "ttft", metrics, "time_to_first_token_ms", at, ok, 1);
        put(f, reported, "tpot", metrics, "inter_token_latency_ms", at, ok, 1);
        put(f, reported, "time_per_output_token", metrics, "time_per_output_token_ms", at, ok, 1);
        put(f, reported, "e2e", metrics, "request_latency", at, ok, 1000);
        final List<String> notes = new ArrayList<>(List.of("time_per_output_token_ms includes TTFT: shown as " +
            "time_per_output_token, not as tpot", "no per-gap inter-token latency in GuideLLM's report",
            "request_totals " + (inside ? "inside" : "beside") + " metrics: " + ok + " successful, " + errored +
                " errored"));
        final Samples samples = samples(f, b.path("requests").path("successful"), at + "requests.successful", ok,
            reported, notes);
        final JsonNode strategy = strategy(b);
        final Double start = f.optional(b, "start_time", at + "start_time");
        final String version = root.path("metadata").path("guidellm_version").asText(null);
        final String started = start == null ? null : Instant.ofEpochMilli(Math.round(start * 1000)).toString();
        final Double rate = strategy.path("rate").isNumber() && strategy.get("rate").asDouble() > 0 ?
            (Double)strategy.get("rate").asDouble() : null;
        final Double duration = f.optional(b, "duration", at + "duration");
        final PeerRecord.Spec spec = new PeerRecord.Spec("guidellm", version, null, null, started,
            PeerRecord.load(rate, streams(strategy), null, duration),
            PeerRecord.counts(ok, errored, 0, 0),
            new ReportSection.Throughput(mean(metrics, "requests_per_second"),
                mean(metrics, "output_tokens_per_second"), 0),
            samples == null ? reported : samples.distributions(), samples != null, NEAREST_RANK);
        return new PeerRun("guidellm", "guidellm benchmarks.json, " + shape, PeerRecord.of(spec, TIMING,
            duration == null || duration < 0 ? 0 : duration), reported, DEFINITIONS, notes,
            samples == null ? null : samples.perRequest());
    }

    /** @return the benchmark's strategy: {@code config.strategy} (current), or {@code args.strategy} (older). */
    private static JsonNode strategy(final JsonNode b)
    {
        return b.path("config").path("strategy").isObject() ? b.path("config").path("strategy") :
            b.path("args").path("strategy");
    }

    /** @return the strategy's concurrency ({@code streams}, {@code max_concurrency}, 1 when synchronous), or null. */
    private static Integer streams(final JsonNode strategy)
    {
        if (strategy.path("streams").isInt())
        {
            return strategy.get("streams").asInt();
        }
        if (strategy.path("max_concurrency").isInt())
        {
            return strategy.get("max_concurrency").asInt();
        }
        final String type = strategy.has("type_") ? strategy.path("type_").asText() : strategy.path("kind").asText();
        return type.equals("synchronous") ? (Integer)1 : null;
    }

    private static double mean(final JsonNode metrics, final String name)
    {
        final double v = metrics.path(name).path("successful").path("mean").asDouble(0);
        return Double.isFinite(v) && v > 0 ? v : 0;
    }

    /** Puts one GuideLLM metric's successful-request statistics, times {@code scale} into ms. */
    private static void put(final PeerFile f, final Map<String, Dist> reported, final String key,
        final JsonNode metrics, final String name, final String at, final long count, final double scale)
    {
        final JsonNode s = metrics.path(name).path("successful");
        if (!s.isObject())
        {
            return;
        }
        final String p = at + "metrics." + name + ".successful.";
        final JsonNode pct = s.path("percentiles");
        reported.put(key, PeerRecord.summary("ms", count, times(f, s, "mean", p, scale),
            times(f, s, "std_dev", p, scale), times(f, s, "median", p, scale),
            times(f, pct, "p90", p + "percentiles.", scale), times(f, pct, "p95", p + "percentiles.", scale),
            times(f, pct, "p99", p + "percentiles.", scale), times(f, s, "min", p, scale),
            times(f, s, "max", p, scale)));
    }

    private static Double times(final PeerFile f, final JsonNode n, final String field, final String p,
        final double scale)
    {
        final Double v = PeerRecord.summaryTime(f, n, field, p);
        return v == null ? null : v * scale;
    }

    /**
     * @return the requests' samples (TTFT, latency, first-to-last token span), or null when there are none or they
     * are a sample of the successful ones: a sample's percentiles are not the run's, so GuideLLM's own stay.
     */
    private static Samples samples(final PeerFile f, final JsonNode requests, final String at, final long ok,
        final Map<String, Dist> reported, final List<String> notes)
    {
        if (!requests.isArray() || requests.isEmpty())
        {
            return null;
        }
        final int n = requests.size();
        if (n < ok)
        {
            notes.add("requests are a sample: " + n + " of " + ok + " successful requests kept in the file; " +
                "GuideLLM's own distributions shown, not recomputed");
            return null;
        }
        final Samples s = new Samples();
        for (int i = 0; i < n; i++)
        {
            final JsonNode r = requests.get(i);
            final String p = at + "[" + i + "].";
            final double ttft = f.time(f.number(r, "time_to_first_token_ms", p + "time_to_first_token_ms"), 1,
                p + "time_to_first_token_ms");
            final double e2e = f.time(f.number(r, "request_latency", p + "request_latency"), 1000,
                p + "request_latency");
            final double out = r.has("output_tokens") ? f.count(r, "output_tokens", p + "output_tokens") : Double.NaN;
            final Double first = f.optional(r, "first_token_time", p + "first_token_time");
            final Double last = f.optional(r, "last_token_time", p + "last_token_time");
            final double span = first != null && last != null ? f.time(last - first, 1000, p + "last_token_time - " +
                "first_token_time") : f.time(e2e - ttft, 1, p + "request_latency - time_to_first_token_ms");
            s.request(ttft, e2e, out, span);
        }
        f.agrees(at + "[].time_to_first_token_ms", "ms", "metrics.time_to_first_token_ms",
            reported.containsKey("ttft") ? reported.get("ttft").mean() : null, s.ttftMeanMs());
        notes.add(n + " successful requests recomputed from requests.successful");
        return s;
    }
}
