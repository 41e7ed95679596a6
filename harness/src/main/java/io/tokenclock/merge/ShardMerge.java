package io.tokenclock.merge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import io.tokenclock.json.Json;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.report.HistogramLogs;
import io.tokenclock.report.RecordWriter;
import io.tokenclock.results.Index;
import io.tokenclock.results.Kind;
import io.tokenclock.results.OutputDir;
import io.tokenclock.results.RequestsFile;
import io.tokenclock.results.Results;
import io.tokenclock.util.WholeFile;

/**
 * {@code tokenclock merge OUT DIR...}: the shards of one run put back together, exactly (docs/RESULTS.md, "Merged
 * results"). OUT looks like a run directory ({@code record.json}, {@code requests.jsonl}, one {@code .hlog} per
 * metric) plus {@code index.json} (kind {@code merged}, the shards as members):
 * <ul>
 * <li>histograms are added bucket by bucket from the shards' logs, never percentiles averaged;</li>
 * <li>requests go on one wall-clock axis ({@link MergedRequests});</li>
 * <li>counts are summed, and rates and goodput recomputed over the union of the shards' windows
 * ({@link MergedRecord});</li>
 * <li>each shard's own summary is kept under {@code merge.members}.</li>
 * </ul>
 * Shards that are not parts of one run are refused ({@link ShardChecks}); a missing, failed or late shard makes the
 * merged record {@code partial}, with {@code merge.incomplete} naming it.
 */
public final class ShardMerge
{
    private static final ObjectMapper JSON = Json.MAPPER;

    private ShardMerge()
    {
    }

    /**
     * What a merge produced.
     *
     * @param dir        the merged result.
     * @param shards     the shard count of the run.
     * @param incomplete one line per missing, failed or late shard; empty when the run is whole.
     * @param requests   lines in the merged requests.jsonl.
     * @param measured   measured requests, all shards.
     * @param hash       the whole run's workload hash, or null when the shards could not reproduce one.
     */
    public record Outcome(Path dir, int shards, List<String> incomplete, long requests, long measured, String hash)
    {
    }

    /** Merges {@code dirs} into {@code out}, which holds no result yet ({@link #merge(Path, List, boolean)}). */
    public static Outcome merge(final Path out, final List<Path> dirs) throws IOException
    {
        return merge(out, dirs, false);
    }

    /**
     * Merges {@code dirs} into {@code out}. Everything is checked before anything is written; then the files are
     * written each whole ({@link WholeFile}), the record last: a merge stopped at any moment leaves either no
     * {@code record.json} (what was there before is removed first, so nothing reads as a whole result) or the new
     * one with every file it describes.
     *
     * @param force replace the result {@code out} already holds (never one of {@code dirs}).
     * @throws IllegalArgumentException (one line) when {@code out} is one of {@code dirs}, holds a result and
     *                                  {@code force} is false, or when the directories are not shards of one run.
     */
    public static Outcome merge(final Path out, final List<Path> dirs, final boolean force) throws IOException
    {
        refuseOutput(out, dirs, force);
        final List<ShardRun> shards = new ArrayList<>();
        final List<String> incomplete = new ArrayList<>();
        for (final Path dir : dirs)
        {
            final ShardRun s = ShardRun.read(dir);
            if (s == null)
            {
                incomplete.add(dir + ": missing (no record.json)");
            }
            else
            {
                shards.add(s);
            }
        }
        if (shards.isEmpty())
        {
            throw new IllegalArgumentException("nothing to merge: none of the " + dirs.size() + " directories holds " +
                "a shard's record.json");
        }
        ShardChecks.check(shards);
        final List<ShardRun> ran = classify(shards, incomplete);
        final List<ShardRun> complete = ran.stream().filter(s -> s.partialReason() == null).toList();
        ShardChecks.sameHashes(complete);
        if (ran.isEmpty())
        {
            throw new IllegalArgumentException("nothing to merge: every shard refused to run (" +
                String.join("; ", incomplete) + ")");
        }
        ShardChecks.plausibleClocks(ran);
        final Map<ShardRun, Long> wholeLines = ShardChecks.requestsOfTheirRecords(ran);
        final Map<Metric, Histogram> histograms = histograms(ran);
        Files.createDirectories(out);
        removeResultFiles(out);
        final long lines = MergedRequests.write(out.resolve(RequestsFile.FILE), ran, wholeLines);
        HistogramLogs.write(out, histograms, MergedRecord.startWallNs(ran) / 1_000_000L,
            MergedRecord.endWallNs(ran) / 1_000_000L, "merged from " + ran.size() + " shards");
        final ObjectNode record = MergedRecord.build(out, shards, ran, complete, distributions(histograms),
            incomplete);
        WholeFile.write(out.resolve(Results.RECORD), Json.PRETTY.writeValueAsBytes(record));
        Index.write(out, Kind.MERGED, members(out, shards));
        return new Outcome(out, shards.get(0).count(), incomplete, lines,
            record.path("report").path("counts").path("measured").asLong(),
            complete.isEmpty() ? null : complete.get(0).shard().path("global_workload_hash").asText(null));
    }

