package io.tokenclock.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.json.Json;
import io.tokenclock.metrics.Metric;
import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.record.RunRecord;
import io.tokenclock.report.HistogramLogs;
import io.tokenclock.results.Index;
import io.tokenclock.results.Kind;
import io.tokenclock.results.Result;
import io.tokenclock.results.Results;

/**
 * Every kind of result exports as llm-d Benchmark Reports that validate against llm-d's own JSON Schema, with the
 * record's figures in the slots the schema gives them.
 */
final class LlmdReportTest
{
    private static final Path GOLDEN = Path.of("src", "test", "resources", "io", "tokenclock", "report", "golden");
    private static final Path PEERS = Path.of("src", "test", "resources", "io", "tokenclock", "peers");

    @TempDir
    Path dir;

    /** @return a run directory at {@code at} holding golden record {@code name}. */
    private static Path run(final Path at, final String name) throws IOException
    {
        Files.createDirectories(at);
        Files.copy(GOLDEN.resolve(name), at.resolve("record.json"));
        return at;
    }

    /**
     * Makes {@code run}'s record count {@code measured} and {@code warmup} requests, so that it agrees with the
     * requests.jsonl a test writes beside it (results.RequestsFile refuses a pair that disagrees).
     */
    private static void counted(final Path run, final int measured, final int warmup) throws IOException
    {
        final ObjectNode record = (ObjectNode)Json.MAPPER.readTree(run.resolve("record.json").toFile());
        ((ObjectNode)record.path("report").path("counts")).put("measured", measured).put("warmup", warmup);
        Json.PRETTY.writeValue(run.resolve("record.json").toFile(), record);
    }

    /** @return the reports of the result at {@code path}, each checked against the schema first. */
    private static List<JsonNode> reports(final Path path) throws IOException
    {
        final List<JsonNode> reports = new ArrayList<>();
        for (final LlmdReport.Report r : LlmdReport.of(Results.open(path)))
        {
            assertEquals(List.of(), LlmdSchema.errors(r.report()), path + " " + r.role() + ": " + r.report());
            reports.add(r.report());
        }
        return reports;
    }

    private static JsonNode only(final Path path) throws IOException
    {
        final List<JsonNode> reports = reports(path);
        assertEquals(1, reports.size(), path.toString());
        return reports.get(0);
    }

    private static JsonNode aggregate(final JsonNode report)
    {
        return report.path("results").path("request_performance").path("aggregate");
    }

    @Test
    void shouldExportARunWithTheRecordsFiguresInTheSchemasUnits() throws IOException
    {
        final JsonNode r = only(run(dir.resolve("one"), "full-record.json"));
        final RunRecord record = RecordJson.read(GOLDEN.resolve("full-record.json"));
        assertEquals(LlmdReport.VERSION, r.path("version").asText());
        assertEquals("full", r.path("run").path("uid").asText());
        assertEquals("golden", r.path("run").path("pid").asText());
        assertEquals("2025-01-02T03:04:05.678Z", r.path("run").path("time").path("start").asText());
        assertEquals("PT30S", r.path("run").path("time").path("duration").asText());
        final JsonNode latency = aggregate(r).path("latency");
        assertStats(record.report().distribution("ttft"), "ms", latency.path("time_to_first_token"));
        assertStats(record.report().distribution("tpot"), "ms/token", latency.path("time_per_output_token"));
        assertStats(record.report().distribution("token_itl"), "ms/token", latency.path("inter_token_latency"));
        assertStats(record.report().distribution("e2e"), "ms", latency.path("request_latency"));
        final JsonNode requests = aggregate(r).path("requests");
        assertEquals(220, requests.path("total").asLong());
        assertEquals(4, requests.path("failures").asLong());
        assertEquals(20, requests.path("incomplete").asLong());
        assertStats(record.report().distribution("input_tokens"), "count", requests.path("input_length"));
        assertStats(record.report().distribution("output_tokens"), "count", requests.path("output_length"));
        final JsonNode throughput = aggregate(r).path("throughput");
        assertEquals(1300.0, throughput.path("output_token_rate").path("mean").asDouble());
        assertEquals("tokens/s", throughput.path("output_token_rate").path("units").asText());
        assertEquals(1300.0 + 3266.6666666666665, throughput.path("total_token_rate").path("mean").asDouble(), 1e-9);
        assertEquals("queries/s", throughput.path("request_rate").path("units").asText());
        assertEquals(6.533333333333333, throughput.path("request_rate").path("mean").asDouble());
    }

