package io.tokenclock.export;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import io.tokenclock.json.Json;
import io.tokenclock.metrics.Metric;
import io.tokenclock.results.record.RunRecord;
import io.tokenclock.report.HistogramLogs;
import io.tokenclock.results.Imported;
import io.tokenclock.results.Kind;
import io.tokenclock.results.Merged;
import io.tokenclock.results.Result;

/**
 * llm-d's Benchmark Report, version {@value #VERSION} (llm-d/llm-d-benchmark,
 * {@code llmdbenchmark/analysis/benchmark_report/br_v0_2_1_json_schema.json}): one report per run of a result, since
 * a report describes one benchmark. A sweep gives one per point ({@code scenario.load.standardized.stage} its index),
 * repetitions and an A/B one per run, all sharing {@code run.eid} (the result directory's name), as the stages of one
 * llm-d experiment do; a merged run gives one, its shards the load's {@code parallelism}; a peer's file one per result
 * it holds.
 * <p>
 * Every figure is one the record or the run's own files hold, in the schema's units (latencies in ms, per-token
 * latencies in ms/token, lengths in counts, rates in tokens/s and queries/s); what the schema has no slot for stays
 * in tokenclock's files (docs/RESULTS.md, "llm-d Benchmark Report").
 */
public final class LlmdReport
{
    /** The last instant a date-time of four-digit years holds, 9999-12-31T23:59:59.999Z, as epoch ms. */
    private static final long LAST_DATE_TIME_MS = 253_402_300_799_999L;
    /** The schema version written in every report. */
    public static final String VERSION = "0.2.1";

    /** The metrics whose histograms fill the report's statistics. */
    private static final List<Metric> METRICS = List.of(Metric.TTFT, Metric.TPOT, Metric.TOKEN_ITL,
        Metric.INTER_CHUNK_LATENCY, Metric.E2E, Metric.INPUT_TOKENS, Metric.OUTPUT_TOKENS);

    /**
     * One report.
     *
     * @param role   the run's role in its result ({@code run}, {@code point 3}, {@code vllm line 2} ...).
     * @param report the Benchmark Report.
     */
    public record Report(String role, ObjectNode report)
    {
    }

    private LlmdReport()
    {
    }

    /**
     * @return the reports of {@code result}, one per run, in its order.
     * @throws IllegalArgumentException when a file of a run is not what it claims (one line naming it).
     */
    public static List<Report> of(final Result result) throws IOException
    {
        final List<Result.Run> runs = result.runs();
        final String eid = runs.size() > 1 ? result.path().toAbsolutePath().normalize().getFileName().toString() :
            null;
        final int generators = result instanceof Merged m ? m.index().members().size() : 1;
        final List<Report> reports = new ArrayList<>();
        final Set<String> uids = new HashSet<>();
        for (int i = 0; i < runs.size(); i++)
        {
            final Result.Run run = runs.get(i);
            final String peer = result instanceof Imported imported ? imported.peers().get(i).tool() : null;
            final int stage = result.kind() == Kind.SWEEP ? i : 0;
            final String uid = unique(uids, uid(run, result), i);
            reports.add(new Report(run.role(), report(run, peer, uid, eid, stage, generators)));
        }
        return reports;
    }

    private static ObjectNode report(final Result.Run run, final String peer, final String uid, final String eid,
        final int stage, final int generators) throws IOException
    {
        final RunRecord r = run.record();
        final boolean dir = Files.isDirectory(run.dir());
        final Map<Metric, Histogram> histograms = dir ? histograms(run.dir()) : Map.of();
        final LlmdResults.RunData data = new LlmdResults.RunData(r, histograms,
            dir ? PerRequest.read(run.dir()) : null);
        final ObjectNode report = Json.MAPPER.createObjectNode().put("version", VERSION);
        report.set("run", run(r, uid, eid, run.role(), histograms));
        final ObjectNode scenario = report.putObject("scenario");
        final ArrayNode stack = LlmdStack.of(r);
        if (!stack.isEmpty())
        {
            scenario.set("stack", stack);
        }
        scenario.set("load", LlmdLoad.of(r, peer, stage, generators));
        report.set("results", LlmdResults.of(data, stack.isEmpty() ? null : LlmdStack.label(LlmdStack.tool(r))));
        return report;
    }

