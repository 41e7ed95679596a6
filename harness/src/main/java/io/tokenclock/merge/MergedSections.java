package io.tokenclock.merge;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.metrics.Formulas;

/**
 * The merged {@code report.cache}, {@code report.sessions} and {@code report.tasks}: counts and times summed over the
 * shards that had the section, every ratio recomputed from the sums (never an average of the shards' ratios), and
 * what cannot be merged taken out and said so. For example, two shards whose requests reported 600 cached of 1,000
 * and 100 of 1,000 prompt tokens merge to a hit rate of 700 / 2,000 = 0.35, not (0.6 + 0.1) / 2.
 * <p>
 * A section's distributions (turns per session, session e2e, task latency, steps) keep no histogram log, so they are
 * left out. The server's hit rate is the first shard's, like {@code report.server}: every shard scraped the same
 * server.
 */
final class MergedSections
{
    /** Seconds summed over the shards; every other fraction of a number is a setting or a ratio. */
    private static final Set<String> SUMMED_TIMES = Set.of("in_requests_s", "trace_waits_s", "model_time_s",
        "tool_time_s");

    private MergedSections()
    {
    }

    /**
     * Replaces the three sections of {@code report} (the first complete shard's) with the merged ones.
     *
     * @return what was left out, one line each, for {@code merge.not_merged}.
     */
    static List<String> merge(final ObjectNode report, final List<ShardRun> ran, final double unionS)
    {
        final List<String> notMerged = new ArrayList<>();
        final ObjectNode cache = summed(report, ran, "cache");
        if (cache != null)
        {
            ratio(cache, "hit_rate", "cached_tokens", "reporting_input_tokens");
            ratio(cache, "ideal_hit_rate", "ideal_cached_tokens", "ideal_input_tokens");
            ratio(cache, "engine_acceptance_rate", "engine_draft_accepted", "engine_draft_tokens");
            notMerged.add("report.cache.server_hit_rate and report.server: the first shard's scrape of the " +
                "server's /metrics; each shard's ideal counts the blocks its own sessions sent first");
        }
        final ObjectNode sessions = summed(report, ran, "sessions");
        if (sessions != null)
        {
            final double inRequests = sessions.path("in_requests_s").asDouble();
            final double waits = sessions.path("trace_waits_s").asDouble();
            sessions.put("trace_wait_share", inRequests + waits > 0 ? waits / (inRequests + waits) : null);
            notMerged.add(dropped(sessions, "report.sessions", "turns_per_session", "session_e2e"));
        }
        final ObjectNode tasks = summed(report, ran, "tasks");
        if (tasks != null)
        {
            final long n = tasks.path("tasks").asLong();
            tasks.put("success_rate", n > 0 ? tasks.path("succeeded").asDouble() / n : 0);
            tasks.put("tasks_per_s", Formulas.rate(n, unionS));
            notMerged.add(dropped(tasks, "report.tasks", "task_latency", "steps"));
        }
        return notMerged;
    }

    /**
     * @return {@code report.section} replaced by the shards' sections with every count and time summed (text,
     * flags, settings and ratios the first's), or null when no shard had it.
     */
    private static ObjectNode summed(final ObjectNode report, final List<ShardRun> ran, final String section)
    {
        final List<JsonNode> parts = new ArrayList<>();
        ran.forEach(s -> parts.add(s.record().path("report").path(section)));
        parts.removeIf(p -> !p.isObject());
        if (parts.isEmpty())
        {
            return null;
        }
        final ObjectNode merged = parts.get(0).deepCopy();
        final List<String> names = new ArrayList<>();
        merged.fieldNames().forEachRemaining(names::add);
        for (final String name : names)
        {
            final JsonNode first = merged.get(name);
            if (first.isIntegralNumber() || first.isNumber() && SUMMED_TIMES.contains(name))
            {
                double sum = 0;
                for (final JsonNode p : parts)
                {
                    sum += p.path(name).asDouble();
                }
                merged.set(name, first.isIntegralNumber() ? merged.numberNode((long)sum) : merged.numberNode(sum));
            }
        }
        report.set(section, merged);
        return merged;
    }

    private static void ratio(final ObjectNode n, final String field, final String part, final String whole)
    {
        final long w = n.path(whole).asLong();
        n.put(field, w > 0 ? n.path(part).asDouble() / w : null);
    }

    private static String dropped(final ObjectNode n, final String section, final String... fields)
    {
        for (final String f : fields)
        {
            n.remove(f);
        }
        return section + "." + String.join(", ", fields) + ": kept no histogram log; see each shard's record";
    }
}
