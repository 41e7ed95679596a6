package io.tokenclock.merge;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What {@code merge} refuses: shards that are not parts of one run. Each refusal is one line naming the two shards
 * and what differs: the shard count, the seed, the contract (the record's model, workload and load sections and the
 * declared contract, less what differs by design between shards), the histogram settings, or a shard given twice.
 */
final class ShardChecks
{
    /** Differs between the shards of one run by design: each shard's part and its own progress. */
    private static final Set<String> PER_SHARD_WORKLOAD = Set.of("hash", "hash_requests", "prompt_token_residuals");
    private static final Set<String> PER_SHARD_LOAD = Set.of("max_in_flight", "schedule_hash", "cache_action");

    private ShardChecks()
    {
    }

    /** @throws IllegalArgumentException (one line) for the first pair of shards that are not parts of one run. */
    static void check(final List<ShardRun> shards)
    {
        final ShardRun first = shards.get(0);
        final boolean[] seen = new boolean[Math.max(1, first.count())];
        for (final ShardRun s : shards)
        {
            same(first, s, "shard counts", first.count(), s.count());
            if (s.index() < 0 || s.index() >= first.count() || seen[s.index()])
            {
                throw new IllegalArgumentException(s.name() + ": index " + s.index() + " given twice or out of range " +
                    "0.." + (first.count() - 1));
            }
            seen[s.index()] = true;
            same(first, s, "seeds", first.record().path("workload").path("seed").asText(),
                s.record().path("workload").path("seed").asText());
            same(first, s, "histogram settings", first.shard().path("histograms").toString(),
                s.shard().path("histograms").toString());
            for (final String section : List.of("model", "workload", "load"))
            {
                final String at = difference(section, contractPart(first, section), contractPart(s, section));
                if (at != null)
                {
                    throw new IllegalArgumentException(s.name() + " is not part of the same run as " + first.name() +
                        ": their contracts differ at " + at);
                }
            }
            final String declared = difference("contract.declared", first.record().path("contract").path("declared"),
                s.record().path("contract").path("declared"));
            if (declared != null)
            {
                throw new IllegalArgumentException(s.name() + " is not part of the same run as " + first.name() +
                    ": their contracts differ at " + declared);
            }
        }
    }

    /**
     * @throws IllegalArgumentException when shards that ran to the end disagree on the whole run's workload or
     * schedule hash: each regenerates the single-process run's, so they must be equal.
     */
    static void sameHashes(final List<ShardRun> complete)
    {
        for (final String field : List.of("global_workload_hash", "global_schedule_hash"))
        {
            for (final ShardRun s : complete)
            {
                same(complete.get(0), s, field.replace('_', ' ') + "es",
                    complete.get(0).shard().path(field).asText(null), s.shard().path(field).asText(null));
            }
        }
    }

    private static void same(final ShardRun a, final ShardRun b, final String what, final Object x, final Object y)
    {
        if (!Objects.equals(x, y))
        {
            throw new IllegalArgumentException("refusing to merge: " + what + " differ: " + a.name() + " has " + x +
                ", " + b.name() + " has " + y);
        }
    }

    private static JsonNode contractPart(final ShardRun s, final String section)
    {
        final JsonNode n = s.record().path(section);
        if (!n.isObject())
        {
            return n;
        }
        final ObjectNode copy = ((ObjectNode)n).deepCopy();
        copy.remove(section.equals("workload") ? PER_SHARD_WORKLOAD : section.equals("load") ? PER_SHARD_LOAD :
            Set.of());
        return copy;
    }

    /** @return the path of the first difference between {@code a} and {@code b} with both values, or null. */
    static String difference(final String path, final JsonNode a, final JsonNode b)
    {
        if (a.equals(b))
        {
            return null;
        }
        if (a.isObject() && b.isObject())
        {
            final Iterator<Map.Entry<String, JsonNode>> it = a.properties().iterator();
            while (it.hasNext())
            {
                final Map.Entry<String, JsonNode> e = it.next();
                final String d = difference(path + "." + e.getKey(), e.getValue(), b.path(e.getKey()));
                if (d != null)
                {
                    return d;
                }
            }
            final Iterator<String> names = b.fieldNames();
            while (names.hasNext())
            {
                final String name = names.next();
                if (!a.has(name))
                {
                    return path + "." + name + " (missing vs " + b.get(name) + ")";
                }
            }
        }
        return path + " (" + a + " vs " + b + ")";
    }
}
