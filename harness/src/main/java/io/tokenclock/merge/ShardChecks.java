package io.tokenclock.merge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.results.RequestsFile;

/**
 * What {@code merge} refuses: shards that are not parts of one run, or whose files cannot be trusted. Each refusal is
 * one line naming the shard (and the other shard, for a difference) and what is wrong: the shard count, the seed, the
 * contract (the record's model, workload and load sections and the declared contract, less what differs by design
 * between shards), the histogram settings, the formulas version, a shard given twice; a {@code requests.jsonl} that is
 * not of its record ({@link RequestsFile}); a clock offset that puts the window where the run cannot have measured it
 * ({@link #plausibleClocks}). docs/DISTRIBUTED.md, "Merge".
 */
final class ShardChecks
{
    /** Differs between the shards of one run by design: each shard's part and its own progress. */
    private static final Set<String> PER_SHARD_WORKLOAD = Set.of("hash", "hash_requests", "prompt_token_residuals");
    private static final Set<String> PER_SHARD_LOAD = Set.of("max_in_flight", "schedule_hash", "cache_action");

    /** The window of a run of this tool lies in these years, 2020 to 2100 (ns since the epoch). */
    private static final long EARLIEST_WALL_NS = 1_577_836_800_000_000_000L;
    private static final long LATEST_WALL_NS = 4_102_444_800_000_000_000L;
    /** What two readings of one wall clock may differ by: a step of the clock between them, rounding. */
    private static final long SLACK_NS = 1_000_000_000L;
    /** The longest preparation after {@code started_at} and before the wiring the bounds allow: 10 min. */
    private static final long PREPARATION_NS = 600_000_000_000L;

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
            // the figures of two formulas versions are not the same quantities: their histograms do not add
            same(first, s, "formulas versions", first.formulasVersion(), s.formulasVersion());
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

    /**
     * Refuses a shard whose clock offset ({@code shard.wall_minus_monotonic_ns}) is implausible: its window, put on
     * the wall clock with it, is where the run cannot have measured it. The bounds come from two readings of the wall
     * clock that do not go through the offset, the run's start ({@code started_at}) and the common start
     * ({@code shard.start_at}), and from the run's own wall time ({@code report.window.wall_s}, counted from the
     * wiring, after {@code started_at} and before the wait for the common start):
     * <ul>
     * <li>the window lies within the years 2020 to 2100 (an offset of 0, or one lost, puts it in 1970);</li>
     * <li>it starts no earlier than {@link #SLACK_NS} before {@code started_at}, nor before {@code start_at}:
     * nothing is sent before either;</li>
     * <li>it ends no later than {@code started_at} + {@code wall_s} + {@link #PREPARATION_NS} (the preparation left
     * after {@code started_at}: pre-opened connections, the last drain; seconds, bounded at 10 min here);</li>
     * <li>with a common start, it ends no later than {@code start_at} + {@code start_tolerance_s} + {@code wall_s} +
     * {@link #SLACK_NS} (a shard later than the tolerance refuses to run).</li>
     * </ul>
     * Example: a shard that started at 12:00:00 and ran 40 s, whose offset puts its window at 13:00:05, is refused:
     * its merged requests and the union window would be an hour off. A shard whose window is not known (the record
     * written when the window opened) is not checked.
     *
     * @throws IllegalArgumentException (one line) for the first shard whose offset is implausible.
     */
    static void plausibleClocks(final List<ShardRun> ran)
    {
        for (final ShardRun s : ran)
        {
            if (s.record().path("report").path("window").path("start_ns").asLong() <= 0)
            {
                continue;
            }
            final String why = implausibleWindow(s, s.windowStartWallNs(),
                s.record().path("report").path("window").path("end_ns").asLong() > 0 ? s.windowEndWallNs() :
                    s.windowStartWallNs());
            if (why != null)
            {
                throw new IllegalArgumentException("refusing to merge: " + s.name() + " has an implausible clock " +
                    "offset: wall_minus_monotonic_ns " + s.wallMinusMonotonicNs() + " puts its window at " +
                    instant(s.windowStartWallNs()) + ", " + why + " (docs/DISTRIBUTED.md, \"Merge\")");
            }
        }
    }