    /**
     * @throws IllegalArgumentException (one line) when {@code out} is one of {@code dirs} (the same directory by any
     * path: a link, a relative path), which no {@code --force} allows, is not a directory, or holds a result and
     * {@code force} is false ({@link OutputDir}, the rule of {@code run}, {@code sweep} and {@code ab}).
     */
    static void refuseOutput(final Path out, final List<Path> dirs, final boolean force) throws IOException
    {
        if (!Files.exists(out))
        {
            return;
        }
        if (!Files.isDirectory(out))
        {
            throw new IllegalArgumentException("refusing to merge into " + out + ": it is not a directory");
        }
        for (final Path dir : dirs)
        {
            if (Files.exists(dir) && Files.isSameFile(out, dir))
            {
                throw new IllegalArgumentException("refusing to merge into " + out + ": it is the shard directory " +
                    dir + ", which the merge would overwrite; give the merged result a directory of its own " +
                    "(merge OUT DIR...)");
            }
        }
        OutputDir.refuseExisting(out, force, "directory for the merged result");
    }

    /**
     * Removes the files that make {@code out} read as a result before any new one is written, so that a merge stopped
     * midway leaves no old {@code record.json} beside new files; what is not rewritten (an old {@code report.html})
     * would describe the old result, so it goes too.
     */
    private static void removeResultFiles(final Path out) throws IOException
    {
        for (final String name : List.of(Results.RECORD, Index.FILE, "report.html"))
        {
            Files.deleteIfExists(out.resolve(name));
        }
    }

    /** @return the shards that ran; adds a line to {@code incomplete} for each missing, failed or late one. */
    private static List<ShardRun> classify(final List<ShardRun> shards, final List<String> incomplete)
    {
        final int count = shards.get(0).count();
        final boolean[] present = new boolean[count];
        final List<ShardRun> ran = new ArrayList<>();
        for (final ShardRun s : shards)
        {
            present[s.index()] = true;
            if (!s.ran())
            {
                incomplete.add(s.name() + ": late: " + s.refused());
                continue;
            }
            if (s.partialReason() != null)
            {
                incomplete.add(s.name() + ": failed: " + s.partialReason());
            }
            ran.add(s);
        }
        for (int i = 0; i < count; i++)
        {
            if (!present[i])
            {
                incomplete.add("shard " + i + "/" + count + ": missing (no run directory given holds it)");
            }
        }
        return ran;
    }

    /**
     * @return each metric's histogram over every shard that ran, added exactly; of an API that answers whole
     * (embeddings, rerank: the shards' {@code runtime.api}), only the metrics it has, since its runs write no log of
     * a stream's metric ({@link HistogramLogs#expected}).
     * @throws IllegalArgumentException when a shard's histogram settings differ from the first's, or a shard lacks
     * the log of a metric its API has.
     */
    private static Map<Metric, Histogram> histograms(final List<ShardRun> ran) throws IOException
    {
        final Map<Metric, Histogram> sums = new EnumMap<>(Metric.class);
        final boolean streamed = RecordWriter.streamed(ran.get(0).record());
        for (final Metric m : Metric.values())
        {
            if (!HistogramLogs.expected(m, streamed))
            {
                continue;
            }
            Histogram sum = null;
            ShardRun first = null;
            for (final ShardRun s : ran)
            {
                final Histogram h = HistogramLogs.read(s.dir(), m);
                if (h == null)
                {
                    throw new IllegalArgumentException(s.name() + " has no " + HistogramLogs.file(s.dir(), m) +
                        ": a shard's histograms are what merge adds (was it written by an older tokenclock?)");
                }
                if (sum == null)
                {
                    sum = new Histogram(h.getLowestDiscernibleValue(), h.getHighestTrackableValue(),
                        h.getNumberOfSignificantValueDigits());
                    first = s;
                }
                else if (h.getLowestDiscernibleValue() != sum.getLowestDiscernibleValue() ||
                    h.getHighestTrackableValue() != sum.getHighestTrackableValue() ||
                    h.getNumberOfSignificantValueDigits() != sum.getNumberOfSignificantValueDigits())
                {
                    throw new IllegalArgumentException("refusing to merge: histogram settings differ: " +
                        first.name() + " and " + s.name() + " record " + m.key() + " differently");
                }
                sum.add(h);
            }
            sums.put(m, sum);
        }
        return sums;
    }

    private static Map<Metric, Distribution> distributions(final Map<Metric, Histogram> histograms)
    {
        final Map<Metric, Distribution> d = new EnumMap<>(Metric.class);
        histograms.forEach((m, h) -> d.put(m, Distribution.of(h, m)));
        return d;
    }

    /**
     * @return the shards as index.json's members (kind merged), each with its role {@code shard I/N} and its path
     * relative to OUT, {@code ../shard-I} for the usual siblings, so that the whole tree can be moved.
     */
    private static List<Index.Member> members(final Path out, final List<ShardRun> shards)
    {
        final Path base = out.toAbsolutePath().normalize();
        return shards.stream().map(s -> new Index.Member(base.relativize(s.dir().toAbsolutePath().normalize())
            .toString(), "shard " + s.index() + "/" + s.count())).toList();
    }
}
