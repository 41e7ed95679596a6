package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.tokenclock.api.Api;
import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.config.ShardSpec;
import io.tokenclock.cost.PriceModel;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.json.Json;
import io.tokenclock.load.Stripe;
import io.tokenclock.merge.ShardMerge;
import io.tokenclock.run.RunResult;
import io.tokenclock.testing.SimServerExtension;
import io.tokenclock.workload.dataset.SessionTrace;
import io.tokenclock.workload.dataset.TraceSession;
import io.tokenclock.workload.dataset.TraceTurn;

/**
 * The owners' published traces replayed against the simulator with its prefix cache on, checked against what the
 * trace says and what the simulator knows: every turn sent once and in order, with its history; each turn due its
 * delay (divided by the speed-up) after the previous turn ended; and the cached tokens the simulator reports against
 * the ideal the trace's hash ids give.
 * <p>
 * Tolerances, stated once: a turn's intended start is its delay after the previous turn's end to the nanosecond (both
 * are readings of the run's clock; the delay is rounded to the nearest ns); a later turn's send lag (it is built
 * while the session waits) is at most {@link #SEND_LAG_MS} on this shared machine, loaded about tenfold; a session's
 * first turn, built at the run's start, is not held to it. Where the simulator's cache (blocks of {@link #SIM_BLOCK} words) meets a
 * session's history, it holds only the history's full blocks: the ideal counts the whole history, so a later turn's
 * cached tokens are its ideal less at most {@code SIM_BLOCK - 1}.
 */
final class TraceReplayIT
{
    private static final ObjectMapper JSON = Json.MAPPER;
    private static final int SIM_BLOCK = 16;
    private static final double SEND_LAG_MS = 2_000;

    @TempDir
    Path dir;

    private static SimConfig sim()
    {
        return new SimConfig().prefillBaseMs(1).prefillPerInputTokenMs(0).decodeBaseMs(0.2).decodePerSeqMs(0)
            .jitter(0).roleChunk(true).tokensPerChunk(64).prefixCacheBlockTokens(SIM_BLOCK);
    }

    private static Path sample(final String name) throws URISyntaxException
    {
        return Path.of(TraceReplayIT.class.getResource("/io/tokenclock/workload/traces/" + name).toURI());
    }

    private RunOptionsBuilder options(final SimServer server, final Path trace, final String format)
    {
        final RunOptionsBuilder o = SimServerExtension.options(server, dir);
        o.inputTokens(1).maxTokens(0);
        o.dataset(trace).datasetFormat(format);
        o.saveText(true);
        o.serverMetricsIntervalMs(100);
        return o;
    }

