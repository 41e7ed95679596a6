package io.tokenclock.report;

import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.run.RunResult;
import io.tokenclock.run.ShardInfo;

/**
 * The record's {@code shard} section (docs/RESULTS.md): which part of the whole run this shard made, the whole run's
 * hashes it reproduced, its histogram settings, and how it started (the common start, how late it woke, its
 * wall-to-monotonic offset, its host's clock-sync state, and a refusal if it started too late). {@code merge}
 * checks and uses every field of it.
 */
final class ShardSection
{
    private static final ObjectMapper JSON = Json.MAPPER;

    private ShardSection()
    {
    }

    static ObjectNode of(final RunResult r)
    {
        final ShardInfo s = r.shard();
        final ObjectNode n = JSON.createObjectNode();
        n.put("index", s.index());
        n.put("count", s.count());
        n.put("part", s.index() + "/" + s.count());
        final boolean bySession = r.options().load().users() != null || r.sessions() != null;
        n.put("stripe", r.options().load().users() != null ?
            "simulated users u with u mod " + s.count() + " = " + s.index() + ", each with its whole session" :
            r.sessions() != null ? "the trace's sessions k with k mod " + s.count() + " = " + s.index() +
                ", each with its subagents" + concurrency(r) :
            "requests i with i mod " + s.count() + " = " + s.index() + concurrency(r));
        // A session's prompts are built only by the shard that replays it: no shard sees the whole run's workload.
        n.put("global_workload_hash", bySession ? null : r.provenance().hash());
        n.put("global_schedule_hash", r.provenance().scheduleHash());
        n.put("global_requests_built", r.provenance().requests());
        final ObjectNode h = n.putObject("histograms");
        h.put("lowest", 1);
        h.put("highest", MetricRecorders.HIGHEST_TRACKABLE);
        h.put("significant_digits", MetricRecorders.SIGNIFICANT_DIGITS);
        n.put("start_at", s.startAt() == null ? null : s.startAt().toString());
        n.put("start_tolerance_s", s.startToleranceS());
        if (s.startLatenessNs() >= 0)
        {
            n.put("start_lateness_ms", s.startLatenessNs() / 1e6);
        }
        else
        {
            n.putNull("start_lateness_ms");
        }
        n.put("wall_minus_monotonic_ns", s.wallMinusMonotonicNs());
        final ObjectNode sync = n.putObject("clock_sync");
        for (final Map.Entry<String, String> e : s.clockSync().entrySet())
        {
            sync.put(e.getKey(), e.getValue());
        }
        n.put("refused", s.refused());
        return n;
    }

    private static String concurrency(final RunResult r)
    {
        return r.options().closedLoop() ? "; concurrency " + r.options().maxInFlight() + " of " +
            r.options().load().concurrency() : "";
    }
}