    /** @return why a window from {@code startNs} to {@code endNs} on the wall clock cannot be the shard's, or null. */
    private static String implausibleWindow(final ShardRun s, final long startNs, final long endNs)
    {
        if (startNs < EARLIEST_WALL_NS || endNs > LATEST_WALL_NS)
        {
            return "outside the years 2020 to 2100";
        }
        final long startedNs = epochNs(s.record().path("started_at").asText(null));
        final double wallS = s.record().path("report").path("window").path("wall_s").asDouble(Double.NaN);
        if (startedNs != Long.MIN_VALUE && startNs < startedNs - SLACK_NS)
        {
            return "before the run started (started_at " + instant(startedNs) + ")";
        }
        if (startedNs != Long.MIN_VALUE && !Double.isNaN(wallS) &&
            endNs > startedNs + (long)(wallS * 1e9) + PREPARATION_NS)
        {
            return "ending after the run can have ended (started_at " + instant(startedNs) + " + wall_s " + wallS +
                " s + 10 min)";
        }
        final long startAtNs = epochNs(s.shard().path("start_at").asText(null));
        if (startAtNs == Long.MIN_VALUE)
        {
            return null;
        }
        if (startNs < startAtNs - SLACK_NS)
        {
            return "before the common start (start_at " + instant(startAtNs) + ")";
        }
        final double toleranceS = s.shard().path("start_tolerance_s").asDouble(0);
        if (!Double.isNaN(wallS) && endNs > startAtNs + (long)((toleranceS + wallS) * 1e9) + SLACK_NS)
        {
            return "ending after the run can have ended (start_at " + instant(startAtNs) + " + start_tolerance_s " +
                toleranceS + " + wall_s " + wallS + " s)";
        }
        return null;
    }

    /** @return ns since the epoch of an ISO-8601 instant, or Long.MIN_VALUE for none or one that does not parse. */
    private static long epochNs(final String iso)
    {
        if (iso == null)
        {
            return Long.MIN_VALUE;
        }
        try
        {
            final Instant i = Instant.parse(iso);
            return i.getEpochSecond() * 1_000_000_000L + i.getNano();
        }
        catch (final DateTimeParseException | ArithmeticException ex)
        {
            return Long.MIN_VALUE;
        }
    }

    private static String instant(final long epochNs)
    {
        return Instant.ofEpochSecond(Math.floorDiv(epochNs, 1_000_000_000L), Math.floorMod(epochNs, 1_000_000_000L))
            .toString();
    }

    /**
     * @return for each shard that ran, the whole lines of its {@code requests.jsonl} (0 without one): what the merge
     * takes from it.
     * @throws IllegalArgumentException (one line) for the first shard whose {@code requests.jsonl} is not of its
     *                                  record ({@link RequestsFile}), or is missing while its record counts requests.
     */
    static Map<ShardRun, Long> requestsOfTheirRecords(final List<ShardRun> ran) throws IOException
    {
        final Map<ShardRun, Long> lines = new IdentityHashMap<>();
        for (final ShardRun s : ran)
        {
            final long counted = s.countedRequests();
            final Path file = s.dir().resolve(RequestsFile.FILE);
            if (!Files.isRegularFile(file))
            {
                if (counted > 0)
                {
                    throw new IllegalArgumentException("refusing to merge: " + s.name() + ": its record.json counts " +
                        counted + " requests (measured and warm-up), but it has no " + RequestsFile.FILE);
                }
                lines.put(s, 0L);
                continue;
            }
            final String why = RequestsFile.disagreement(s.dir(), counted, s.partialReason() != null);
            if (why != null)
            {
                throw new IllegalArgumentException("refusing to merge: " + s.name() + ": its " + RequestsFile.FILE +
                    " " + why);
            }
            lines.put(s, RequestsFile.count(file).whole());
        }
        return lines;
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
