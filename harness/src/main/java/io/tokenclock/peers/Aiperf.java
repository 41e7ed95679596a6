package io.tokenclock.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.record.Dist;
import io.tokenclock.record.ReportSection;

/**
 * AIPerf {@code profile_export_aiperf.json} (one object of metrics, each with its {@code unit}, which is authoritative:
 * a figure is converted from it, never assumed) and, when beside it, {@code profile_export.jsonl} (one record per
 * request). AIPerf omits a field rather than writing null. Its {@code inter_token_latency} is the others' TPOT; its
 * per-gap measure is {@code inter_chunk_latency}. Its {@code start_time} is local time without a zone.
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
    /** AIPerf's metric tags, by tokenclock key. */
    private static final Map<String, String> TAGS = Map.of("ttft", "time_to_first_token", "tpot",
        "inter_token_latency", "inter_chunk_latency", "inter_chunk_latency", "e2e", "request_latency");

    private Aiperf()
    {
    }

    /** @return whether {@code n} is in AIPerf's shape: metric objects with a unit, and its config or status. */
    static boolean is(final JsonNode n)
    {
        return n.isObject() && n.path("request_latency").has("unit") && (n.has("input_config") ||
            n.has("benchmark_duration") || n.has("was_cancelled"));
    }

    static List<PeerRun> read(final PeerFile f, final JsonNode n) throws IOException
    {
        final Map<String, Dist> reported = new LinkedHashMap<>();
        final long count = n.has("request_count") ? Math.round(value(f, n, "request_count", "requests")) : 0;
        for (final Map.Entry<String, String> e : TAGS.entrySet())
        {
            if (n.has(e.getValue()))
            {
                reported.put(e.getKey(), metric(f, n.get(e.getValue()), e.getValue(), count));
            }
        }
        final Path requests = f.file.resolveSibling(REQUESTS);
        final Samples samples = Files.isRegularFile(requests) ? samples(new PeerFile(requests)) : null;
        final double duration = n.has("benchmark_duration") ? value(f, n, "benchmark_duration", "s") : 0;
        final JsonNode loadgen = n.path("input_config").path("loadgen");
        final JsonNode endpoint = n.path("input_config").path("endpoint");
        final Double rate = loadgen.path("request_rate").isNumber() ? (Double)loadgen.get("request_rate").asDouble() :
            null;
        final Integer concurrency = loadgen.path("concurrency").isInt() ? (Integer)loadgen.get("concurrency").asInt() :
            null;
        final Long planned = loadgen.path("request_count").isNumber() ? (Long)loadgen.get("request_count").asLong() :
            null;
        final PeerRecord.Spec spec = new PeerRecord.Spec("aiperf", PeerFile.text(n, "aiperf_version"),
            endpoint.path("model_names").path(0).asText(null), null, PeerFile.text(n, "start_time"),
            PeerRecord.load(rate, concurrency, planned, duration),
            PeerRecord.counts(count, n.path("error_request_count").asLong(0),
                n.has("total_osl") ? Math.round(value(f, n, "total_osl", "tokens")) : 0,
                n.has("total_isl") ? Math.round(value(f, n, "total_isl", "tokens")) : 0),
            new ReportSection.Throughput(n.has("request_throughput") ? value(f, n, "request_throughput",
                "requests/s") : 0, n.has("output_token_throughput") ? value(f, n, "output_token_throughput",
                "tokens/s") : 0, 0),
            samples == null ? reported : samples.distributions(), samples != null, PeerRecord.LINEAR);
        final List<String> notes = new ArrayList<>(List.of("start_time " + PeerFile.text(n, "start_time") +
            " is local time without a zone: kept as written, not converted",
            "units read from each metric's unit field"));
        notes.add(samples == null ? "no " + REQUESTS + " beside it: only AIPerf's own figures" :
            REQUESTS + " read: distributions recomputed from its per-request records");
        return List.of(new PeerRun("aiperf", "aiperf " + FILE + (samples == null ? "" : " + " + REQUESTS),
            PeerRecord.of(spec, TIMING, duration), reported, DEFINITIONS, notes,
            samples == null ? null : samples.perRequest()));
    }

    /** @return one aggregate metric as a distribution in ms; absent figures stay absent. */
    private static Dist metric(final PeerFile f, final JsonNode m, final String tag, final long count)
    {
        final double scale = toMs(f, m.path("unit"), tag + ".unit");
        return PeerRecord.summary("ms", count, scaled(f, m, "avg", tag, scale), scaled(f, m, "std", tag, scale),
            scaled(f, m, "p50", tag, scale), scaled(f, m, "p90", tag, scale), scaled(f, m, "p95", tag, scale),
            scaled(f, m, "p99", tag, scale), scaled(f, m, "min", tag, scale), scaled(f, m, "max", tag, scale));
    }

    private static Double scaled(final PeerFile f, final JsonNode m, final String field, final String tag,
        final double scale)
    {
        final Double v = f.optional(m, field, tag + "." + field);
        return v == null ? null : v * scale;
    }

    /** @return the factor from {@code unit} to ms; a unit that is not a time is an error naming the field. */
    static double toMs(final PeerFile f, final JsonNode unit, final String field)
    {
        return switch (unit.asText(""))
        {
            case "ns" -> 1e-6;
            case "us" -> 1e-3;
            case "ms" -> 1;
            case "s", "sec" -> 1000;
            default -> throw f.error(field, "a unit of time (ns, us, ms, s, sec)", unit);
        };
    }

    /** @return the {@code avg} of a single-valued metric, checked against the unit it must be in. */
    private static double value(final PeerFile f, final JsonNode n, final String tag, final String unit)
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
            throw f.error(tag + ".unit", "\"" + unit + "\"", m.path("unit"));
        }
        return f.number(m, "avg", tag + ".avg");
    }

    /** @return the successful requests of {@code profile_export.jsonl}, their values converted by their units. */
    private static Samples samples(final PeerFile f) throws IOException
    {
        final List<JsonNode> lines = f.lines();
        if (lines == null)
        {
            throw new PeerFormatException(f.file, "(line)", "one JSON object per line");
        }
        final List<Double> ttft = new ArrayList<>();
        final List<Double> e2e = new ArrayList<>();
        final List<Double> out = new ArrayList<>();
        final List<double[]> gaps = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final JsonNode r = lines.get(i);
            final JsonNode m = r.path("metrics");
            if (!r.path("error").isNull() && !r.path("error").isMissingNode() || !m.has("time_to_first_token"))
            {
                continue; // failed or cancelled: no latency metrics
            }
            final String at = "line " + (i + 1) + ": metrics.";
            ttft.add(one(f, m, "time_to_first_token", at));
            e2e.add(one(f, m, "request_latency", at));
            out.add(m.path("output_sequence_length").path("value").asDouble(0));
            final JsonNode icl = m.path("inter_chunk_latency");
            gaps.add(icl.isMissingNode() ? new double[0] : f.numbers(icl, "value", at + "inter_chunk_latency.value",
                toMs(f, icl.path("unit"), at + "inter_chunk_latency.unit")));
        }
        return new Samples(ttft.stream().mapToDouble(Double::doubleValue).toArray(),
            e2e.stream().mapToDouble(Double::doubleValue).toArray(),
            out.stream().mapToDouble(Double::doubleValue).toArray(), gaps, null);
    }

    private static double one(final PeerFile f, final JsonNode m, final String tag, final String at)
    {
        final JsonNode v = m.path(tag);
        return f.number(v, "value", at + tag + ".value") * toMs(f, v.path("unit"), at + tag + ".unit");
    }
}
