package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.tokenclock.config.AgentSpec;
import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.FaultKind;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.goodput.Slo;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.ConcurrencySchedule;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.run.RunResult;
import io.tokenclock.testing.SimServerExtension;
import io.tokenclock.transport.Stamping;
import io.tokenclock.workload.SharedPrefixes;

/**
 * The runner end to end against the simulated server on loopback. Bounds are generous (they assert that the harness
 * measures what the server was configured to do, not how fast this machine is), but each would fail on a harness that
 * counted the role chunk as a token, lost chunks, or timed from the wrong stamp.
 */
@Timeout(120)
final class BenchmarkRunnerIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static SimConfig fixedDelays()
    {
        return new SimConfig().prefillBaseMs(40).prefillPerInputTokenMs(0).decodeBaseMs(10).decodePerSeqMs(0)
            .jitter(0).roleChunk(true).tokensPerChunk(1);
    }

    private RunOptionsBuilder options(final SimServer server)
    {
        return SimServerExtension.options(server, dir);
    }

    private static RunResult run(final RunOptionsBuilder o) throws Exception
    {
        return new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));
    }

    private List<JsonNode> requests() throws Exception
    {
        final List<JsonNode> lines = new ArrayList<>();
        for (final String line : Files.readAllLines(dir.resolve("requests.jsonl")))
        {
            lines.add(JSON.readTree(line));
        }
        return lines;
    }

    @Test
    void shouldMeasureConfiguredTtftAndItlOfTheSimulatedServer() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays()))
        {
            final RunOptionsBuilder o = options(server);
            o.concurrency(1);
            o.requests(8L);
            o.warmupRequests(2);
            final RunResult r = run(o);

            assertEquals(8, r.counts().ok());
            assertEquals(2, r.counts().get(Counter.WARMUP_REQUESTS));
            final Distribution ttft = r.distributions().get(Metric.TTFT);
            assertEquals(8, ttft.count());
            assertTrue(ttft.min() >= 40.0, "TTFT can't beat the 40 ms prefill (the role chunk is no token): " + ttft);
            assertTrue(ttft.p50() < 55.0, "TTFT p50 near the configured 40 ms: " + ttft);
            final Distribution icl = r.distributions().get(Metric.INTER_CHUNK_LATENCY);
            assertEquals(8 * 19, icl.count(), "19 gaps between 20 single-token chunks, nothing lost");
            assertTrue(icl.p50() >= 9.0 && icl.p50() < 12.0, "chunk gaps near the configured 10 ms: " + icl);
            final Distribution tpot = r.distributions().get(Metric.TPOT);
            assertTrue(tpot.mean() >= 9.5 && tpot.mean() < 12.0, "TPOT near 10 ms: " + tpot);
            assertEquals(8 * 20, r.counts().get(Counter.OUTPUT_TOKENS));

            final List<JsonNode> lines = requests();
            assertEquals(10, lines.size(), "warmup included in requests.jsonl");
            assertEquals("warmup", lines.get(0).get("phase").asText());
            assertEquals(0, lines.stream().filter(l -> l.get("new_connection").asBoolean()).count(),
                "the connection was opened before t0, not by the first request");
            assertEquals(1, lines.stream().map(l -> l.get("connection").asInt()).distinct().count(),
                "concurrency 1: one connection, kept alive for every request");
            for (final JsonNode line : lines)
            {
                assertEquals("ok", line.get("status").asText());
                assertEquals(20, line.get("chunk_ns").size());
                assertEquals("usage", line.get("token_count_source").asText());
                assertEquals(20, line.get("output_tokens").asInt());
                assertTrue(line.get("first_token_ns").asLong() > line.get("sent_ns").asLong());
                assertTrue(line.get("end_ns").asLong() >= line.get("chunk_ns").get(19).asLong());
                assertTrue(line.get("response_id").asText().startsWith("chatcmpl-"));
                assertTrue(line.get("done_marker").asBoolean());
                assertEquals("length", line.get("finish_reason").asText());
            }

            final JsonNode record = JSON.readTree(dir.resolve("record.json").toFile());
            for (final String section : List.of("model", "runtime", "hardware", "workload", "load", "measurement",
                "report", "grade"))
            {
                assertNotNull(record.get(section), "record.json has section " + section);
            }
            assertEquals("local-debugging", record.get("grade").get("grade").asText());
            final JsonNode cost = record.get("measurement").get("client_cost");
            assertTrue(cost.get("cpu_user_s").asDouble() > 0 && cost.get("peak_heap_bytes").asLong() > 0,
                cost.toString());
            assertEquals(8, record.get("report").get("counts").get("ok").asInt());
            assertEquals("tokenclock-sim", record.get("model").get("served_models").get(0).asText());
        }
    }

    @Test
    void shouldTimeOpenLoopFromTheScheduleAndReportSendLag() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(5).decodeBaseMs(2)))
        {
            final RunOptionsBuilder o = options(server);
            o.rate(40.0);
            o.arrival(ArrivalProcess.Kind.CONSTANT);
            o.requests(20L);
            o.maxTokens(5);
            final RunResult r = run(o);
            assertEquals(20, r.counts().ok());
            final List<JsonNode> lines = requests();
            lines.sort(Comparator.comparingLong(l -> l.get("id").asLong()));
            long previous = 0;
            for (final JsonNode line : lines)
            {
                final long scheduled = line.get("scheduled_ns").asLong();
                if (previous != 0)
                {
                    assertEquals(25_000_000, scheduled - previous, 1, "constant 40/s schedule: 25 ms apart");
                }
                previous = scheduled;
                assertTrue(line.get("sent_ns").asLong() >= scheduled, "never sent before its intended start");
                assertTrue(line.get("ttft_from_schedule_ms").asDouble() >= line.get("ttft_ms").asDouble());
            }
            assertEquals(20, r.distributions().get(Metric.SEND_LAG).count());
        }
    }

    @Test
    void shouldShowCoordinatedOmissionWhenTheConcurrencyCapHoldsSendsBack() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(1).decodeBaseMs(20)))
        {
            final RunOptionsBuilder o = options(server);
            o.rate(50.0);
            o.arrival(ArrivalProcess.Kind.CONSTANT);
            o.maxConcurrency(1);
            o.requests(10L);
            o.maxTokens(5);
            final RunResult r = run(o);
            assertEquals(10, r.counts().ok());
            final Distribution lag = r.distributions().get(Metric.SEND_LAG);
            assertTrue(lag.max() > 100.0, "each ~100 ms request holds the next 20 ms arrival back: " + lag);
            assertTrue(r.distributions().get(Metric.TTFT_FROM_SCHEDULE).p50() >
                r.distributions().get(Metric.TTFT).p50() + 50.0, "TTFT from schedule includes the wait");
        }
    }

    /** Both clients decode with the same {@code HttpResponseDecoder} and classify with the same rules. */
    @ParameterizedTest
    @EnumSource(Stamping.class)
    void shouldClassifyEveryServerFaultAndKeepRunningOnEitherClient(final Stamping stamping) throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(1).decodeBaseMs(1)))
        {
            final String[][] faults = {{"http_500", "http_5xx"}, {"http_429", "http_429"}, {"cut", "stream_cut"},
                {"malformed", "malformed_event"}, {"error_event", "error_event"}, {"truncate", "truncated"},
                {"not_streaming", "not_streaming"}, {"garbage", "protocol"}, {"error_hang", "error_event"}};
            for (final String[] fault : faults)
            {
                final RunOptionsBuilder o = options(server);
                o.concurrency(2);
                o.requests(4L);
                o.maxTokens(8);
                o.preflight(false);
                o.model("m");
                o.extraBody("{\"sim_fault\":\"" + fault[0] + "\"}");
                o.force(true); // one directory, replaced fault after fault
                o.timeoutS(20); // error_hang must end at its error event, not at this timeout
                o.stamping(stamping);
                final RunResult r = run(o);
                assertEquals(0, r.counts().ok(), fault[0]);
                assertEquals(4L, r.counts().errorsByClass().get(fault[1]), fault[0] + " -> " +
                    r.counts().errorsByClass());
                for (final JsonNode line : requests())
                {
                    assertEquals("error", line.get("status").asText());
                    assertEquals(fault[1], line.get("error").asText());
                    assertFalse(line.get("error_detail").isNull(), "a detail says what happened");
                    assertFalse(line.get("error_detail").asText().chars().anyMatch(c -> c < 0x20 || c == 0x7f),
                        "server text is escaped: " + line.get("error_detail"));
                    assertEquals(fault[0].equals("http_429") ? "1000" : "null", line.get("retry_after_ms").asText(),
                        "the simulator's Retry-After: 1 is recorded");
                }
            }
        }
    }

    @Test
    void shouldCountTruncatedStreamsAndTakeThemAsOkOnlyWhenAccepted() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(1).decodeBaseMs(1)))
        {
            final RunOptionsBuilder o = options(server);
            o.concurrency(2);
            o.requests(4L);
            o.maxTokens(8);
            o.preflight(false);
            o.model("m");
            o.extraBody("{\"sim_fault\":\"truncate\"}");
            o.acceptTruncated(true);
            final RunResult r = run(o);
            assertEquals(4, r.counts().ok(), "accepted");
            assertEquals(4, r.counts().get(Counter.TRUNCATED), "and still counted");
            assertEquals(4, JSON.readTree(dir.resolve("record.json").toFile()).path("report").path("counts")
                .path("truncated").asLong());
            for (final JsonNode line : requests())
            {
                assertEquals("ok", line.get("status").asText());
                assertTrue(line.get("truncated").asBoolean(), line.toString());
                assertTrue(line.get("chunks").asInt() > 0, "its tokens are kept");
            }
        }
    }

    @Test
    void shouldCancelWhatOutlivesTheDrainPeriodAndCountIt() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(1).decodeBaseMs(50)))
        {
            final RunOptionsBuilder o = options(server);
            o.concurrency(3);
            o.durationS(0.2);
            o.drainTimeoutS(0.3);
            o.maxTokens(200);
            final RunResult r = run(o);
            assertTrue(r.counts().cancelled() >= 3, "10 s requests cut by a 0.3 s drain: " + r.counts().cancelled());
            final JsonNode cancelled = requests().stream().filter(l -> l.get("status").asText().equals("cancelled"))
                .findFirst().orElseThrow();
            assertTrue(cancelled.get("chunk_ns").size() > 0, "tokens received before the cancel are kept");
            assertTrue(server.engine().abortedTotal() >= 3 || server.engine().running() == 0,
                "the server saw the disconnect");
        }
    }

    @Test
    void shouldCancelByRuleAfterKTokensAndCountTheWastedWork() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(1).decodeBaseMs(3)))
        {
            final RunOptionsBuilder o = options(server);
            o.concurrency(4);
            o.requests(40L);
            o.maxTokens(40);
            o.cancelRate(0.5);
            o.cancelAfterTokens(5);
            final RunResult r = run(o);
            assertTrue(r.counts().cancelled() >= 10 && r.counts().cancelled() <= 30,
                "about half of 40 cancelled: " + r.counts().cancelled());
            assertEquals(40, r.counts().ok() + r.counts().cancelled(), "the rest completed");
            long wasted = 0;
            for (final JsonNode line : requests())
            {
                if (line.get("status").asText().equals("cancelled"))
                {
                    assertEquals("cancel_rule", line.get("error").asText());
                    final int chunks = line.get("chunk_ns").size();
                    assertTrue(chunks >= 5 && chunks < 40, "cancelled once its 5th token arrived: " + chunks);
                    wasted += line.get("output_tokens").asLong();
                }
                else
                {
                    assertEquals(40, line.get("chunk_ns").size());
                }
            }
            assertEquals(wasted, r.counts().get(Counter.WASTED_OUTPUT_TOKENS));
        }
    }

    @Test
    void shouldCancelByRuleAfterADelay() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(1).decodeBaseMs(20)))
        {
            final RunOptionsBuilder o = options(server);
            o.concurrency(2);
            o.requests(4L);
            o.maxTokens(50);
            o.cancelRate(1.0);
            o.cancelAfterMs(100);
            final RunResult r = run(o);
            assertEquals(4, r.counts().cancelled());
            for (final JsonNode line : requests())
            {
                // On the line's own stamps, not on the wall clock. The event loop's timer is armed just before the
                // send stamp and is precise to about 0.1 ms, so the end is at least 100 ms after the send; and it
                // cut the stream while the server was still sending: fewer than the 50 tokens (a second of 20 ms
                // gaps) came, every one between the send and the end.
                final long sentNs = line.get("sent_ns").asLong();
                final long endNs = line.get("end_ns").asLong();
                assertTrue(endNs - sentNs >= 99_000_000L, "cancelled 100 ms after the send: " + line);
                assertEquals((endNs - sentNs) / 1e6, line.get("e2e_ms").asDouble(), 0.001, "e2e is send to cancel");
                final JsonNode chunks = line.get("chunk_ns");
                assertTrue(chunks.size() < 50, "cut before the stream's end: " + chunks.size() + " chunks");
                for (final JsonNode chunkNs : chunks)
                {
                    assertTrue(chunkNs.asLong() > sentNs && chunkNs.asLong() <= endNs,
                        "no chunk after the cancel: " + line);
                }
            }
        }
    }

    @Test
    void shouldMarkCompletionsAfterTheWindowClosedAsLate() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(1).decodeBaseMs(10)))
        {
            final RunOptionsBuilder o = options(server);
            o.concurrency(2);
            o.durationS(0.3);
            o.drainTimeoutS(5);
            o.maxTokens(40);
            final RunResult r = run(o);
            assertEquals(0, r.counts().cancelled(), "every request finished within the grace period");
            assertTrue(r.counts().get(Counter.LATE_COMPLETIONS) >= 2,
                "the last requests of each slot ended after the window");
            long late = 0;
            for (final JsonNode line : requests())
            {
                late += line.get("late").asBoolean() ? 1 : 0;
            }
            assertEquals(r.counts().get(Counter.LATE_COMPLETIONS), late);
        }
    }

    @Test
    void shouldRampThenRunEachStageAndReportItOnItsOwn() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(1).decodeBaseMs(1)))
        {
            final RunOptionsBuilder o = options(server);
            o.arrival(ArrivalProcess.Kind.CONSTANT);
            o.maxTokens(4);
            o.ramp(new RateSchedule.Ramp(10, 40, 0.5, false));
            o.stages(List.of(new RateSchedule.Stage(40, 0.5),
                new RateSchedule.Stage(80, 0.5)));
            final RunResult r = run(o);
            // Unit-rate constant arrivals time-changed: the ramp holds (10 + 40) / 2 * 0.5 = 12.5 expected arrivals
            // (requests 0..12), stage 1 holds 20 (13..32), stage 2 holds 40 (33..72).
            final long ramp = requests().stream().filter(l -> l.get("phase").asText().equals("ramp")).count();
            assertEquals(13, ramp);
            assertEquals(2, r.groups().size());
            assertEquals("stage 1: 40 req/s, 0.5 s", r.groups().get(0).name());
            assertEquals(20, r.groups().get(0).ok());
            assertEquals(40, r.groups().get(1).ok());
            assertEquals(60, r.counts().ok(), "ramp requests are excluded from the measured counts");
        }
    }

    @Test
    void shouldRunUsersWhoThinkAfterEachAnswerAndCarryTheirHistory() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(2).decodeBaseMs(2)))
        {
            final RunOptionsBuilder o = options(server);
            o.users(3);
            o.requests(18L);
            o.maxTokens(6);
            o.inputTokens(10);
            o.sessionTurns(LengthSpec.fixed(3));
            o.thinkTimeMs(LengthSpec.fixed(50));
            o.sticky(true);
            final RunResult r = run(o);
            assertEquals(18, r.counts().ok());
            assertTrue(JSON.readTree(dir.resolve("record.json").toFile()).path("load").path("schedule_hash").isNull(),
                "turns follow the server's answers: no schedule to hash");
            final Map<Integer, List<JsonNode>> byUser = new HashMap<>();
            for (final JsonNode line : requests())
            {
                byUser.computeIfAbsent(line.get("user").asInt(), u -> new ArrayList<>()).add(line);
            }
            assertEquals(3, byUser.size());
            for (final List<JsonNode> turns : byUser.values())
            {
                assertEquals(1, turns.stream().map(l -> l.get("connection").asInt()).distinct().count(),
                    "sticky: every turn of a user on one connection");
                turns.sort(Comparator.comparingLong(l -> l.get("scheduled_ns").asLong()));
                for (int k = 1; k < turns.size(); k++)
                {
                    assertEquals(50_000_000L, turns.get(k).get("scheduled_ns").asLong() -
                        turns.get(k - 1).get("end_ns").asLong(), "the next turn is due 50 ms after the answer");
                    final long previousIn = turns.get(k - 1).get("input_tokens").asLong();
                    final long in = turns.get(k).get("input_tokens").asLong();
                    if (k % 3 != 0)
                    {
                        assertTrue(in > previousIn + 6, "history carried: " + previousIn + " -> " + in);
                    }
                    else
                    {
                        assertTrue(in < previousIn, "a new session starts short: " + previousIn + " -> " + in);
                    }
                }
            }
        }
    }

    @Test
    void shouldMeasureTheColdStartAloneAndPreloadSharedPrefixes() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(30).decodeBaseMs(2)))
        {
            final RunOptionsBuilder o = options(server);
            o.concurrency(3);
            o.requests(9L);
            o.maxTokens(4);
            o.coldStart(true);
            o.prefixes(new SharedPrefixes(5, 2, 8, 0.5));
            o.cachePolicy("preload");
            final RunResult r = run(o);
            assertEquals(9, r.counts().ok(), "the cold request is not among the measured ones");
            assertNotNull(r.coldStart());
            assertTrue(r.coldStart().ttftMs() >= 30.0, "cold TTFT includes the 30 ms prefill: " + r.coldStart());
            final List<JsonNode> lines = requests();
            assertEquals("cold", lines.get(0).get("phase").asText(), "it ran first, alone");
            final long coldEnd = lines.get(0).get("end_ns").asLong();
            for (final JsonNode line : lines.subList(1, lines.size()))
            {
                assertTrue(line.get("sent_ns").asLong() > coldEnd, "nothing overlapped the cold request");
            }
            assertEquals(1 + 2 + 10, server.engine().requestsTotal(), "preflight, 2 preloads, cold + 9 measured");
            final JsonNode record = JSON.readTree(dir.resolve("record.json").toFile());
            assertTrue(record.path("load").path("cache_action").asText().startsWith("preloaded 2 shared prefixes"));
            assertTrue(record.path("report").path("cold_start").path("ttft_ms").asDouble() >= 30.0);
        }
    }

    @Test
    void shouldPlayToolsForAgentsUntilTheModelAnswers() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(2).decodeBaseMs(1).toolSteps(2)))
        {
            final RunOptionsBuilder o = options(server);
            o.users(2);
            o.requests(12L);
            o.maxTokens(8);
            o.agent(new AgentSpec(null, 5, AgentSpec.DEFAULT_MAX_RETRIES, List.of(), AgentSpec.DEFAULT_TOOL_TIMEOUT_MS,
                null, LengthSpec.fixed(20), LengthSpec.fixed(30)));
            o.thinkTimeMs(LengthSpec.fixed(10));
            final RunResult r = run(o);
            assertEquals(12, r.counts().ok());
            assertNotNull(r.tasks());
            assertTrue(r.tasks().tasks() >= 2, "tasks finished: " + r.tasks().tasks());
            assertEquals(r.tasks().tasks(), r.tasks().succeeded(), "each task: two tool calls, then an answer");
            assertEquals(3, r.tasks().steps().getMinValue());
            assertEquals(3, r.tasks().steps().getMaxValue());
            assertTrue(r.tasks().toolSeconds() >= r.tasks().tasks() * 2 * 0.020 * 0.99, "20 ms per tool call");
            final List<JsonNode> lines = requests();
            final long toolCalls = lines.stream().filter(l -> "tool_calls".equals(l.get("finish_reason").asText()))
                .count();
            assertTrue(toolCalls >= 2 * r.tasks().tasks(), "the model asked for tools: " + toolCalls);
            for (final JsonNode line : lines)
            {
                assertTrue(line.get("chunk_ns").size() > 0, "tool-call chunks are generated tokens");
            }
        }
    }

    @Test
    void shouldCountGoodRequestsAgainstTheSlo() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(40).decodeBaseMs(2)))
        {
            final RunOptionsBuilder o = options(server);
            o.concurrency(1);
            o.requests(6L);
            o.maxTokens(5);
            o.slo(Slo.ofMillis(30.0, null, null));
            assertEquals(0, run(o).goodput().good(), "a 40 ms prefill never meets TTFT <= 30 ms");
            o.slo(Slo.ofMillis(500.0, 20.0, 2_000.0));
            o.force(true); // the second run replaces the first on purpose
            final RunResult r = run(o);
            assertEquals(6, r.goodput().good());
            final JsonNode goodput = JSON.readTree(dir.resolve("record.json").toFile()).path("report").path("goodput");
            assertEquals(1.0, goodput.path("good_fraction").asDouble(), 1e-9);
            assertTrue(goodput.path("slo").asText().contains("TTFT <= 500.0 ms"));
        }
    }

    @Test
    void shouldRunClosedLoopConcurrencyStagesOneAfterAnother() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(1).decodeBaseMs(10)))
        {
            final RunOptionsBuilder o = options(server);
            o.maxTokens(5);
            o.concurrencyStages(new ConcurrencySchedule(new int[] {1, 3},
                new double[] {0.5, 0.5}));
            final RunResult r = run(o);
            assertEquals(2, r.groups().size());
            final long first = r.groups().get(0).ok();
            final long second = r.groups().get(1).ok();
            assertTrue(first >= 3 && second > first, "concurrency 1 then 3: " + first + " then " + second);
            final List<JsonNode> measured = requests().stream()
                .filter(l -> l.get("phase").asText().equals("measure"))
                .sorted(Comparator.comparingLong(l -> l.get("sent_ns").asLong())).toList();
            assertEquals(1, maxInFlight(measured.subList(0, (int)first)), "stage 1 runs one request at a time");
            assertEquals(3, maxInFlight(measured.subList((int)first, measured.size())), "stage 2 runs three");
        }
    }

    @Test
    void shouldRampTheConcurrencyBeforeTheMeasuredWindow() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(1).decodeBaseMs(10)))
        {
            final RunOptionsBuilder o = options(server);
            o.maxTokens(5);
            o.concurrency(3);
            o.durationS(0.5);
            o.concurrencyRamp(new RateSchedule.Ramp(1, 3, 0.6, false));
            final RunResult r = run(o);
            final List<JsonNode> ramp = requests().stream().filter(l -> l.get("phase").asText().equals("ramp"))
                .sorted(Comparator.comparingLong(l -> l.get("sent_ns").asLong())).toList();
            assertTrue(ramp.size() >= 3, "requests during the ramp are recorded as ramp: " + ramp.size());
            assertTrue(r.counts().ok() > 0);
            assertEquals(1, maxInFlight(ramp.subList(0, 3)), "the ramp starts at concurrency 1");
            assertEquals(3, maxInFlight(requests().stream().filter(l -> l.get("phase").asText().equals("measure"))
                .toList()), "and reaches 3 in the measured window");
        }
    }

    private static int maxInFlight(final List<JsonNode> requests)
    {
        int max = 0;
        for (final JsonNode a : requests)
        {
            final long t = a.get("sent_ns").asLong();
            int inFlight = 0;
            for (final JsonNode b : requests)
            {
                if (b.get("sent_ns").asLong() <= t && b.get("end_ns").asLong() > t)
                {
                    inFlight++;
                }
            }
            max = Math.max(max, inFlight);
        }
        return max;
    }

    @Test
    void shouldAnswerToolCallsWithADeclaredCommand() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(2).decodeBaseMs(1).toolSteps(2)))
        {
            final RunOptionsBuilder o = options(server);
            o.users(2);
            o.requests(12L);
            o.maxTokens(6);
            o.agent(new AgentSpec(null, 5, AgentSpec.DEFAULT_MAX_RETRIES,
                List.of("sh", "-c", "sleep 0.05; echo result of $TOOL_NAME for; cat"),
                AgentSpec.DEFAULT_TOOL_TIMEOUT_MS,
                null, null, null));
            o.thinkTimeMs(LengthSpec.fixed(5));
            final RunResult r = run(o);
            assertEquals(12, r.counts().ok());
            assertTrue(r.tasks().tasks() >= 2 && r.tasks().succeeded() == r.tasks().tasks(),
                "the tool results reached the model, so it answered: " + r.tasks());
            assertEquals(3, r.tasks().steps().getMinValue());
            assertTrue(r.tasks().toolSeconds() >= r.tasks().tasks() * 2 * 0.05,
                "tool time is the commands' real time: " + r.tasks().toolSeconds());
        }
    }

    /**
     * A tool command is a program the contract names, as a quality check's command is: it gets the basic variables
     * only (secrets.ChildEnvironment), never tokenclock's environment, which holds the run's keys.
     */
    @Test
    void shouldStartTheToolCommandWithoutTokenclocksEnvironment() throws Exception
    {
        final Set<String> basic = Set.of("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ",
            "TMPDIR", "SYSTEMROOT", "TEMP", "TMP");
        assertTrue(System.getenv().keySet().stream().anyMatch(n -> !basic.contains(n)),
            "this JVM has a variable beyond the basic ones to leak: " + System.getenv().keySet());
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(2).decodeBaseMs(1).toolSteps(1)))
        {
            final RunOptionsBuilder o = options(server);
            o.users(1);
            o.requests(2L);
            o.maxTokens(6);
            final Path env = dir.resolve("tool-env");
            o.agent(new AgentSpec(null, 3, AgentSpec.DEFAULT_MAX_RETRIES,
                List.of("sh", "-c", "env > '" + env + "'; cat"), AgentSpec.DEFAULT_TOOL_TIMEOUT_MS, null, null,
                null));
            o.thinkTimeMs(LengthSpec.fixed(5));
            run(o);
            final Set<String> names = new TreeSet<>();
            Files.readAllLines(env).forEach(l -> names.add(l.substring(0, Math.max(0, l.indexOf('=')))));
            // what sh itself sets (PWD, SHLVL, _) and what the tool is told (TOOL_NAME, TOOL_CALL_ID) aside
            names.removeAll(Set.of("PWD", "OLDPWD", "SHLVL", "_", "TOOL_NAME", "TOOL_CALL_ID", ""));
            names.removeAll(basic);
            assertEquals(Set.of(), names, "variables of tokenclock's environment the tool got");
        }
    }

    @Test
    void shouldRetryFailedAgentStepsBeforeGivingTheTaskUp() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(2).decodeBaseMs(1).toolSteps(1)
            .faultRate(0.3).faultKinds(FaultKind.HTTP_500)))
        {
            final RunOptionsBuilder o = options(server);
            o.users(2);
            o.requests(30L);
            o.maxTokens(6);
            o.preflight(false);
            o.model("m");
            o.agent(new AgentSpec(null, 4, 5, List.of(), AgentSpec.DEFAULT_TOOL_TIMEOUT_MS, null, LengthSpec.fixed(5),
                null));
            o.thinkTimeMs(LengthSpec.fixed(5));
            final RunResult r = run(o);
            assertTrue(r.counts().errors() > 0, "the simulator failed some requests: " + r.counts().errors());
            // Every failed request is either retried or fails its task, except a user's last request of the run.
            final long accounted = r.tasks().retries() + r.tasks().failedRequests();
            assertTrue(accounted <= r.counts().errors() && r.counts().errors() <= accounted + 2,
                r.tasks().retries() + " retries + " + r.tasks().failedRequests() + " failed tasks vs " +
                r.counts().errors() + " errors");
            assertTrue(r.tasks().retries() > 0);
            assertTrue(r.tasks().succeeded() > 0);
            assertEquals(2, r.tasks().steps().getMinValue(), "retries are not steps: one tool call, then the answer");
        }
    }

    @Test
    void shouldEndTimedOutRequestsAsTimeouts() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(1).decodeBaseMs(100)))
        {
            final RunOptionsBuilder o = options(server);
            o.concurrency(1);
            o.requests(2L);
            o.timeoutS(0.3);
            o.maxTokens(50);
            final RunResult r = run(o);
            assertEquals(2L, r.counts().errorsByClass().get("timeout_total"));
        }
    }

    @Test
    void shouldClassASilentStreamAsIdleAndAMuteServerAsFirstByteTimeouts() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(1).decodeBaseMs(600)))
        {
            final RunOptionsBuilder o = options(server);
            o.concurrency(1);
            o.requests(2L);
            o.maxTokens(5);
            o.idleTimeoutS(0.2);
            // the preflight is held to the same idle limit and would refuse this server before the run (WaitReadyIT)
            o.preflight(false);
            o.model("m");
            final RunResult r = run(o);
            assertEquals(2L, r.counts().errorsByClass().get("timeout_idle"), r.counts().errorsByClass().toString());
        }
        // A server that accepts and reads, and never answers a byte.
        try (ServerSocket mute = new ServerSocket(0, 50, InetAddress.getLoopbackAddress()))
        {
            final Thread acceptor = new Thread(() ->
            {
                final List<Socket> held = new ArrayList<>();
                try
                {
                    while (!mute.isClosed())
                    {
                        held.add(mute.accept());
                    }
                }
                catch (final IOException closed)
                {
                    held.forEach(s ->
                    {
                        try
                        {
                            s.close();
                        }
                        catch (final IOException ignored)
                        {
                        }
                    });
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            final RunOptionsBuilder o = RunOptions.builder();
            o.url("http://127.0.0.1:" + mute.getLocalPort() + "/v1");
            o.model("m");
            o.preflight(false);
            o.progress(false);
            o.outputDir(dir);
            o.force(true);
            o.concurrency(1);
            o.requests(2L);
            o.firstByteTimeoutS(0.3);
            final RunResult r = run(o);
            assertEquals(2L, r.counts().errorsByClass().get("timeout_first_byte"),
                r.counts().errorsByClass().toString());
            assertTrue(requests().get(0).get("error_detail").asText().contains("--first-byte-timeout"));
        }
    }

    @Test
    void shouldClassAConnectionThatNeverOpensAsAConnectTimeout() throws Exception
    {
        // A listener that never accepts, its accept queue filled: the kernel drops further SYNs, so a connect hangs.
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final List<Socket> fillers = new ArrayList<>();
            try
            {
                for (int i = 0; i < 8; i++)
                {
                    final Socket s = new Socket();
                    try
                    {
                        s.connect(new InetSocketAddress(full.getInetAddress(), full.getLocalPort()), 200);
                        fillers.add(s);
                    }
                    catch (final IOException queueFull)
                    {
                        s.close();
                        break;
                    }
                }
                final RunOptionsBuilder o = RunOptions.builder();
                o.url("http://127.0.0.1:" + full.getLocalPort() + "/v1");
                o.model("m");
                o.preflight(false);
                o.progress(false);
                o.outputDir(dir);
                o.force(true);
                o.concurrency(1);
                o.requests(1L);
                o.connectTimeoutS(0.5);
                final RunResult r = run(o);
                assertEquals(1L, r.counts().errorsByClass().get("timeout_connect"),
                    r.counts().errorsByClass().toString());
                assertTrue(requests().get(0).get("error_detail").asText().contains("--connect-timeout"));
            }
            finally
            {
                for (final Socket s : fillers)
                {
                    s.close();
                }
            }
        }
    }

    @Test
    void shouldFailFastWithOneLineWhenTheServerIsUnreachable() throws Exception
    {
        final RunOptionsBuilder o = RunOptions.builder();
        o.url("http://127.0.0.1:1/v1");
        o.concurrency(1);
        o.outputDir(dir);
        final Exception ex = org.junit.jupiter.api.Assertions.assertThrows(ServerProbe.UnreachableException.class,
            () -> run(o));
        assertTrue(ex.getMessage().contains("cannot connect to http://127.0.0.1:1"), ex.getMessage());
        assertFalse(ex.getMessage().contains("\n"));
    }

    @Test
    void shouldRejectAWrongPathWithAHint() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays()))
        {
            final RunOptionsBuilder o = options(server);
            o.url("http://127.0.0.1:" + server.port() + "/v2");
            o.model("m");
            o.concurrency(1);
            final Exception ex = org.junit.jupiter.api.Assertions.assertThrows(
                ServerProbe.UnreachableException.class, () -> run(o));
            assertTrue(ex.getMessage().contains("404"), ex.getMessage());
        }
    }
}
