package io.tokenclock.merge;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.report.RecordWriter;

/**
 * The merged {@code record.json}: a run's record, built on the record of the first shard that ran to the end (its
 * contract sections are every shard's, which {@link ShardChecks} made sure of), with:
 * <ul>
 * <li>{@code report.window} the union of the shards' windows, on the wall clock (ns since the epoch);</li>
 * <li>{@code report.counts}, {@code errors_by_class} and {@code goodput} counts summed; every rate
 * ({@code *_per_s}) recomputed over the union window from the summed count it is a rate of; fractions from the
 * summed counts;</li>
 * <li>{@code report.distributions} from the added histograms;</li>
 * <li>{@code report.cache}, {@code sessions} and {@code tasks} summed, their ratios recomputed
 * ({@link MergedSections});</li>
 * <li>{@code load.max_in_flight} summed; the {@code shard} section replaced by {@code merge}: the shards, which are
 * missing, failed or late, and each shard's own summary.</li>
 * </ul>
 * Per-segment figures are not merged (segments keep no histogram log of their own) and are left out, said so in
 * {@code merge.not_merged}.
 */
final class MergedRecord
{
    private static final ObjectMapper JSON = Json.MAPPER;

    private MergedRecord()
    {
    }

    static ObjectNode build(
        final Path out, final List<ShardRun> shards, final List<ShardRun> ran, final List<ShardRun> complete,
        final Map<Metric, Distribution> distributions, final List<String> incomplete)
    {
        final ShardRun base = complete.isEmpty() ? ran.get(0) : complete.get(0);
        final ObjectNode record = ((ObjectNode)base.record()).deepCopy();
        record.put("kind", "merged");
        record.put("run_id", out.getFileName().toString());
        record.put("partial", !incomplete.isEmpty());
        record.put("partial_reason", incomplete.isEmpty() ? null : "incomplete merge: " + String.join("; ",
            incomplete));
        final double unionS = (endWallNs(ran) - startWallNs(ran)) / 1e9;
        final ObjectNode report = (ObjectNode)record.get("report");
        final ObjectNode window = report.putObject("window");
        window.put("start_ns", startWallNs(ran));
        window.put("end_ns", endWallNs(ran));
        window.put("duration_s", unionS);
        window.put("wall_s", ran.stream().mapToDouble(s -> s.record().path("report").path("window").path("wall_s")
            .asDouble()).max().orElse(0));
        window.put("axis", "wall clock, ns since the epoch: each shard's stamps plus its wall_minus_monotonic_ns");
        for (final String section : List.of("counts", "errors_by_class", "throughput", "goodput"))
        {
            final List<JsonNode> parts = new ArrayList<>();
            ran.forEach(s -> parts.add(s.record().path("report").path(section)));
            if (report.get(section) instanceof ObjectNode)
            {
                report.set(section, combine(parts, ran, unionS));
            }
        }
        final JsonNode goodput = report.get("goodput");
        if (goodput instanceof ObjectNode g && g.path("attempted").asLong() > 0)
        {
            g.put("good_fraction", g.path("good").asDouble() / g.path("attempted").asDouble());
        }
        RecordWriter.putDistributions(report, distributions, record);
        final List<String> sectionsNotMerged = MergedSections.merge(report, ran, unionS);
        report.remove("segments");
        final JsonNode load = record.get("load");
        if (load instanceof ObjectNode l)
        {
            l.put("max_in_flight", ran.stream().mapToLong(s -> s.record().path("load").path("max_in_flight")
                .asLong()).sum());
        }
        record.remove("shard");
        record.set("merge", merge(shards, ran, incomplete, sectionsNotMerged));
        return record;
    }

    /** @return the earliest start of a shard's window on the wall clock, ns. */
    static long startWallNs(final List<ShardRun> ran)
    {
        return ran.stream().mapToLong(ShardRun::windowStartWallNs).min().orElse(0);
    }

    /** @return the latest end of a shard's window on the wall clock, ns. */
    static long endWallNs(final List<ShardRun> ran)
    {
        return ran.stream().mapToLong(ShardRun::windowEndWallNs).max().orElse(0);
    }