    /**
     * {@code run}: the ids, the client's host as the pod ({@code pid}; under Kubernetes its hostname is the pod's
     * name), the measurement window on the wall clock (from the {@code .hlog} files' stamps; without them, the run's
     * start and the window's length), and the description llm-d's consumers show: the model and the run.
     */
    private static ObjectNode run(final RunRecord r, final String uid, final String eid, final String role,
        final Map<Metric, Histogram> histograms)
    {
        final ObjectNode run = Json.MAPPER.createObjectNode().put("uid", uid);
        if (eid != null)
        {
            run.put("eid", eid);
        }
        final String host = r.hardware() == null || r.hardware().client() == null ? null :
            LlmdStack.text(r.hardware().client().path("hostname"));
        if (host != null)
        {
            run.put("pid", host);
        }
        final ObjectNode time = time(r, histograms);
        if (!time.isEmpty())
        {
            run.set("time", time);
        }
        final String model = r.model() == null || r.model().name() == null ? "unknown model" : r.model().name();
        return run.put("description", model + " [" + (eid != null ? eid + ": " + role : uid) + "]");
    }

    private static ObjectNode time(final RunRecord r, final Map<Metric, Histogram> histograms)
    {
        final ObjectNode time = Json.MAPPER.createObjectNode();
        final Histogram stamped = histograms.values().stream().filter(h -> h.getStartTimeStamp() > 0 &&
            h.getEndTimeStamp() >= h.getStartTimeStamp() && h.getEndTimeStamp() <= LAST_DATE_TIME_MS).findFirst()
            .orElse(null);
        if (stamped != null)
        {
            final Instant start = Instant.ofEpochMilli(stamped.getStartTimeStamp());
            final Instant end = Instant.ofEpochMilli(stamped.getEndTimeStamp());
            return time.put("start", start.toString()).put("end", end.toString())
                .put("duration", Duration.between(start, end).toString());
        }
        final Instant start = instant(r.startedAt());
        if (start != null)
        {
            time.put("start", start.toString());
        }
        final double windowS = r.report() == null || r.report().window() == null ? 0 :
            r.report().window().durationS();
        if (windowS > 0 && Double.isFinite(windowS))
        {
            time.put("duration", Duration.ofNanos(Math.round(windowS * 1e9)).toString());
        }
        return time;
    }

    /**
     * @return {@code text} as an instant, or null when it is no ISO-8601 date-time (a peer's own date format) or one
     * the schema's {@code date-time} cannot hold (RFC 3339 has four-digit years; a damaged peer file's start time can
     * be year 292278994): the report then states no start rather than an invalid one.
     */
    private static Instant instant(final String text)
    {
        if (text == null)
        {
            return null;
        }
        try
        {
            final Instant at = OffsetDateTime.parse(text).toInstant();
            return at.toEpochMilli() >= 0 && at.toEpochMilli() <= LAST_DATE_TIME_MS ? at : null;
        }
        catch (final DateTimeParseException | ArithmeticException ex)
        {
            return null;
        }
    }

    private static Map<Metric, Histogram> histograms(final Path dir) throws IOException
    {
        final Map<Metric, Histogram> histograms = new EnumMap<>(Metric.class);
        for (final Metric m : METRICS)
        {
            final Histogram h;
            try
            {
                h = HistogramLogs.read(dir, m);
            }
            catch (final RuntimeException ex)
            {
                throw new IllegalArgumentException(HistogramLogs.file(dir, m) + ": not a histogram log: " +
                    ex.getMessage(), ex);
            }
            if (h != null)
            {
                histograms.put(m, h);
            }
        }
        return histograms;
    }

    private static String uid(final Result.Run run, final Result result)
    {
        final String id = run.record().runId();
        if (id != null && !id.isBlank())
        {
            return id;
        }
        final String file = result.path().getFileName().toString();
        return result.runs().size() > 1 ? file + " " + run.role() : file;
    }

    /** @return {@code uid}, or it with the run's index when an earlier run of the result took it. */
    private static String unique(final Set<String> taken, final String uid, final int index)
    {
        final String u = taken.contains(uid) ? uid + " #" + (index + 1) : uid;
        taken.add(u);
        return u;
    }

    /** @return a configuration's id: the first 32 hex digits of the SHA-256 of its JSON with sorted keys. */
    static String cfgId(final JsonNode config)
    {
        try
        {
            final byte[] canonical = Json.MAPPER.writer().with(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .writeValueAsBytes(Json.MAPPER.treeToValue(config, Object.class));
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical)).substring(0, 32);
        }
        catch (final JsonProcessingException | NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("cannot hash a configuration: " + ex.getMessage(), ex);
        }
    }
}
