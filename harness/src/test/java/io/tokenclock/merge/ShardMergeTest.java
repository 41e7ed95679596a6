package io.tokenclock.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.metrics.Metric;
import io.tokenclock.report.HistogramLogs;

/** {@link ShardMerge} on synthetic shard directories: what it adds, what it recomputes, what it refuses. */
final class ShardMergeTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SECOND = 1_000_000_000L;
    /** Wall clock minus each shard's monotonic clock: hosts whose monotonic clocks started at different times. */
    private static final long[] OFFSETS = {1_800_000_000_000_000_000L, 1_799_999_990_000_000_000L,
        1_800_000_003_000_000_000L};

    @TempDir
    Path tmp;

    @Test
    void shouldAddTheShardsHistogramsIntoTheHistogramOfAllTheirSamples() throws IOException
    {
        final SyntheticShards synthetic = new SyntheticShards(7);
        final ShardMerge.Outcome o = ShardMerge.merge(tmp.resolve("merged"), shards(synthetic, 3, 500));

        for (final Metric m : List.of(Metric.TTFT, Metric.E2E, Metric.OUTPUT_TOKENS, Metric.TOKEN_ITL))
        {
            assertEquals(synthetic.all.get(m), HistogramLogs.read(o.dir(), m), m.key() + ": bucket for bucket");
        }
        final JsonNode ttft = record(o).path("report").path("distributions").path("ttft");
        assertEquals(1500, ttft.path("count").asLong());
        assertEquals(synthetic.all.get(Metric.TTFT).getValueAtPercentile(99) / 1e6, ttft.path("p99").asDouble(),
            1e-9, "the merged p99 is the p99 of every sample, not an average of the shards' p99s");
    }

    @Test
    void shouldMergeShardsOfAnApiThatAnswersWholeWithoutTheStreamMetricsLogsTheyNeverWrote() throws IOException
    {
        final SyntheticShards synthetic = new SyntheticShards(9);
        synthetic.api = "embeddings";
        synthetic.everyLog = false;
        final List<Path> dirs = shards(synthetic, 2, 200);
        assertFalse(Files.exists(HistogramLogs.file(dirs.get(0), Metric.TTFT)), "an embeddings shard has no ttft.hlog");

        final ShardMerge.Outcome o = ShardMerge.merge(tmp.resolve("merged"), dirs);

        assertEquals(synthetic.all.get(Metric.E2E), HistogramLogs.read(o.dir(), Metric.E2E), "e2e added exactly");
        for (final Metric m : Metric.values())
        {
            assertEquals(!m.streamOnly(), Files.exists(HistogramLogs.file(o.dir(), m)), m.key() + ".hlog in OUT");
        }
        final JsonNode d = record(o).path("report").path("distributions");
        assertEquals(400, d.path("e2e").path("count").asLong());
        assertFalse(d.has("ttft") || d.has("tpot"), "no stream metric in the merged record: " + d);
    }

    @Test
    void shouldStillRefuseAChatShardWithoutItsTtftLog() throws IOException
    {
        final List<Path> dirs = shards(new SyntheticShards(11), 2, 20);
        Files.delete(HistogramLogs.file(dirs.get(1), Metric.TTFT));

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ShardMerge.merge(tmp.resolve("merged"), dirs));
        assertTrue(ex.getMessage().contains("has no") && ex.getMessage().contains("ttft.hlog"), ex.getMessage());
    }

    @Test
    void shouldSumCountsAndRecomputeRatesOverTheUnionWindow() throws IOException
    {
        final ShardMerge.Outcome o = ShardMerge.merge(tmp.resolve("merged"), shards(new SyntheticShards(8), 3, 100));
        final JsonNode report = record(o).path("report");

        assertEquals(300, report.path("counts").path("measured").asLong());
        // Shard i's window starts at (i + 1) s on its own clock, so OFFSETS put the three at different wall times.
        final long start = Math.min(Math.min(SECOND + OFFSETS[0], 2 * SECOND + OFFSETS[1]), 3 * SECOND + OFFSETS[2]);
        final long end = Math.max(Math.max(SECOND + OFFSETS[0], 2 * SECOND + OFFSETS[1]), 3 * SECOND + OFFSETS[2]) +
            SyntheticShards.WINDOW_NS;
        assertEquals(start, report.path("window").path("start_ns").asLong());
        assertEquals(end, report.path("window").path("end_ns").asLong());
        final double unionS = (end - start) / 1e9;
        assertEquals(300 / unionS, report.path("throughput").path("requests_per_s").asDouble(), 1e-9);
        assertEquals(150, report.path("goodput").path("good").asLong());
        assertEquals(150 / unionS, report.path("goodput").path("goodput_per_s").asDouble(), 1e-9);
        assertEquals(0.5, report.path("goodput").path("good_fraction").asDouble(), 1e-12);
        assertEquals(48, record(o).path("load").path("max_in_flight").asLong(), "the shards' caps summed");
    }

    @Test
    void shouldSumTheCacheAndSessionFiguresAndRecomputeTheirRatiosFromTheSums() throws IOException
    {
        final List<Path> dirs = shards(new SyntheticShards(10), 2, 10);
        addCacheAndSessions(dirs.get(0), 600, 1_000, 30.0, 10.0);
        addCacheAndSessions(dirs.get(1), 100, 1_000, 10.0, 30.0);
        final JsonNode merged = record(ShardMerge.merge(tmp.resolve("merged"), dirs));
        final JsonNode cache = merged.path("report").path("cache");

        assertEquals(700, cache.path("cached_tokens").asLong());
        assertEquals(0.35, cache.path("hit_rate").asDouble(), 1e-12, "700 / 2000: not the shards' rates averaged");
        assertEquals(0.5, cache.path("ideal_hit_rate").asDouble(), 1e-12, "1000 / 2000");
        assertEquals(0.25, cache.path("server_hit_rate").asDouble(), 1e-12, "the first shard's scrape");
        final JsonNode sessions = merged.path("report").path("sessions");
        assertEquals(6, sessions.path("sessions").asLong());
        assertEquals(4.0, sessions.path("trace_speedup").asDouble(), "a setting, not summed");
        assertEquals(40.0, sessions.path("trace_waits_s").asDouble(), 1e-12);
        assertEquals(0.5, sessions.path("trace_wait_share").asDouble(), 1e-12);
        assertTrue(sessions.path("session_e2e").isMissingNode(), "no histogram log to merge it from");
        assertTrue(merged.path("merge").path("not_merged").toString().contains("report.sessions.turns_per_session"));
        assertEquals(0.6, merged.path("merge").path("members").get(0).path("cache").path("hit_rate").asDouble(),
            1e-12, "each shard's own figures stay in its summary");
    }

    /** Gives a shard's record the cache and session sections a trace run writes. */
    private static void addCacheAndSessions(final Path shard, final long cached, final long input,
        final double inRequestsS, final double waitsS) throws IOException
    {
        final ObjectNode record = (ObjectNode)JSON.readTree(shard.resolve("record.json").toFile());
        final ObjectNode report = (ObjectNode)record.get("report");
        report.putObject("cache").put("reporting_requests", 10).put("reporting_input_tokens", input)
            .put("cached_tokens", cached).put("hit_rate", (double)cached / input).put("ideal_input_tokens", input)
            .put("ideal_cached_tokens", input / 2).put("ideal_hit_rate", 0.5).put("server_hit_rate", 0.25);
        final ObjectNode sessions = report.putObject("sessions").put("format", "mooncake").put("trace_speedup", 4.0)
            .put("sessions", 3).put("completed", 3).put("turns", 10).put("subagents", 0)
            .put("in_requests_s", inRequestsS).put("trace_waits_s", waitsS)
            .put("trace_wait_share", waitsS / (inRequestsS + waitsS));
        sessions.putObject("turns_per_session").put("count", 3);
        sessions.putObject("session_e2e").put("count", 3);
        JSON.writeValue(shard.resolve("record.json").toFile(), record);
    }

    @Test
    void shouldPutEveryRequestOnTheWallClockInEndOrderWithItsShard() throws IOException
    {
        final List<Path> dirs = shards(new SyntheticShards(9), 3, 50);
        final ShardMerge.Outcome o = ShardMerge.merge(tmp.resolve("merged"), dirs);
        final List<String> lines = Files.readAllLines(o.dir().resolve("requests.jsonl"));

        assertEquals(150, lines.size());
        long previousEnd = Long.MIN_VALUE;
        final List<Long> ids = new ArrayList<>();
        for (final String line : lines)
        {
            final JsonNode n = JSON.readTree(line);
            final int shard = n.path("shard").asInt();
            assertEquals(shard, n.path("id").asLong() % 3, "a request comes from its own stripe");
            assertTrue(n.path("end_ns").asLong() >= previousEnd, "in end order across shards");
            previousEnd = n.path("end_ns").asLong();
            assertEquals(n.path("first_token_ns").asLong(), n.path("chunk_ns").get(0).asLong());
            ids.add(n.path("id").asLong());
        }
        final JsonNode first = JSON.readTree(Files.readAllLines(dirs.get(1).resolve("requests.jsonl")).get(0));
        final JsonNode moved = lines.stream().map(ShardMergeTest::tree).filter(n -> n.path("shard").asInt() == 1)
            .findFirst().orElseThrow();
        assertEquals(first.path("sent_ns").asLong() + OFFSETS[1], moved.path("sent_ns").asLong());
        assertEquals(150, ids.stream().distinct().count());
    }

    @Test
    void shouldWriteAnIndexOfKindMergedWithEachShardAsAMember() throws IOException
    {
        final ShardMerge.Outcome o = ShardMerge.merge(tmp.resolve("merged"), shards(new SyntheticShards(1), 2, 10));
        final JsonNode index = JSON.readTree(o.dir().resolve("index.json").toFile());

        assertEquals("tokenclock-index/1", index.path("format").asText());
        assertEquals("merged", index.path("kind").asText());
        assertEquals("../shard-1", index.path("members").get(1).path("path").asText());
        assertEquals("shard 1/2", index.path("members").get(1).path("role").asText());
        assertEquals("merged", record(o).path("kind").asText());
        assertFalse(record(o).path("partial").asBoolean());
    }

    @Test
    void shouldMarkTheMergeIncompleteAndNameAMissingAndALateShard() throws IOException
    {
        final List<Path> dirs = shards(new SyntheticShards(2), 4, 20);
        final ObjectNode late = (ObjectNode)JSON.readTree(dirs.get(3).resolve("record.json").toFile());
        ((ObjectNode)late.get("shard")).put("refused", "shard 3/4 was ready 9.000 s after its start time");
        JSON.writeValue(dirs.get(3).resolve("record.json").toFile(), late);
        final ShardMerge.Outcome o = ShardMerge.merge(tmp.resolve("merged"), List.of(dirs.get(0), dirs.get(1),
            dirs.get(3)));

        assertEquals(2, o.incomplete().size(), o.incomplete().toString());
        assertTrue(o.incomplete().get(0).startsWith("shard 3/4 (") && o.incomplete().get(0).contains(": late: "));
        assertEquals("shard 2/4: missing (no run directory given holds it)", o.incomplete().get(1));
        final JsonNode r = record(o);
        assertTrue(r.path("partial").asBoolean());
        assertTrue(r.path("merge").path("incomplete").asBoolean());
        assertEquals(40, r.path("report").path("counts").path("measured").asLong(), "the late shard ran nothing");
        assertEquals("late", r.path("merge").path("members").get(2).path("status").asText());
    }

    @Test
    void shouldRefuseShardsOfDifferentSeedsCountsContractsOrHistogramSettingsWithOneLineEach() throws IOException
    {
        final List<Path> base = shards(new SyntheticShards(3), 2, 5);
        final SyntheticShards other = new SyntheticShards(3);
        other.workloadSeed = 43;
        assertRefused("seeds differ", base.get(0), other.write(tmp.resolve("seed"), 1, 2, 5, 0));
        assertRefused("shard counts differ", base.get(0), new SyntheticShards(3).write(tmp.resolve("n"), 1, 3, 5, 0));
        final SyntheticShards faster = new SyntheticShards(3);
        faster.rate = 8.0;
        assertRefused("contracts differ at load.rate_per_s (4.0 vs 8.0)", base.get(0),
            faster.write(tmp.resolve("rate"), 1, 2, 5, 0));
        final SyntheticShards coarse = new SyntheticShards(3);
        coarse.significantDigits = 2;
        assertRefused("histogram settings differ", base.get(0), coarse.write(tmp.resolve("digits"), 1, 2, 5, 0));
        assertRefused("index 0 given twice", base.get(0), base.get(0));
    }

    private void assertRefused(final String expected, final Path a, final Path b)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ShardMerge.merge(tmp.resolve("refused"), List.of(a, b)));
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
        assertFalse(ex.getMessage().contains("\n"), "one line");
    }

    private List<Path> shards(final SyntheticShards synthetic, final int count, final long requests)
        throws IOException
    {
        final List<Path> dirs = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            dirs.add(synthetic.write(tmp.resolve("shard-" + i), i, count, requests, OFFSETS[i % OFFSETS.length]));
        }
        return dirs;
    }

    private static JsonNode record(final ShardMerge.Outcome o) throws IOException
    {
        return JSON.readTree(o.dir().resolve("record.json").toFile());
    }

    private static JsonNode tree(final String line)
    {
        try
        {
            return JSON.readTree(line);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
