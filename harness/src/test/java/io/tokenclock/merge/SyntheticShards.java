package io.tokenclock.merge;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.report.HistogramLogs;

/**
 * Shard run directories made without a server: a record with the sections merge reads, {@code requests.jsonl} and
 * one {@code .hlog} per metric, from seeded random latencies. Also fills {@link #all}, the histogram of every
 * sample of every shard together, which the merged histogram must equal. For merge's tests and its scaling figures.
 */
public final class SyntheticShards
{
    static final long WINDOW_NS = 10_000_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    final Map<Metric, Histogram> all = new EnumMap<>(Metric.class);
    private final long seed;
    int significantDigits = MetricRecorders.SIGNIFICANT_DIGITS;
    public double rate = 4.0;
    long workloadSeed = 42;
    /** The API the shards name ({@code runtime.api}); null names none (a streamed API's run, as chat's). */
    String api;
    /** Whether each shard writes the log of every metric, its API's or not (as a run before issue 42's fix did). */
    boolean everyLog = true;

    public SyntheticShards(final long seed)
    {
        this.seed = seed;
        for (final Metric m : Metric.values())
        {
            all.put(m, new Histogram(1, MetricRecorders.HIGHEST_TRACKABLE, MetricRecorders.SIGNIFICANT_DIGITS));
        }
    }

    /**
     * Writes shard {@code index} of {@code count} with {@code requests} measured requests into {@code dir}, its
     * monotonic clock {@code offsetNs} behind the wall clock's.
     */
    public Path write(final Path dir, final int index, final int count, final long requests, final long offsetNs)
        throws IOException
    {
        return writeScaled(dir, index, count, requests, requests, offsetNs);
    }

    /**
     * As {@link #write}, with histograms of {@code requests} requests but only the first {@code lines} lines, which the
     * record counts (as a run's record counts the lines of its requests.jsonl, which merge checks).
     */
    public Path writeScaled(
        final Path dir, final int index, final int count, final long requests, final long lines, final long offsetNs)
        throws IOException
    {
        Files.createDirectories(dir);
        final SplittableRandom random = new SplittableRandom(seed * 1_000_003L + index);
        final Map<Metric, Histogram> own = new EnumMap<>(Metric.class);
        for (final Metric m : Metric.values())
        {
            own.put(m, new Histogram(1, MetricRecorders.HIGHEST_TRACKABLE, significantDigits));
        }
        final long monoStart = 1_000_000_000L * (index + 1);
        long outputTokens = 0;
        // requests.jsonl is in completion order, as a run writes it.
        final TreeMap<Long, String> byEnd = new TreeMap<>();
        {
            for (long k = 0; k < requests; k++)
            {
                final long id = k * count + index;
                final long scheduled = monoStart + WINDOW_NS * k / Math.max(1, requests);
                final long ttft = 20_000_000L + (long)(random.nextDouble() * random.nextDouble() * 400_000_000L);
                final long e2e = ttft + 100_000_000L + random.nextLong(50_000_000L);
                final int tokens = 16 + random.nextInt(48);
                outputTokens += tokens;
                for (final Metric m : Metric.values())
                {
                    final long v = switch (m)
                    {
                        case TTFT, TTFT_FROM_SCHEDULE, TTFOT -> ttft;
                        case E2E, E2E_FROM_SCHEDULE -> e2e;
                        case OUTPUT_TOKENS -> tokens;
                        case ENGINE_TTFT, ENGINE_TPOT -> -1;
                        default -> 1 + random.nextLong(10_000_000L);
                    };
                    if (v >= 0)
                    {
                        own.get(m).recordValue(v);
                        all.get(m).recordValue(v);
                    }
                }
                if (k >= lines)
                {
                    continue;
                }
                byEnd.put((scheduled + e2e) * 1024 + (k % 1024), "{\"id\":" + id +
                    ",\"phase\":\"measure\",\"status\":\"ok\",\"scheduled_ns\":" + scheduled +
                    ",\"sent_ns\":" + (scheduled + 1000) + ",\"first_token_ns\":" + (scheduled + ttft) +
                    ",\"end_ns\":" + (scheduled + e2e) + ",\"chunk_ns\":[" + (scheduled + ttft) +
                    "],\"output_tokens\":" + tokens + ",\"ttft_ms\":" + ttft / 1e6 +
                    ",\"e2e_ms\":" + e2e / 1e6 + "}\n");
            }
        }
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("requests.jsonl"), StandardCharsets.UTF_8))
        {
            for (final String line : byEnd.values())
            {
                w.write(line);
            }
        }
        if (!everyLog)
        {
            own.keySet().removeIf(m -> !m.appliesTo(api == null || "chat".equals(api)));
        }
        HistogramLogs.write(dir, own, (monoStart + offsetNs) / 1_000_000L,
            (monoStart + WINDOW_NS + offsetNs) / 1_000_000L, "synthetic shard");
        JSON.writerWithDefaultPrettyPrinter().writeValue(dir.resolve("record.json").toFile(),
            record(index, count, lines, outputTokens, monoStart, offsetNs));
        return dir;
    }

    private ObjectNode record(final int index, final int count, final long requests, final long outputTokens,
        final long monoStart, final long offsetNs)
    {
        final ObjectNode r = JSON.createObjectNode();
        r.putObject("tokenclock").put("record_format", 4);
        r.put("run_id", "synthetic-" + index);
        r.put("partial", false);
        r.putNull("partial_reason");
        r.putObject("model").put("name", "synthetic");
        if (api != null)
        {
            r.putObject("runtime").put("api", api);
        }
        r.putObject("workload").put("seed", workloadSeed).put("hash", "ab".repeat(32)).put("hash_requests",
            requests * count);
        r.putObject("load").put("mode", "open").put("rate_per_s", rate).put("max_in_flight", 16)
            .put("schedule_hash", "cd".repeat(32));
        final ObjectNode shard = r.putObject("shard").put("index", index).put("count", count)
            .put("global_workload_hash", "ab".repeat(32)).put("global_schedule_hash", "cd".repeat(32))
            .put("wall_minus_monotonic_ns", offsetNs).put("start_lateness_ms", 0.1);
        shard.putObject("histograms").put("lowest", 1).put("highest", MetricRecorders.HIGHEST_TRACKABLE)
            .put("significant_digits", significantDigits);
        shard.putNull("refused");
        final ObjectNode report = r.putObject("report");
        report.putObject("window").put("start_ns", monoStart).put("end_ns", monoStart + WINDOW_NS)
            .put("duration_s", WINDOW_NS / 1e9).put("wall_s", 12.0);
        report.putObject("counts").put("measured", requests).put("ok", requests).put("error", 0)
            .put("output_tokens", outputTokens).put("http_429_per_s", 0.0);
        report.putObject("errors_by_class");
        report.putObject("throughput").put("requests_per_s", requests / (WINDOW_NS / 1e9))
            .put("output_tokens_per_s", outputTokens / (WINDOW_NS / 1e9));
        report.putObject("goodput").put("attempted", requests).put("good", requests / 2)
            .put("good_fraction", 0.5).put("goodput_per_s", requests / 2 / (WINDOW_NS / 1e9));
        report.putObject("distributions");
        return r;
    }
}
