package io.tokenclock.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.LoadSection;
import io.tokenclock.results.record.ReportSection;

/**
 * AIPerf {@code profile_export_aiperf.json} (its metrics, each with its {@code unit}, which is authoritative: a
 * figure is converted from it, never assumed) and, when beside it, {@code profile_export.jsonl} (one record per
 * request). Two generations are read: 2025's, which wraps every metric in a {@code records} object and tags TTFT
 * {@code ttft}, its config under {@code input_config.endpoint} and {@code loadgen}; and 2026's (0.8 on, with
 * {@code schema_version}), whose metrics are top-level, TTFT tagged {@code time_to_first_token}, its models under
 * {@code input_config.models.items} and its load in {@code input_config.phases}. AIPerf omits a field rather than
 * writing null, and a failed or cancelled request (code 499) carries an {@code error} and no latency. Its
 * {@code inter_token_latency} is the others' TPOT; its per-gap measure is {@code inter_chunk_latency}. Its
 * {@code start_time} is local time without a zone.
 */
final class Aiperf
{
    static final String FILE = "profile_export_aiperf.json";
    static final String REQUESTS = "profile_export.jsonl";
    static final PeerRecord.Timing TIMING = new PeerRecord.Timing(
        "client-side (AIPerf): from just before the request to the last content response; [DONE] excluded",
        "AIPerf: the first response with parsed content; role-only excluded, reasoning and tool calls count",
        "AIPerf: its client tokenizer over the output text",
        "perf_counter_ns (monotonic); start_time is local time without a zone");
    static final Map<String, String> DEFINITIONS = Map.of(
        "tpot", "AIPerf's inter_token_latency: (request_latency - ttft) / (osl - 1)",
        "inter_chunk_latency", "AIPerf's inter_chunk_latency: every gap between responses",
        "e2e", "AIPerf's request_latency: to the last content response");
    /** AIPerf's metric tags by tokenclock key, each newest name first (2025's records named TTFT {@code ttft}). */
    private static final Map<String, List<String>> TAGS = tags();
    /** The HTTP-like code AIPerf gives a request it cancelled. */
    private static final int CANCELLED = 499;

    private Aiperf()
    {
    }

    private static Map<String, List<String>> tags()
    {
        final Map<String, List<String>> t = new LinkedHashMap<>();
        t.put("ttft", List.of("time_to_first_token", "ttft"));
        t.put("tpot", List.of("inter_token_latency"));
        t.put("inter_chunk_latency", List.of("inter_chunk_latency"));
        t.put("e2e", List.of("request_latency"));
        return t;
    }

    /** @return the object holding the metrics: 2025's {@code records} wrapper, or the file itself. */
    private static JsonNode metrics(final JsonNode n)
    {
        return n.path("records").isObject() ? n.get("records") : n;
    }

    /** @return whether {@code n} is in AIPerf's shape: its request_latency metric, and its config or status. */
    static boolean is(final JsonNode n)
    {
        final JsonNode m = metrics(n);
        return n.isObject() && m.path("request_latency").isObject() && (n.has("input_config") ||
            m.has("benchmark_duration") || n.has("was_cancelled") || n.has("aiperf_version"));
    }

