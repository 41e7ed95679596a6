package io.tokenclock.peers;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.record.Dist;
import io.tokenclock.record.ReportSection;

/**
 * GuideLLM {@code benchmarks.json}, current ({@code {metadata, config, benchmarks}}) and older ({@code {args,
 * benchmarks}}): one run per benchmark. Its {@code time_per_output_token_ms} includes TTFT (latency over output
 * tokens); its {@code inter_token_latency_ms} is roughly the others' TPOT; it has no per-gap ITL. Request timings are
 * epoch seconds, {@code request_latency} is in seconds, and its requests may be a sample of those run. Percentiles
 * are nearest rank.
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

    /** @return whether {@code n} is a GuideLLM report: {@code benchmarks} beside its metadata, config or args. */
    static boolean is(final JsonNode n)
    {
        return n.isObject() && n.has("benchmarks") && (n.has("metadata") || n.has("config") || n.has("args"));
    }

    static List<PeerRun> read(final PeerFile f, final JsonNode n)
    {
        final JsonNode benchmarks = n.get("benchmarks");
        if (!benchmarks.isArray() || benchmarks.isEmpty())
        {
            throw f.error("benchmarks", "a non-empty array of benchmarks", benchmarks);
        }
        final String shape = n.has("args") && !n.has("metadata") ? "older {args, benchmarks}" :
            "current {metadata, config, benchmarks}";
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
        final long ok = metrics.path("request_totals").path("successful").asLong(0);
        final Map<String, Dist> reported = new LinkedHashMap<>();
        put(f, reported, "ttft", metrics, "time_to_first_token_ms", at, ok, 1);
        put(f, reported, "tpot", metrics, "inter_token_latency_ms", at, ok, 1);
        put(f, reported, "time_per_output_token", metrics, "time_per_output_token_ms", at, ok, 1);
        put(f, reported, "e2e", metrics, "request_latency", at, ok, 1000);
        final List<String> notes = new ArrayList<>(List.of("time_per_output_token_ms includes TTFT: shown as " +
            "time_per_output_token, not as tpot", "no per-gap inter-token latency in GuideLLM's report"));
        final Samples samples = samples(f, b.path("requests").path("successful"), at + "requests.successful", ok,
            notes);
        final JsonNode strategy = b.path("config").path("strategy").isObject() ? b.path("config").path("strategy") :
            b.path("args").path("strategy");
        final Double start = f.optional(b, "start_time", at + "start_time");
        final String version = root.path("metadata").path("guidellm_version").asText(null);
        final String started = start == null ? null : Instant.ofEpochMilli(Math.round(start * 1000)).toString();
        final Double rate = strategy.path("rate").isNumber() ? (Double)strategy.get("rate").asDouble() : null;
        final PeerRecord.Spec spec = new PeerRecord.Spec("guidellm", version, null, null, started,
            PeerRecord.load(rate, streams(strategy), null, f.optional(b, "duration", at + "duration")),
            PeerRecord.counts(ok, metrics.path("request_totals").path("errored").asLong(0), 0, 0),
            new ReportSection.Throughput(mean(metrics, "requests_per_second"),
                mean(metrics, "output_tokens_per_second"), 0),
            samples == null ? reported : samples.distributions(), samples != null, NEAREST_RANK);
        final Double duration = f.optional(b, "duration", at + "duration");
        return new PeerRun("guidellm", "guidellm benchmarks.json, " + shape, PeerRecord.of(spec, TIMING,
            duration == null ? 0 : duration), reported, DEFINITIONS, notes,
            samples == null ? null : samples.perRequest());
    }

    /** @return the strategy's concurrency ({@code streams}, or {@code max_concurrency}), or null. */
    private static Integer streams(final JsonNode strategy)
    {
        if (strategy.path("streams").isInt())
        {
            return strategy.get("streams").asInt();
        }
        return strategy.path("max_concurrency").isInt() ? (Integer)strategy.get("max_concurrency").asInt() : null;
    }

    private static double mean(final JsonNode metrics, final String name)
    {
        return metrics.path(name).path("successful").path("mean").asDouble(0);
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
        reported.put(key, PeerRecord.summary("ms", count, times(f.optional(s, "mean", p + "mean"), scale),
            times(f.optional(s, "std_dev", p + "std_dev"), scale), times(f.optional(s, "median", p + "median"), scale),
            times(f.optional(pct, "p90", p + "percentiles.p90"), scale),
            times(f.optional(pct, "p95", p + "percentiles.p95"), scale),
            times(f.optional(pct, "p99", p + "percentiles.p99"), scale), times(f.optional(s, "min", p + "min"), scale),
            times(f.optional(s, "max", p + "max"), scale)));
    }

    private static Double times(final Double v, final double scale)
    {
        return v == null ? null : v * scale;
    }

    /** @return the requests' samples (TTFT, latency, first-to-last token span), or null when there are none. */
    private static Samples samples(final PeerFile f, final JsonNode requests, final String at, final long ok,
        final List<String> notes)
    {
        if (!requests.isArray() || requests.isEmpty())
        {
            return null;
        }
        final int n = requests.size();
        if (n < ok)
        {
            notes.add("requests are a sample: " + n + " of " + ok + " successful requests kept in the file");
        }
        final double[] ttft = new double[n];
        final double[] e2e = new double[n];
        final double[] out = new double[n];
        final double[] span = new double[n];
        for (int i = 0; i < n; i++)
        {
            final JsonNode r = requests.get(i);
            final String p = at + "[" + i + "].";
            ttft[i] = f.number(r, "time_to_first_token_ms", p + "time_to_first_token_ms");
            e2e[i] = f.number(r, "request_latency", p + "request_latency") * 1000;
            out[i] = r.path("output_tokens").asDouble(0);
            final Double first = f.optional(r, "first_token_time", p + "first_token_time");
            final Double last = f.optional(r, "last_token_time", p + "last_token_time");
            span[i] = first != null && last != null ? (last - first) * 1000 : e2e[i] - ttft[i];
        }
        return new Samples(ttft, e2e, out, null, span);
    }
}