    private static void assertStats(final Dist expected, final String units, final JsonNode actual)
    {
        assertEquals(units, actual.path("units").asText(), actual.toString());
        assertEquals(expected.mean(), actual.path("mean").asDouble(), actual.toString());
        assertEquals(expected.stdev(), actual.path("stddev").asDouble(), actual.toString());
        assertEquals(expected.p50(), actual.path("p50").asDouble(), actual.toString());
        assertEquals(expected.p99(), actual.path("p99").asDouble(), actual.toString());
        assertEquals(expected.p999(), actual.path("p99p9").asDouble(), actual.toString());
        assertEquals(expected.max(), actual.path("max").asDouble(), actual.toString());
        assertFalse(actual.has("p25"), "a record keeps no p25, and none is made up: " + actual);
    }

    @Test
    void shouldDescribeTheDeclaredServerAsAnInferenceEngineAndTheLoadAsTokenclocks() throws IOException
    {
        final JsonNode r = only(run(dir.resolve("one"), "full-record.json"));
        final JsonNode server = r.path("scenario").path("stack").path(0);
        assertEquals("inference_engine", server.path("standardized").path("kind").asText());
        assertEquals("vllm", server.path("standardized").path("tool").asText());
        assertEquals("0.6.3", server.path("standardized").path("tool_version").asText());
        assertEquals("H100 80GB", server.path("standardized").path("accelerator").path("model").asText());
        assertEquals(1, server.path("standardized").path("accelerator").path("count").asInt());
        assertEquals("meta-llama/Llama-3.1-8B-Instruct", server.path("standardized").path("model").path("name")
            .asText());
        assertEquals(32, server.path("metadata").path("cfg_id").asText().length());
        final JsonNode load = r.path("scenario").path("load").path("standardized");
        assertEquals("tokenclock", load.path("tool").asText());
        assertEquals(12.0, load.path("rate_qps").asDouble());
        assertEquals("random", load.path("source").asText());
        assertEquals("gaussian", load.path("output_seq_len").path("distribution").asText(), "declared, ignore_eos");
        assertEquals(200, load.path("output_seq_len").path("value").asInt());
        assertEquals(40.0, load.path("output_seq_len").path("std_dev").asDouble());
        assertEquals("other", load.path("input_seq_len").path("distribution").asText(), "measured: none declared");
        assertEquals(30.0, load.path("input_seq_len").path("value").asDouble());
        assertEquals("chat.yaml", r.path("scenario").path("load").path("native").path("args").path("config")
            .asText());
        assertTrue(r.path("scenario").path("load").path("native").path("args").path("insecure").asBoolean());
    }