    static List<PeerRun> read(final PeerFile f, final JsonNode n) throws IOException
    {
        final JsonNode m = metrics(n);
        final String p = m == n ? "" : "records.";
        final long count = m.has("request_count") ? Math.round(single(f, m, "request_count", "requests", p)) : 0;
        final long errors = m.path("error_request_count").isNumber() ? f.count(m, "error_request_count",
            p + "error_request_count") : m.has("error_request_count") ? Math.round(single(f, m,
            "error_request_count", "requests", p)) : 0;
        final Map<String, Dist> reported = new LinkedHashMap<>();
        for (final Map.Entry<String, List<String>> e : TAGS.entrySet())
        {
            for (final String tag : e.getValue())
            {
                if (m.has(tag))
                {
                    reported.put(e.getKey(), metric(f, m.get(tag), p + tag, count));
                    break;
                }
            }
        }
        final List<String> notes = new ArrayList<>();
        final Path requests = f.file.resolveSibling(REQUESTS);
        final Samples samples = Files.isRegularFile(requests) ? samples(new PeerFile(requests), reported, notes) :
            null;
        final double duration = m.has("benchmark_duration") ? single(f, m, "benchmark_duration", "s", p) : 0;
        final JsonNode config = n.path("input_config");
        final String started = PeerFile.text(n, "start_time");
        final PeerRecord.Spec spec = new PeerRecord.Spec("aiperf", PeerFile.text(n, "aiperf_version"), model(config),
            config.path("tokenizer").path("name").asText(null), started, load(config, duration),
            PeerRecord.counts(count, errors, total(f, m, p, "total_osl", "total_output_tokens"),
                total(f, m, p, "total_isl", "total_input_tokens")),
            new ReportSection.Throughput(m.has("request_throughput") ? single(f, m, "request_throughput",
                "requests/s", p) : 0, m.has("output_token_throughput") ? single(f, m, "output_token_throughput",
                "tokens/s", p) : 0, 0),
            samples == null ? reported : samples.distributions(), samples != null, PeerRecord.LINEAR);
        notes.add(0, p.isEmpty() ? "metrics at the top level (AIPerf 0.8 on)" : "metrics in its records wrapper " +
            "(AIPerf 2025)");
        if (started != null)
        {
            notes.add(0, "start_time " + started + " is local time without a zone: kept as written, not converted");
        }
        notes.add("units read from each metric's unit field");
        notes.add(samples == null ? "no " + REQUESTS + " beside it: only AIPerf's own figures" :
            REQUESTS + " read: distributions recomputed from its per-request records");
        return List.of(new PeerRun("aiperf", "aiperf " + FILE + (samples == null ? "" : " + " + REQUESTS),
            PeerRecord.of(spec, TIMING, duration), reported, DEFINITIONS, notes,
            samples == null ? null : samples.perRequest()));
    }

    /** @return the model: 2026's {@code models.items[0].name}, or 2025's {@code endpoint.model_names[0]}. */
    private static String model(final JsonNode config)
    {
        final JsonNode items = config.path("models").path("items");
        return items.isArray() && !items.isEmpty() ? items.get(0).path("name").asText(null) :
            config.path("endpoint").path("model_names").path(0).asText(null);
    }

    /** @return the load: 2025's {@code loadgen}, or 2026's profiling phase ({@code input_config.phases}). */
    private static LoadSection load(final JsonNode config, final double duration)
    {
        JsonNode l = config.path("loadgen");
        if (!l.isObject())
        {
            for (final JsonNode phase : config.path("phases"))
            {
                if (!phase.path("exclude_from_results").asBoolean(false))
                {
                    l = phase; // the last phase measured: "profiling"
                }
            }
        }
        final JsonNode rate = l.has("request_rate") ? l.get("request_rate") : l.path("rate");
        final JsonNode planned = l.has("request_count") ? l.get("request_count") : l.path("requests");
        return PeerRecord.load(rate.isNumber() ? (Double)rate.asDouble() : null,
            l.path("concurrency").isInt() ? (Integer)l.get("concurrency").asInt() : null,
            planned.isIntegralNumber() ? (Long)planned.asLong() : null, duration);
    }

    private static long total(final PeerFile f, final JsonNode m, final String p, final String tag,
        final String other)
    {
        final String t = m.has(tag) ? tag : other;
        return m.has(t) ? Math.round(single(f, m, t, "tokens", p)) : 0;
    }

    /** @return one aggregate metric as a distribution in ms; absent figures stay absent. */
    private static Dist metric(final PeerFile f, final JsonNode m, final String tag, final long count)
    {
        if (!m.isObject())
        {
            throw f.error(tag, "a metric: an object with its unit and figures", m);
        }
        final double scale = toMs(f, m.path("unit"), tag + ".unit");
        return PeerRecord.summary("ms", count, scaled(f, m, "avg", tag, scale), scaled(f, m, "std", tag, scale),
            scaled(f, m, "p50", tag, scale), scaled(f, m, "p90", tag, scale), scaled(f, m, "p95", tag, scale),
            scaled(f, m, "p99", tag, scale), scaled(f, m, "min", tag, scale), scaled(f, m, "max", tag, scale));
    }

    private static Double scaled(final PeerFile f, final JsonNode m, final String field, final String tag,
        final double scale)
    {
        final Double v = PeerRecord.summaryTime(f, m, field, tag + ".");
        return v == null ? null : v * scale;
    }

    /** @return the factor from {@code unit} to ms; a unit that is not a time is an error naming the field. */
    static double toMs(final PeerFile f, final JsonNode unit, final String field)
    {
        return switch (unit.isTextual() ? unit.asText() : "")
        {
            case "ns" -> 1e-6;
            case "us" -> 1e-3;
            case "ms" -> 1;
            case "s", "sec" -> 1000;
            default -> throw f.error(field, "a unit of time (ns, us, ms, s, sec)", unit);
        };
    }