    private static RunResult run(final RunOptionsBuilder o) throws Exception
    {
        return new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));
    }

    /** @return requests.jsonl's lines of each session, in turn order. */
    private Map<String, List<JsonNode>> sessions() throws Exception
    {
        final Map<String, List<JsonNode>> sessions = new LinkedHashMap<>();
        for (final String line : Files.readAllLines(dir.resolve("requests.jsonl")))
        {
            final JsonNode n = JSON.readTree(line);
            sessions.computeIfAbsent(n.path("session_id").asText(""), k -> new ArrayList<>()).add(n);
        }
        sessions.values().forEach(turns -> turns.sort(Comparator.comparingInt(n -> n.get("turn").asInt())));
        return sessions;
    }

    private JsonNode record() throws Exception
    {
        return JSON.readTree(dir.resolve("record.json").toFile());
    }

    /** Checks a session's turns: each sent once, in order, each due its delay after the one before ended. */
    private static void assertTurnsFollowTheTrace(final TraceSession expected, final List<JsonNode> turns,
        final double speedup)
    {
        assertEquals(expected.turns().size(), turns.size(), expected.id() + ": every turn sent once");
        for (int k = 0; k < turns.size(); k++)
        {
            final JsonNode t = turns.get(k);
            assertEquals(k, t.get("turn").asInt());
            assertEquals("ok", t.get("status").asText(), expected.id() + " turn " + k);
            if (k > 0)
            {
                assertTrue(t.get("send_lag_ms").asDouble() <= SEND_LAG_MS, expected.id() + " turn " + k + " sent " +
                    t.get("send_lag_ms") + " ms late");
                final JsonNode before = turns.get(k - 1);
                assertTrue(t.get("sent_ns").asLong() > before.get("end_ns").asLong(), "in order, one at a time");
                final TraceTurn turn = expected.turns().get(k);
                assertEquals(Math.round(turn.delayUs() * 1_000.0 / speedup),
                    t.get("scheduled_ns").asLong() - before.get("end_ns").asLong(),
                    expected.id() + " turn " + k + ": its delay / speedup after the previous turn ended");
            }
        }
    }

    @Test
    @Tag("slow")
    void shouldReplayAiperfSessionsWithHistoryOnTheirDelaysAndFindTheirSharedPrefixInTheCache() throws Exception
    {
        final Path trace = sample("aiperf-inference-day-2026.jsonl");
        final double speedup = 50;
        try (SimServer server = SimServer.start(sim()))
        {
            final RunOptionsBuilder o = options(server, trace, "mooncake").fixedSchedule(true).traceSpeedup(speedup);
            o.preflight(false).model("tokenclock-sim");
            final RunResult r = run(o);
            assertEquals(32, r.counts().ok());
            final Map<String, List<JsonNode>> sessions = sessions();
            try (SessionTrace t = SessionTrace.open(trace, "mooncake", 0, true))
            {
                assertEquals(t.sessions(), sessions.size());
                for (int k = 0; k < t.sessions(); k++)
                {
                    final TraceSession s = t.load(k);
                    assertTurnsFollowTheTrace(s, sessions.get(s.id()), speedup);
                    assertHistory(s, sessions.get(s.id()));
                }
            }
            long firstTurnsCached = 0;
            for (final List<JsonNode> turns : sessions.values())
            {
                firstTurnsCached += turns.get(0).get("cached_tokens").asLong();
                for (final JsonNode later : turns.subList(1, turns.size()))
                {
                    final long gap = later.get("ideal_cached_tokens").asLong() - later.get("cached_tokens").asLong();
                    assertTrue(gap >= 0 && gap < SIM_BLOCK, "the history, in full blocks of the cache: gap " + gap);
                }
            }
            assertEquals(2 * 63 * 512, firstTurnsCached, "the three sessions open with the same 63 blocks of 512 " +
                "tokens: byte-identical text, found in the cache by two of them");
            assertCacheFiguresAgree(server);
        }
    }

    /** Each turn's prompt is the trace's inputs so far and the answers the server gave before it. */
    private static void assertHistory(final TraceSession s, final List<JsonNode> turns)
    {
        long expected = 0;
        for (int k = 0; k < turns.size(); k++)
        {
            expected += s.turns().get(k).inputLength();
            assertEquals(expected, turns.get(k).get("usage_prompt_tokens").asLong(), s.id() + " turn " + k);
            final String answer = turns.get(k).get("output_text").asText().strip();
            expected += answer.isEmpty() ? 0 : answer.split("\\s+").length;
        }
    }

    /** The record's cached tokens are the requests' sum, and the server's counters say the same of the window. */
    private void assertCacheFiguresAgree(final SimServer server) throws Exception
    {
        long cached = 0;
        long input = 0;
        for (final String line : Files.readAllLines(dir.resolve("requests.jsonl")))
        {
            final JsonNode n = JSON.readTree(line);
            cached += n.get("cached_tokens").asLong();
            input += n.get("usage_prompt_tokens").asLong();
        }
        final JsonNode report = record().path("report");
        final JsonNode cache = report.path("cache");
        assertEquals(cached, cache.path("cached_tokens").asLong());
        assertEquals((double)cached / input, cache.path("hit_rate").asDouble(), 1e-12);
        assertEquals(server.engine().prefixHitsTotal(), report.path("server").path("counters")
            .path("prefix_cache_hits").path("delta").asLong(), "no request outside the window (no preflight)");
        assertEquals((double)server.engine().prefixHitsTotal() / server.engine().prefixQueriesTotal(),
            cache.path("server_hit_rate").asDouble(), 1e-12);
        assertTrue(cache.path("ideal_hit_rate").asDouble() >= cache.path("hit_rate").asDouble(),
            "no cache does better than the ideal");
    }

    /**
     * Each API that generates reports the cache in its own words; the record has one field for them all. (Embeddings
     * and rerank answer whole, with no cached tokens in their usage: a trace on them is refused, BadTraceCliTest.)
     */
    @ParameterizedTest
    @EnumSource(value = Api.class, mode = EnumSource.Mode.EXCLUDE, names = {"EMBEDDINGS", "RERANK"})
    void shouldFindEveryBlockSeenBeforeAsTheIdealSaysOnAMooncakeTraceOfWholeBlocks(final Api api) throws Exception
    {
        final Path trace = dir.resolve("whole-blocks.jsonl");
        Files.write(trace, List.of(
            "{\"timestamp\":0,\"input_length\":96,\"output_length\":3,\"hash_ids\":[1,2,3]}",
            "{\"timestamp\":60,\"input_length\":64,\"output_length\":3,\"hash_ids\":[1,2]}",
            "{\"timestamp\":120,\"input_length\":96,\"output_length\":3,\"hash_ids\":[1,2,4]}",
            "{\"timestamp\":180,\"input_length\":64,\"output_length\":3,\"hash_ids\":[5,6]}",
            "{\"timestamp\":240,\"input_length\":80,\"output_length\":3,\"hash_ids\":[1,2,7]}"));
        try (SimServer server = SimServer.start(sim()))
        {
            final RunOptionsBuilder o = options(server, trace, "mooncake").fixedSchedule(true)
                .set(RunOption.BLOCK_SIZE, 32);
            o.preflight(false).model("tokenclock-sim").api(api);
            o.price(new PriceModel.Api("USD", 1_000_000, 0, 100_000, 0));
            run(o);
            final List<JsonNode> lines = new ArrayList<>();
            for (final String line : Files.readAllLines(dir.resolve("requests.jsonl")))
            {
                lines.add(JSON.readTree(line));
            }
            lines.sort(Comparator.comparingLong(n -> n.get("scheduled_ns").asLong()));
            assertEquals(List.of(0L, 64L, 64L, 0L, 64L), lines.stream().map(n -> n.get("ideal_cached_tokens")
                .asLong()).toList(), "blocks 1 and 2 seen before; block 7 is a partial one of 16 tokens, new");
            assertEquals(List.of(0L, 64L, 64L, 0L, 64L), lines.stream().map(n -> n.get("cached_tokens").asLong())
                .toList(), "the simulator's cache finds exactly those, read from " + api + "'s usage");
            assertTrue(lines.stream().allMatch(n -> api.word().equals(n.get("api").asText())));
            final JsonNode cache = record().path("report").path("cache");
            assertEquals(192.0 / 400, cache.path("ideal_hit_rate").asDouble(), 1e-12);
            assertEquals(192.0 / 400, cache.path("hit_rate").asDouble(), 1e-12);
            assertEquals(192.0 / 400, cache.path("server_hit_rate").asDouble(), 1e-12);
            final JsonNode cost = record().path("report").path("cost");
            assertEquals(208 * 1.0 + 192 * 0.1, cost.path("run_total").asDouble(), 1e-9,
                "208 uncached input tokens at 1 USD each, the 192 cached ones at 0.1: " + cost.path("arithmetic"));
            assertTrue(lines.stream().noneMatch(n -> n.has("session_id")), "rows without a session are no session");
        }
    }

    @Test
    @Tag("slow")
    void shouldReplayTraceLabRoundsWithTheirPrefixReuseFoundExactlyInTheCache() throws Exception
    {
        final Path trace = sample("tracelab-example-sessions.jsonl");
        final double speedup = 100;
        try (SimServer server = SimServer.start(sim()))
        {
            final RunOptionsBuilder o = options(server, trace, "tracelab").concurrency(2).traceSpeedup(speedup);
            o.preflight(false).model("tokenclock-sim");
            final RunResult r = run(o);
            assertEquals(19, r.counts().ok());
            final Map<String, List<JsonNode>> sessions = sessions();
            try (SessionTrace t = SessionTrace.open(trace, "tracelab", 0, false))
            {
                for (int k = 0; k < t.sessions(); k++)
                {
                    final TraceSession s = t.load(k);
                    assertTurnsFollowTheTrace(s, sessions.get(s.id()), speedup);
                }
            }
            for (final List<JsonNode> turns : sessions.values())
            {
                for (final JsonNode turn : turns)
                {
                    assertEquals(turn.get("ideal_cached_tokens").asLong(), turn.get("cached_tokens").asLong(),
                        "the previous round's prefix blocks, whole blocks of 64 tokens");
                }
            }
            assertCacheFiguresAgree(server);
            final JsonNode report = record().path("report").path("sessions");
            assertEquals("tracelab", report.path("format").asText());
            assertEquals(2, report.path("completed").asInt());
            assertEquals(19, report.path("turns").asInt());
            assertEquals(speedup, report.path("trace_speedup").asDouble());
        }
    }

    @Test
    @Tag("slow")
    void shouldSendEveryTurnOnceAcrossTwoShardsAndMergeTheirCacheAndSessionFigures() throws Exception
    {
        final Path trace = sample("aiperf-inference-day-2026.jsonl");
        final List<Path> shards = new ArrayList<>();
        try (SimServer server = SimServer.start(sim()))
        {
            for (int index = 0; index < 2; index++)
            {
                final RunOptionsBuilder o = options(server, trace, "mooncake").fixedSchedule(true).traceSpeedup(50);
                o.preflight(false).model("tokenclock-sim").outputDir(dir.resolve("shard-" + index));
                o.shard(new ShardSpec(new Stripe(index, 2), null, ShardSpec.DEFAULT_TOLERANCE_S));
                run(o);
                shards.add(dir.resolve("shard-" + index));
            }
        }
        final List<Integer> sessionsPerShard = new ArrayList<>();
        for (final Path shard : shards)
        {
            sessionsPerShard.add(JSON.readTree(shard.resolve("record.json").toFile()).path("report").path("sessions")
                .path("sessions").asInt());
        }
        assertEquals(List.of(2, 1), sessionsPerShard, "sessions 0 and 2 to shard 0, session 1 to shard 1");
        final Path merged = ShardMerge.merge(dir.resolve("merged"), shards).dir();
        final JsonNode report = JSON.readTree(merged.resolve("record.json").toFile()).path("report");
        assertEquals(32, report.path("counts").path("ok").asLong(), "each of the trace's 32 turns sent once");
        assertEquals(32, report.path("sessions").path("turns").asLong());
        assertEquals(3, report.path("sessions").path("completed").asLong());
        long cached = 0;
        long input = 0;
        for (final String line : Files.readAllLines(merged.resolve("requests.jsonl")))
        {
            final JsonNode n = JSON.readTree(line);
            cached += n.get("cached_tokens").asLong();
            input += n.get("usage_prompt_tokens").asLong();
        }
        assertEquals(cached, report.path("cache").path("cached_tokens").asLong());
        assertEquals((double)cached / input, report.path("cache").path("hit_rate").asDouble(), 1e-12);
    }

    @Test
    @Tag("slow")
    void shouldRunWekaSubagentsBesideTheirParentAtTheTimesTheTraceGives() throws Exception
    {
        final Path trace = sample("weka-trace_0291.json");
        final double speedup = 1_000;
        try (SimServer server = SimServer.start(sim()))
        {
            final RunOptionsBuilder o = options(server, trace, "weka").fixedSchedule(true).traceSpeedup(speedup);
            o.preflight(false).model("tokenclock-sim");
            final RunResult r = run(o);
            assertEquals(32, r.counts().ok());
            final Map<String, List<JsonNode>> sessions = sessions();
            assertEquals(List.of("trace_0291", "trace_0291/agent_001", "trace_0291/agent_002"),
                sessions.keySet().stream().sorted().toList());
            try (SessionTrace t = SessionTrace.open(trace, "weka", 0, true))
            {
                final TraceSession s = t.load(0);
                final List<JsonNode> parent = sessions.get("trace_0291");
                assertTurnsFollowTheTrace(s, parent, speedup);
                final long spawnedAt = parent.get(15).get("end_ns").asLong();
                for (final TraceSession.Spawn spawn : s.spawns())
                {
                    final List<JsonNode> child = sessions.get(spawn.child().id());
                    assertTurnsFollowTheTrace(spawn.child(), child, speedup);
                    assertEquals(Math.round(spawn.delayUs() * 1_000.0 / speedup),
                        child.get(0).get("scheduled_ns").asLong() - spawnedAt, "started when the parent's turn said");
                }
            }
            // Summed, not per turn: a turn's ideal counts the blocks sent before it (TraceSessionDriverTest holds
            // that per turn, on a hand-set clock), but a subagent's turn and its parent's, sent microseconds apart on
            // two connections, may reach the simulator in the other order; the run's sum is the same either way.
            long cached = 0;
            long ideal = 0;
            for (final List<JsonNode> turns : sessions.values())
            {
                for (final JsonNode turn : turns)
                {
                    cached += turn.get("cached_tokens").asLong();
                    ideal += turn.get("ideal_cached_tokens").asLong();
                }
            }
            assertTrue(cached <= ideal, "no cache finds more than the ideal: " + cached + " vs " + ideal);
            final JsonNode report = record().path("report").path("sessions");
            assertEquals(2, report.path("subagents").asInt());
            assertEquals(1, report.path("completed").asInt());
        }
    }

    @Test
    void shouldReportTheSpeculativeDecodersAcceptanceAsTheSimulatorCountedIt() throws Exception
    {
        try (SimServer server = SimServer.start(sim().tokensPerChunk(1).specTokens(3).specAcceptance(0.6)))
        {
            final RunOptionsBuilder o = SimServerExtension.options(server, dir);
            o.concurrency(1).requests(12L).maxTokens(120).serverMetricsIntervalMs(100);
            o.preflight(false).model("tokenclock-sim");
            final RunResult r = run(o);
            final JsonNode spec = record().path("report").path("server").path("spec_decode");
            final long drafts = server.engine().specDraftsTotal();
            final long accepted = server.engine().specAcceptedTotal();
            assertEquals(drafts, spec.path("drafts").asLong());
            assertEquals(3 * drafts, spec.path("draft_tokens").asLong());
            assertEquals(accepted, spec.path("accepted_tokens").asLong());
            assertEquals((double)accepted / (3 * drafts), spec.path("acceptance_rate").asDouble(), 1e-12);
            final double meanLength = 1 + (double)accepted / drafts;
            assertEquals(meanLength, spec.path("mean_accepted_length").asDouble(), 1e-12);
            final double tokensPerChunk = (double)r.counts().get(io.tokenclock.metrics.Counter.OUTPUT_TOKENS) /
                r.counts().get(io.tokenclock.metrics.Counter.CHUNKS);
            assertEquals(meanLength, tokensPerChunk, 0.1 * meanLength,
                "a step's tokens arrive as one chunk: the client sees the same acceptance");
        }
    }
}