    @Test
    void shouldPutTheServersGaugesAndTheMeasuredPowerUnderTheStacksLabel() throws IOException
    {
        final Path run = Files.createDirectories(dir.resolve("one"));
        final ObjectNode record = (ObjectNode)Json.MAPPER.readTree(GOLDEN.resolve("full-record.json").toFile());
        final ObjectNode report = (ObjectNode)record.path("report");
        report.set("server", Json.MAPPER.readTree("{\"engine\": \"vllm\", \"running\": {\"source\": " +
            "\"vllm:num_requests_running\", \"scrapes\": 6, \"mean\": 16.5, \"max\": 24.0}, \"waiting\": " +
            "{\"scrapes\": 6, \"mean\": 0.25, \"max\": 1.0}, \"kv_usage\": {\"scrapes\": 6, \"mean\": 0.4, " +
            "\"max\": 0.55}, \"cache_hit_rate\": null, \"prefix_cache_hit_rate\": 0.75}"));
        report.set("energy", Json.MAPPER.readTree("{\"boundary\": \"accelerator\", \"joules\": 10515.0, " +
            "\"window_s\": 30.0, \"average_watts\": 350.5}"));
        Files.write(run.resolve("record.json"), Json.MAPPER.writeValueAsBytes(record));
        final JsonNode c = only(run).path("results").path("observability").path("components").path(0);
        assertEquals("vllm", c.path("component_label").asText(), c.toString());
        final JsonNode m = c.path("aggregate");
        assertEquals(16.5, m.path("running_requests").path("mean").asDouble());
        assertEquals(24.0, m.path("running_requests").path("max").asDouble());
        assertEquals("count", m.path("waiting_requests").path("units").asText());
        assertEquals(0.55, m.path("kv_cache_usage").path("max").asDouble());
        assertEquals("fraction", m.path("kv_cache_usage").path("units").asText());
        assertEquals(0.75, m.path("cache_hit_rate").path("mean").asDouble(), "hits over queries: " + m);
        assertEquals(350.5, m.path("power_consumption").path("mean").asDouble());
        assertEquals("Watts", m.path("power_consumption").path("units").asText());
    }

    @Test
    void shouldLeaveObservabilityOutWhenTheRunScrapedNothingAndMeasuredNoPower() throws IOException
    {
        assertFalse(only(run(dir.resolve("one"), "full-record.json")).path("results").has("observability"));
    }

    @Test
    void shouldDescribeAnUndeclaredServerAsAGenericComponentWithoutInventedFigures() throws IOException
    {
        final JsonNode r = only(run(dir.resolve("bare"), "bare-record.json"));
        final JsonNode server = r.path("scenario").path("stack").path(0).path("standardized");
        assertEquals("generic", server.path("kind").asText());
        assertEquals("unknown", server.path("tool").asText());
        assertEquals("tiny", server.path("model").path("name").asText());
        assertFalse(server.has("accelerator"), server.toString());
        final JsonNode load = r.path("scenario").path("load").path("standardized");
        assertEquals(4, load.path("concurrency").asInt());
        assertFalse(load.has("rate_qps"), load.toString());
        assertFalse(load.has("output_seq_len"), "max_tokens without ignore_eos is a cap, not a length: " + load);
        assertEquals(0, load.path("input_seq_len").path("value").asInt(), "no request ok, no length declared");
        final String description = r.path("scenario").path("load").path("metadata").path("description").asText();
        assertTrue(description.endsWith("; input lengths unknown: the result states none (input_seq_len 0)"),
            description);
    }

    @Test
    void shouldSayThatSessionsAndAgentsAreMultiTurnAndTheirPromptsRandom() throws IOException
    {
        final Path run = Files.createDirectories(dir.resolve("users"));
        Files.writeString(run.resolve("record.json"), Files.readString(GOLDEN.resolve("bare-record.json"))
            .replace("synthetic bare prompts", "2 users running multi-turn sessions (history carried): turns " +
                "fixed(n=2); think time ms fixed(n=10)"));
        final JsonNode load = only(run).path("scenario").path("load").path("standardized");
        assertTrue(load.path("multi_turn").path("enabled").asBoolean(), load.toString());
        assertEquals("random", load.path("source").asText());
        assertFalse(only(run(dir.resolve("bare"), "bare-record.json")).path("scenario").path("load")
            .path("standardized").has("multi_turn"));
    }