    /** @return the {@code avg} of a single-valued metric, checked against the unit it must be in. */
    private static double single(final PeerFile f, final JsonNode n, final String tag, final String unit,
        final String p)
    {
        final JsonNode m = n.path(tag);
        final String u = m.path("unit").asText("");
        final boolean ok = switch (unit)
        {
            case "s" -> u.equals("s") || u.equals("sec");
            case "requests/s" -> u.equals("requests/sec") || u.equals("requests/s");
            case "tokens/s" -> u.equals("tokens/sec") || u.equals("tokens/s");
            default -> u.equals(unit);
        };
        if (!ok)
        {
            throw f.error(p + tag + ".unit", "\"" + unit + "\"", m.path("unit"));
        }
        final double v = f.number(m, "avg", p + tag + ".avg");
        if (v < 0)
        {
            throw f.error(p + tag + ".avg", "a value from 0", m.get("avg"));
        }
        return v;
    }

    /**
     * @return the successful requests of {@code profile_export.jsonl}, read one line at a time, their values converted
     * by their units; a warm-up record, a failed one and a cancelled one (code 499) are counted in a note and left out.
     */
    private static Samples samples(final PeerFile f, final Map<String, Dist> reported, final List<String> notes)
        throws IOException
    {
        final Samples s = new Samples();
        final long[] left = new long[3]; // warm-up, cancelled, failed
        if (!f.eachRoot(r -> record(f, r, s, left)))
        {
            throw new PeerFormatException(f.file, "line 1", "one JSON object per line (AIPerf's records)");
        }
        f.agrees("metrics' TTFT values", "the unit each names", "summary's TTFT",
            reported.containsKey("ttft") ? reported.get("ttft").mean() : null, s.ttftMeanMs());
        notes.add(s.requests() + " successful records recomputed; left out: " + left[1] + " cancelled (code " +
            CANCELLED + "), " + left[2] + " failed, " + left[0] + " warm-up");
        return s;
    }

    private static boolean record(final PeerFile f, final PeerFile.Root r, final Samples s, final long[] left)
    {
        final JsonNode n = r.tree();
        final String at = "line " + r.line() + ": ";
        final JsonNode meta = n.path("metadata");
        final String phase = meta.has("benchmark_phase") ? meta.path("benchmark_phase").asText() :
            meta.path("credit_phase").asText("profiling");
        if (!phase.equals("profiling"))
        {
            left[0]++;
            return true;
        }
        if (n.path("error").isObject())
        {
            left[n.get("error").path("code").asInt() == CANCELLED || meta.path("was_cancelled").asBoolean() ? 1 :
                2]++;
            return true;
        }
        final JsonNode m = n.path("metrics");
        if (!m.isObject())
        {
            throw f.error(at + "metrics", "an object of metrics", m);
        }
        final double ttft = m.has("time_to_first_token") ? one(f, m, "time_to_first_token", at) :
            m.has("ttft") ? one(f, m, "ttft", at) : Double.NaN;
        final double e2e = m.has("request_latency") ? one(f, m, "request_latency", at) : Double.NaN;
        final double out = m.has("output_sequence_length") ? f.count(m.get("output_sequence_length"), "value",
            at + "metrics.output_sequence_length.value") : Double.NaN;
        double span = Double.isNaN(e2e) || Double.isNaN(ttft) ? Double.NaN : f.time(e2e - ttft, 1,
            at + "metrics.request_latency - TTFT");
        final JsonNode icl = m.path("inter_chunk_latency");
        if (icl.isObject())
        {
            final String p = at + "metrics.inter_chunk_latency.value";
            final double scale = toMs(f, icl.path("unit"), at + "metrics.inter_chunk_latency.unit");
            if (!icl.path("value").isArray())
            {
                throw f.error(p, "an array of times", icl.path("value"));
            }
            span = 0;
            for (int i = 0; i < icl.get("value").size(); i++)
            {
                final JsonNode v = icl.get("value").get(i);
                if (!v.isNumber())
                {
                    throw f.error(p + "[" + i + "]", "a number", v);
                }
                final double ms = f.time(v.asDouble(), scale, p + "[" + i + "]");
                s.gap(ms);
                span += ms;
            }
        }
        s.request(ttft, e2e, out, span);
        return true;
    }

    private static double one(final PeerFile f, final JsonNode m, final String tag, final String at)
    {
        final JsonNode v = m.path(tag);
        final String p = at + "metrics." + tag;
        return f.time(f.number(v, "value", p + ".value"), toMs(f, v.path("unit"), p + ".unit"), p + ".value");
    }
}
