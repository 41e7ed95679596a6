package io.tokenclock.merge;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The merge's time and memory on synthetic shards (results/shards/merge-scale.md): not a test, a tool run by hand,
 * {@code java -cp ... io.tokenclock.merge.MergeScale DIR SHARDS HISTOGRAM_REQUESTS JSONL_LINES}. Each shard's
 * histograms hold HISTOGRAM_REQUESTS requests' samples and its requests.jsonl JSONL_LINES lines (the merge reads
 * lines one ahead per shard, so their cost is linear in lines and its memory is not). Prints one line of JSON.
 */
public final class MergeScale
{
    private MergeScale()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final Path dir = Path.of(args[0]);
        final int shards = Integer.parseInt(args[1]);
        final long histogramRequests = Long.parseLong(args[2]);
        final long lines = Long.parseLong(args[3]);
        final SyntheticShards synthetic = new SyntheticShards(11);
        final List<Path> dirs = new ArrayList<>();
        final long genStart = System.nanoTime();
        for (int i = 0; i < shards; i++)
        {
            dirs.add(synthetic.writeScaled(dir.resolve("shard-" + i), i, shards, histogramRequests, lines,
                1_800_000_000_000_000_000L + i * 1_000_000L));
        }
        final double genS = (System.nanoTime() - genStart) / 1e9;
        System.gc();
        resetPeaks();
        final long start = System.nanoTime();
        final ShardMerge.Outcome o = ShardMerge.merge(dir.resolve("merged"), dirs);
        final double mergeS = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "{\"shards\": %d, \"histogram_requests_per_shard\": %d, " +
            "\"jsonl_lines_per_shard\": %d, \"merged_measured\": %d, \"merged_lines\": %d, \"merge_s\": %.3f, " +
            "\"peak_heap_mib\": %.1f, \"generate_s\": %.1f, \"merged_bytes\": %d}%n", shards, histogramRequests,
            lines, o.measured(), o.requests(), mergeS, peakHeapBytes() / 1048576.0, genS,
            Files.size(o.dir().resolve("requests.jsonl")));
    }

    private static void resetPeaks()
    {
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            pool.resetPeakUsage();
        }
    }

    /** @return the sum of the heap pools' peaks since the reset: an upper bound of the live heap's peak. */
    private static long peakHeapBytes()
    {
        long peak = 0;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            if (pool.getType() == MemoryType.HEAP)
            {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