    @Test
    void shouldTakeTheSessionsOfAgentTasksFromTheRecord() throws IOException
    {
        final JsonNode s = only(run(dir.resolve("one"), "full-record.json")).path("results")
            .path("session_performance").path("sessions");
        assertEquals(12, s.path("total").asInt());
        assertEquals(9, s.path("succeeded").asInt(), "judged by their final answers: one was wrong");
        assertEquals(3, s.path("failed").asInt());
        assertEquals(0.4, s.path("session_rate").path("mean").asDouble());
        assertEquals(1500.0, s.path("session_duration").path("p50").asDouble());
        assertEquals("ms", s.path("session_duration").path("units").asText());
        assertEquals(4.0, s.path("events_per_session").path("p50").asDouble());
    }

    @Test
    void shouldFillEveryPercentileAndTheWindowsWallClockFromTheRunsHistograms() throws IOException
    {
        final Path run = run(dir.resolve("one"), "bare-record.json");
        final Histogram ttft = new Histogram(1, 3_600_000_000_000L, 3);
        for (int ms = 1; ms <= 1000; ms++)
        {
            ttft.recordValue(ms * 1_000_000L);
        }
        HistogramLogs.write(run, Map.of(Metric.TTFT, ttft), 1_767_323_045_000L, 1_767_323_075_500L, "test");
        final JsonNode r = only(run);
        final JsonNode t = aggregate(r).path("latency").path("time_to_first_token");
        for (final String slot : List.of("p0p1", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "p99p9"))
        {
            assertTrue(t.has(slot), slot + " in " + t);
        }
        assertEquals(250.0, t.path("p25").asDouble(), 0.25, "the 250th of 1..1000 ms at 3 digits: " + t);
        assertEquals(500.5, t.path("mean").asDouble(), 0.5, t.toString());
        final JsonNode time = r.path("run").path("time");
        assertEquals("2026-01-02T03:04:05Z", time.path("start").asText());
        assertEquals("2026-01-02T03:04:35.500Z", time.path("end").asText());
        assertEquals("PT30.5S", time.path("duration").asText());
    }

    @Test
    void shouldComputeNtpotFromEachMeasuredRequestOfRequestsJsonl() throws IOException
    {
        final Path run = run(dir.resolve("one"), "full-record.json");
        Files.copy(GOLDEN.resolve("requests.jsonl"), run.resolve("requests.jsonl"));
        counted(run, 5, 1);
        final JsonNode ntpot = aggregate(only(run)).path("latency").path("normalized_time_per_output_token");
        // two measured ok requests: 72 ms for 3 tokens and an agent's final answer, 58 ms for 1 (the warm-up, ramp,
        // cold and cancelled lines are not)
        assertEquals("ms/token", ntpot.path("units").asText());
        assertEquals(41.0, ntpot.path("mean").asDouble(), 0.041, ntpot.toString());
        assertEquals(24.0, ntpot.path("min").asDouble(), 0.024, ntpot.toString());
        assertEquals(58.0, ntpot.path("max").asDouble(), 0.058, ntpot.toString());
    }

