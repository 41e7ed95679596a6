package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.tokenclock.api.Api;
import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.FaultKind;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.goodput.Slo;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.run.RunResult;
import io.tokenclock.testing.SimServerExtension;
import io.tokenclock.transport.Stamping;
import io.tokenclock.workload.RerankShape;

/**
 * Embeddings and rerank end to end against the simulator, whose engine answers them after one prefill: the end to
 * end of the configured prefill on either transport, inputs and their tokens counted, the stream's metrics absent
 * from every file (never 0), each fault classified per request, and goodput on an e2e SLO.
 */
@Timeout(120)
final class PoolingApisRunIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static SimConfig fixedPrefill()
    {
        return new SimConfig().prefillBaseMs(40).prefillPerInputTokenMs(0).decodeBaseMs(10).decodePerSeqMs(0)
            .jitter(0);
    }

    private static RunResult run(final RunOptionsBuilder o) throws Exception
    {
        return new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));
    }

    private static List<JsonNode> requests(final Path run) throws Exception
    {
        final List<JsonNode> lines = new ArrayList<>();
        for (final String line : Files.readAllLines(run.resolve("requests.jsonl")))
        {
            lines.add(JSON.readTree(line));
        }
        return lines;
    }

    private static RunOptionsBuilder batched(final SimServer server, final Path run, final Api api, final int batch)
    {
        final RunOptionsBuilder o = SimServerExtension.options(server, run).api(api).concurrency(1).requests(6L)
            .warmupRequests(1).inputTokens(10);
        o.set(RunOption.EMBED_BATCH, batch);
        return o;
    }

    @ParameterizedTest
    @EnumSource(value = Api.class, names = {"EMBEDDINGS", "RERANK"})
    void shouldMeasureTheEndToEndOfOnePrefillAndCountInputsOnBothTransports(final Api api) throws Exception
    {
        for (final Stamping stamping : Stamping.values())
        {
            try (SimServer server = SimServer.start(fixedPrefill()))
            {
                final Path run = dir.resolve(api.word() + "-" + stamping.name());
                final RunOptionsBuilder o = batched(server, run, api, 4);
                o.set(RunOption.STAMPING, stamping);
                final RunResult r = run(o);

                final String at = api.word() + ", " + stamping;
                assertEquals(6, r.counts().ok(), at);
                final Distribution e2e = r.distributions().get(Metric.E2E);
                assertTrue(e2e.min() >= 40.0, "no answer before its prefill: " + at + " " + e2e);
                assertEquals(0, r.distributions().get(Metric.TTFT).count(), at);
                // rerank: each of the 4 documents is prefilled with the query, 10 words each
                final int tokens = api == Api.RERANK ? 4 * 20 : 4 * 10;
                for (final JsonNode line : requests(run))
                {
                    assertEquals(api.word(), line.path("api").asText(), at);
                    assertEquals(4, line.path("inputs").asInt(), at);
                    assertEquals(4, line.path("answer_items").asInt(), at);
                    assertEquals(tokens, line.path("usage_prompt_tokens").asInt(), at);
                    for (final String absent : List.of("ttft_ms", "tpot_ms", "chunks", "output_tokens", "chunk_ns"))
                    {
                        assertFalse(line.has(absent), absent + " of an answer read whole: " + line);
                    }
                }
                for (final Metric m : Metric.values())
                {
                    assertEquals(!m.streamOnly(), Files.exists(run.resolve(m.key() + ".hlog")),
                        m.key() + ".hlog: only the metrics of an answer read whole, no empty ttft.hlog: " + at);
                }
                final JsonNode report = JSON.readTree(run.resolve("record.json").toFile()).path("report");
                assertEquals(List.of("e2e", "e2e_from_schedule", "send_lag", "input_tokens", "stream_setup"),
                    names(report.path("distributions")), at);
                final JsonNode throughput = report.path("throughput");
                assertFalse(throughput.has("output_tokens_per_s"), "absent, never 0: " + throughput);
                assertEquals(4 * throughput.path("requests_per_s").asDouble(), throughput.path("inputs_per_s")
                    .asDouble(), 1e-9, at);
                assertEquals(tokens * throughput.path("requests_per_s").asDouble(), throughput
                    .path("input_tokens_per_s").asDouble(), 1e-6, "from the server's usage: " + at);
                final String summary = Files.readString(run.resolve("summary.csv"), StandardCharsets.UTF_8);
                assertFalse(summary.contains(",ttft,") || summary.contains(",tpot,"), summary);
            }
        }
    }

    private static List<String> names(final JsonNode object)
    {
        final List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void shouldSendRerankInTeisShapeAndReadItsBareArray() throws Exception
    {
        try (SimServer server = SimServer.start(fixedPrefill().prefillBaseMs(2)))
        {
            final RunOptionsBuilder o = batched(server, dir, Api.RERANK, 3);
            o.set(RunOption.RERANK_SHAPE, RerankShape.TEXTS);
            final RunResult r = run(o);

            assertEquals(6, r.counts().ok());
            for (final JsonNode line : requests(dir))
            {
                assertEquals(3, line.path("answer_items").asInt(), line.toString());
                assertTrue(line.path("usage_prompt_tokens").isNull(), "TEI's answer has no usage: " + line);
                assertTrue(line.path("input_tokens").asInt() >= 3 * 10, "the harness's own count: " + line);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Api.class, names = {"EMBEDDINGS", "RERANK"})
    void shouldClassifyEachFaultPerRequestAndGoOn(final Api api) throws Exception
    {
        try (SimServer server = SimServer.start(fixedPrefill().prefillBaseMs(2).faultRate(0.6)
            .faultKinds(FaultKind.ERROR_EVENT, FaultKind.MALFORMED, FaultKind.TRUNCATE, FaultKind.HTTP_429,
                FaultKind.CUT).seed(11)))
        {
            final RunOptionsBuilder o = batched(server, dir, api, 2).requests(50L).concurrency(2).warmupRequests(0)
                .preflight(false).model("m");
            o.set(RunOption.RETRIES_429, 0);
            final RunResult r = run(o);

            final Map<String, Integer> byError = new HashMap<>();
            for (final JsonNode line : requests(dir))
            {
                byError.merge(line.path("error").asText("ok"), 1, Integer::sum);
            }
            assertEquals(50, r.counts().ok() + r.counts().errors(), byError.toString());
            for (final ErrorClass e : List.of(ErrorClass.HTTP_5XX, ErrorClass.MALFORMED_EVENT, ErrorClass.TRUNCATED,
                ErrorClass.HTTP_429))
            {
                assertTrue(byError.getOrDefault(e.label(), 0) > 0, api.word() + " " + e + ": " + byError);
            }
            assertTrue(byError.getOrDefault("ok", 0) > 0, byError.toString());
        }
    }

    @Test
    void shouldCountGoodputOnAnEndToEndSlo() throws Exception
    {
        try (SimServer server = SimServer.start(fixedPrefill()))
        {
            final RunOptionsBuilder o = batched(server, dir, Api.EMBEDDINGS, 2);
            o.set(RunOption.SLO, new Slo(0, 0, 30_000_000L));
            final RunResult strict = run(o);
            assertEquals(6, strict.counts().ok());
            assertEquals(0, strict.goodput().good(), "no answer inside 30 ms of a 40 ms prefill");

            final RunOptionsBuilder loose = batched(server, dir.resolve("loose"), Api.EMBEDDINGS, 2);
            loose.set(RunOption.SLO, new Slo(0, 0, 5_000_000_000L));
            assertEquals(6, run(loose).goodput().good());
        }
    }

    @Test
    void shouldTakeRerankAnswersOfTheTopNAskedForInExtraBodyAsWhole() throws Exception
    {
        // The simulator answers top_n results, as vLLM, Cohere and Jina do: 2 of 4 documents is what was asked.
        try (SimServer server = SimServer.start(fixedPrefill()))
        {
            final RunOptionsBuilder o = batched(server, dir, Api.RERANK, 4).extraBody("{\"top_n\": 2}");
            final RunResult r = run(o);

            assertEquals(6, r.counts().ok(), "no answer of its top 2 is truncated: " + r.counts().errorsByClass());
            for (final JsonNode line : requests(dir))
            {
                assertEquals(4, line.path("inputs").asInt(), "4 documents ranked: " + line);
                assertEquals(2, line.path("answer_items").asInt(), line.toString());
                assertFalse(line.path("truncated").asBoolean(false), line.toString());
            }
        }
    }
}