    /**
     * @return the shards' {@code parts} combined: integers summed, each rate {@code *_per_s} the sum of what it
     * counted over its shard's window divided by the union window, objects combined member by member, anything else
     * (text, flags) the first part's.
     */
    static JsonNode combine(final List<JsonNode> parts, final List<ShardRun> ran, final double unionS)
    {
        final JsonNode first = parts.get(0);
        if (first.isObject())
        {
            final ObjectNode n = JSON.createObjectNode();
            final List<String> names = new ArrayList<>();
            parts.forEach(p -> p.fieldNames().forEachRemaining(f ->
            {
                if (!names.contains(f))
                {
                    names.add(f);
                }
            }));
            for (final String name : names)
            {
                final List<JsonNode> members = new ArrayList<>();
                parts.forEach(p -> members.add(p.path(name)));
                n.set(name, name.endsWith("_per_s") ? rate(members, ran, unionS) : combine(members, ran, unionS));
            }
            return n;
        }
        if (first.isIntegralNumber() || first.isMissingNode())
        {
            long sum = 0;
            boolean any = false;
            for (final JsonNode p : parts)
            {
                if (p.isIntegralNumber())
                {
                    sum += p.asLong();
                    any = true;
                }
            }
            return any ? JSON.getNodeFactory().numberNode(sum) : orNull(first);
        }
        return first;
    }

    private static JsonNode orNull(final JsonNode n)
    {
        return n.isMissingNode() ? JSON.getNodeFactory().nullNode() : n.deepCopy();
    }

    private static JsonNode rate(final List<JsonNode> members, final List<ShardRun> ran, final double unionS)
    {
        double counted = 0;
        for (int k = 0; k < members.size(); k++)
        {
            if (!members.get(k).isNumber())
            {
                return orNull(members.get(0));
            }
            counted += members.get(k).asDouble() * ran.get(k).windowSeconds();
        }
        return JSON.getNodeFactory().numberNode(unionS > 0 ? counted / unionS : 0.0);
    }

    /** @return the {@code merge} section: the shards, what is missing, and each shard's own summary. */
    private static ObjectNode merge(final List<ShardRun> shards, final List<ShardRun> ran,
        final List<String> incomplete, final List<String> sectionsNotMerged)
    {
        final ObjectNode m = JSON.createObjectNode();
        m.put("shards", shards.get(0).count());
        m.put("merged", ran.size());
        m.put("incomplete", !incomplete.isEmpty());
        final ArrayNode missing = m.putArray("incomplete_shards");
        incomplete.forEach(missing::add);
        m.put("histograms", "added bucket by bucket from each shard's .hlog files; never percentiles averaged");
        m.put("rates", "recomputed over the union of the shards' windows, from the summed counts");
        final ArrayNode notMerged = m.putArray("not_merged");
        notMerged.add("report.segments: segments keep no histogram log of their own; see each shard's record");
        notMerged.add("measurement.client_* and hardware.client: the first shard's; every shard's is in its record");
        sectionsNotMerged.forEach(notMerged::add);
        final ArrayNode members = m.putArray("members");
        for (final ShardRun s : shards)
        {
            members.add(summary(s));
        }
        return m;
    }

    private static ObjectNode summary(final ShardRun s)
    {
        final ObjectNode n = JSON.createObjectNode();
        n.put("part", s.index() + "/" + s.count());
        n.put("path", s.dir().toString());
        n.put("run_id", s.record().path("run_id").asText());
        n.put("status", !s.ran() ? "late" : s.partialReason() != null ? "failed" : "complete");
        n.put("reason", !s.ran() ? s.refused() : s.partialReason());
        n.put("host", s.record().path("hardware").path("client").path("hostname").asText(null));
        final JsonNode shard = s.shard();
        for (final String field : List.of("start_at", "start_lateness_ms", "wall_minus_monotonic_ns",
            "global_workload_hash", "clock_sync"))
        {
            n.set(field, orNull(shard.path(field)));
        }
        final JsonNode report = s.record().path("report");
        final Iterator<String> keep = List.of("window", "counts", "throughput", "goodput", "cache", "sessions",
            "tasks").iterator();
        while (keep.hasNext())
        {
            final String field = keep.next();
            n.set(field, orNull(report.path(field)));
        }
        final ObjectNode percentiles = n.putObject("percentiles");
        report.path("distributions").properties().forEach(e -> percentiles.putObject(e.getKey())
            .put("count", e.getValue().path("count").asLong()).set("p50", e.getValue().path("p50")));
        percentiles.properties().forEach(e -> ((ObjectNode)e.getValue())
            .set("p99", report.path("distributions").path(e.getKey()).path("p99")));
        return n;
    }
}