    @Test
    void shouldCountTheSessionsThatRequestsJsonlNames() throws IOException
    {
        final Path run = run(dir.resolve("one"), "bare-record.json");
        Files.writeString(run.resolve("requests.jsonl"), String.join("\n",
            line("warmup", "ok", "\"s0\"", 0, 1_000_000_000L, 2_000_000_000L, 50, 5),
            line("measure", "ok", "\"s1\"", 0, 1_000_000_000L, 2_000_000_000L, 100, 10),
            line("measure", "ok", "\"s2\"", 0, 1_500_000_000L, 2_500_000_000L, 100, 10),
            line("measure", "ok", "\"s1\"", 1, 3_000_000_000L, 4_000_000_000L, 250, 20),
            line("measure", "cancelled", "\"s2\"", 1, 4_000_000_000L, 4_500_000_000L, 300, 2),
            line("measure", "ok", "null", 0, 1_000_000_000L, 1_100_000_000L, 10, 1)) + "\n");
        counted(run, 5, 1);
        final JsonNode s = only(run).path("results").path("session_performance").path("sessions");
        assertEquals(2, s.path("total").asInt(), s.toString());
        assertEquals(1, s.path("succeeded").asInt());
        assertEquals(1, s.path("failed").asInt());
        assertEquals(4, s.path("total_events").asInt());
        assertEquals(3, s.path("total_events_completed").asInt());
        assertEquals(1, s.path("total_events_cancelled").asInt());
        assertEquals("s", s.path("session_duration").path("units").asText());
        assertEquals(3.0, s.path("session_duration").path("min").asDouble(), 0.003, "s1: 1 s to 4 s: " + s);
        assertEquals(3.0, s.path("session_duration").path("max").asDouble(), 0.003, "s2: 1.5 s to 4.5 s: " + s);
        assertEquals(350.0, s.path("input_tokens_per_session").path("min").asDouble(), 0.5, s.toString());
        assertEquals(400.0, s.path("input_tokens_per_session").path("max").asDouble(), 0.5, s.toString());
        assertEquals(2.0, s.path("events_per_session").path("mean").asDouble(), s.toString());
    }

    private static String line(final String phase, final String status, final String session, final int turn,
        final long sentNs, final long endNs, final int inputTokens, final int outputTokens)
    {
        return "{\"id\": 0, \"phase\": \"" + phase + "\", \"status\": \"" + status + "\", \"session_id\": " + session +
            ", \"turn\": " + turn + ", \"sent_ns\": " + sentNs + ", \"end_ns\": " + endNs + ", \"chunk_ns\": [1, 2], " +
            "\"input_tokens\": " + inputTokens + ", \"output_tokens\": " + outputTokens + ", \"e2e_ms\": " +
            (endNs - sentNs) / 1e6 + "}";
    }

    @Test
    void shouldNameTheFileAndLineOfARequestsLineThatIsNotOne() throws IOException
    {
        final Path run = run(dir.resolve("one"), "bare-record.json");
        Files.writeString(run.resolve("requests.jsonl"), "{\"phase\": \"measure\", \"status\": \"ok\"}\n" +
            "{\"phase\": \"measure\", \"output_tokens\": \"many\"}\n");
        counted(run, 2, 0);
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> LlmdReport.of(Results.open(run)));
        assertTrue(ex.getMessage().startsWith(run.resolve("requests.jsonl") + ": line 2: "), ex.getMessage());
        assertFalse(ex.getMessage().contains("\n"), ex.getMessage());
    }

    @Test
    void shouldGiveASweepOneReportPerPointSharingTheExperimentWithItsIndexAsStage() throws IOException
    {
        final Path sweep = dir.resolve("sweep-1");
        final List<Index.Member> members = new ArrayList<>();
        for (int k = 1; k <= 3; k++)
        {
            run(sweep.resolve("points").resolve("0" + k), "full-record.json");
            members.add(new Index.Member("points/0" + k, "point " + k));
        }
        Index.write(sweep, Kind.SWEEP, members);
        final List<JsonNode> reports = reports(sweep);
        assertEquals(3, reports.size());
        final Set<String> uids = new HashSet<>();
        for (int k = 0; k < 3; k++)
        {
            final JsonNode r = reports.get(k);
            assertEquals(k, r.path("scenario").path("load").path("standardized").path("stage").asInt());
            assertEquals("sweep-1", r.path("run").path("eid").asText());
            assertTrue(r.path("run").path("description").asText().endsWith("[sweep-1: point " + (k + 1) + "]"),
                r.path("run").toString());
            uids.add(r.path("run").path("uid").asText());
        }
        assertEquals(3, uids.size(), "each report its own uid, though the points' records share a run id: " + uids);
    }

    @Test
    void shouldGiveAMergedRunOneReportWithItsShardsAsTheLoadsParallelism() throws IOException
    {
        final Path merged = run(dir.resolve("merged"), "full-record.json");
        Index.write(merged, Kind.MERGED, List.of(new Index.Member(dir.resolve("s0").toString(), "shard 0/3"),
            new Index.Member(dir.resolve("s1").toString(), "shard 1/3"),
            new Index.Member(dir.resolve("s2").toString(), "shard 2/3")));
        final JsonNode r = only(merged);
        assertEquals(3, r.path("scenario").path("load").path("standardized").path("parallelism").asInt());
        assertFalse(r.path("run").has("eid"), "one report, no experiment to group: " + r.path("run"));
    }

    @Test
    void shouldGiveRepetitionsAndAnAbOneReportPerRun() throws IOException
    {
        final Path reps = dir.resolve("reps");
        run(reps.resolve("rep-1"), "full-record.json");
        run(reps.resolve("rep-2"), "bare-record.json");
        Files.writeString(reps.resolve("repetitions.json"), "{\"repetitions\": 2, \"figures\": {}}");
        final List<JsonNode> r = reports(reps);
        assertEquals(List.of("full", "bare"), r.stream().map(n -> n.path("run").path("uid").asText()).toList());
        assertEquals(0, r.get(1).path("scenario").path("load").path("standardized").path("stage").asInt());
        final Path ab = dir.resolve("ab");
        run(ab.resolve("A").resolve("rep-1"), "full-record.json");
        run(ab.resolve("B").resolve("rep-1"), "bare-record.json");
        Files.writeString(ab.resolve("ab.json"), "{\"figures\": {}}");
        assertEquals(2, reports(ab).size());
    }

    @Test
    void shouldStateNoStartRatherThanADateTimeTheSchemaCannotHold() throws IOException
    {
        // a damaged GuideLLM start_time of 1e300 s reads as the last instant Java holds, year 292278994
        final Path file = dir.resolve("guidellm.json");
        Files.writeString(file, Files.readString(PEERS.resolve("guidellm-current.json"))
            .replaceFirst("\"start_time\": *[0-9.]+", "\"start_time\": 1e300"));
        final JsonNode time = reports(file).get(0).path("run").path("time");
        assertTrue(time.path("start").isMissingNode(), time.toString());
    }

    @Test
    void shouldExportEveryPeerFixtureHandMadeAndRealWithThePeerAsTheLoadGenerator() throws IOException
    {
        // the hand-made files in each tool's published shape, and the real files the tools wrote (peers/real)
        final Map<String, String> generators = Map.of("vllm-save-result.json", "vllm-benchmark",
            "vllm-append.jsonl", "vllm-benchmark", "sglang.jsonl", "sglang", "guidellm-current.json", "guidellm",
            "guidellm-older.json", "guidellm", "aiperf", "aiperf",
            "real/vllm-0.9-append-metadata.jsonl", "vllm-benchmark", "real/aiperf-2025-10-run1", "aiperf",
            "real/aiperf-2026-04-v0.8.0-bare/profile_export_aiperf.json", "aiperf",
            "real/guidellm-0.3-benchmarks_stripped.json", "guidellm");
        for (final Map.Entry<String, String> e : generators.entrySet())
        {
            final Path file = PEERS.resolve(e.getKey());
            final Result imported = Results.open(file);
            final List<JsonNode> reports = reports(file);
            assertEquals(imported.runs().size(), reports.size(), file.toString());
            for (int i = 0; i < reports.size(); i++)
            {
                final JsonNode r = reports.get(i);
                assertEquals(e.getValue(), r.path("scenario").path("load").path("standardized").path("tool").asText(),
                    file.toString());
                final Dist ttft = imported.runs().get(i).record().report().distribution("ttft");
                if (ttft.count() > 0)
                {
                    assertEquals(ttft.p50(), aggregate(r).path("latency").path("time_to_first_token").path("p50")
                        .asDouble(), file + ": " + r);
                }
                assertEquals(imported.runs().get(i).record().report().counts().measured(),
                    aggregate(r).path("requests").path("total").asLong(), file.toString());
            }
        }
    }

    @Test
    void shouldBeRefusedByTheSchemaWhenAUnitOrTheRunsIdIsWrong() throws IOException
    {
        final JsonNode good = only(run(dir.resolve("one"), "full-record.json"));
        final ObjectNode badUnit = good.deepCopy();
        ((ObjectNode)badUnit.path("results").path("request_performance").path("aggregate").path("latency")
            .path("time_to_first_token")).put("units", "fortnights");
        assertFalse(LlmdSchema.errors(badUnit).isEmpty(), "the validation can fail");
        final ObjectNode noUid = good.deepCopy();
        ((ObjectNode)noUid.path("run")).remove("uid");
        assertFalse(LlmdSchema.errors(noUid).isEmpty());
        final ObjectNode badTime = good.deepCopy();
        ((ObjectNode)badTime.path("run").path("time")).put("start", "yesterday");
        assertFalse(LlmdSchema.errors(badTime).isEmpty(), "date-time is asserted");
    }

    @Test
    void shouldMapTheContractsLengthDistributionsOntoTheSchemasKinds() throws IOException
    {
        assertEquals("{\"distribution\":\"fixed\",\"value\":256}",
            LlmdLoad.declared(Json.MAPPER.readTree("{\"dist\": \"fixed\", \"value\": 256}")).toString());
        assertEquals("{\"distribution\":\"uniform\",\"value\":288,\"min\":64,\"max\":512}",
            LlmdLoad.declared(Json.MAPPER.readTree("{\"dist\": \"uniform\", \"min\": 64, \"max\": 512}"))
                .toString());
        assertEquals("{\"distribution\":\"gaussian\",\"value\":512,\"std_dev\":128.0,\"min\":16,\"max\":2048}",
            LlmdLoad.declared(Json.MAPPER.readTree("{\"dist\": \"normal\", \"mean\": 512, \"stdev\": 128, " +
                "\"min\": 16, \"max\": 2048}")).toString());
        assertEquals("other", LlmdLoad.declared(Json.MAPPER.readTree("{\"dist\": \"lognormal\", \"median\": 512, " +
            "\"sigma\": 0.8}")).path("distribution").asText());
        assertNull(LlmdLoad.declared(Json.MAPPER.readTree("{\"dist\": \"empirical\", \"values\": [1, 2]}")),
            "the measured lengths say more than a made-up summary");
    }

    @Test
    void shouldReadTheDeclaredParallelismAsAMapOrAsText() throws IOException
    {
        assertEquals("{\"tp\":4,\"pp\":2}",
            LlmdStack.parallelism(Json.MAPPER.readTree("{\"tp\": 4, \"pp\": 2, \"sp\": 3}")).toString());
        assertEquals("{\"tp\":8,\"dp\":2}", LlmdStack.parallelism(Json.MAPPER.readTree("\"TP=8, dp 2\"")).toString());
        assertEquals(Json.MAPPER.createObjectNode(), LlmdStack.parallelism(Json.MAPPER.readTree("\"none\"")));
    }

    @Test
    void shouldTurnTheCommandLineIntoFlagsAndWords() throws IOException
    {
        assertEquals(Json.MAPPER.readTree("{\"command\": [\"tokenclock\", \"run\"], \"url\": \"http://h/v1\", " +
            "\"rate\": \"5\", \"insecure\": true, \"header\": [\"a: 1\", \"b: 2\"]}"),
            LlmdLoad.args(List.of("tokenclock", "run", "--url", "http://h/v1", "--rate=5", "--insecure",
                "--header", "a: 1", "--header", "b: 2")));
        assertNull(LlmdLoad.args(List.of()));
    }
}
