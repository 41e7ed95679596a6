package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.tokenclock.api.Api;
import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.engine.EngineConfig;
import io.tokenclock.fixtures.engine.EngineServer;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.run.RunResult;

/**
 * tokenclock against a real inference engine: llama.cpp serving the generated 256x4 model on this CPU, which reports
 * its own timings in the last chunk of each stream. Two closed-loop runs of 10 requests (concurrency 1, 32 output
 * tokens), one with 32-token prompts and one with 1,024-token prompts, then the client's view is held against the
 * engine's, request by request. Nothing here is a wall-clock bound on how fast the machine is.
 * <p>
 * Why the client can be late but never early: the client stamps {@code sent} before the engine can take the request
 * and stamps each chunk after the engine produced it (one monotonic clock, same machine). So client TTFT >= engine
 * prompt time, and the client's time to its last token >= the engine's, i.e. client TPOT x (n - 1) >= engine decode
 * time - (client TTFT - engine prompt time). The tolerance in the second is the client's own first-token lag, which
 * it measured: a client thread that was descheduled when the first token came stamps it late and so sees a shorter
 * decode span (on a loaded 2-core machine such a request saw a 0.5 ms span for a 12.5 ms decode, its first stamp
 * 23 ms late). Both inequalities allow 0.002 ms for the microsecond rounding of requests.jsonl. Embeddings and
 * rerank, answered whole, are held to the same rule on their end to end against the engine's span of the request.
 */
@Timeout(300)
@Tag("slow") // runs the llama.cpp engine fixture: skipped by -Pfast
final class EngineAgreementIT
{
    /** Rounding of the ms fields of requests.jsonl (each to 1 µs), summed over the fields in one inequality. */
    private static final double ROUNDING_MS = 0.002;
    /** The stated tolerance of the TPOT agreement: medians within 10% of the engine's. */
    private static final double TPOT_MEDIAN_TOLERANCE = 0.10;
    private static final int REQUESTS = 10;
    private static final int OUTPUT_TOKENS = 32;
    /** Inputs per embeddings or rerank request ({@code --embed-batch}) and each one's length. */
    private static final int BATCH = 4;
    private static final int INPUT_WORDS = 32;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static EngineServer server;

    @TempDir
    Path dir;

    @BeforeAll
    static void startEngine() throws Exception
    {
        server = EngineServer.start(EngineConfig.defaults().withSlots(2).withThreads(1).withContextPerSlot(2048));
    }

    @AfterAll
    static void stopEngine()
    {
        server.close();
    }

    private record Run(RunResult result, List<JsonNode> measured)
    {
        Distribution distribution(final Metric metric)
        {
            return result.distributions().get(metric);
        }
    }

    private Run run(final int inputTokens) throws Exception
    {
        return run(inputTokens, Api.CHAT);
    }

    private Run run(final int inputTokens, final Api api) throws Exception
    {
        final Path out = dir.resolve("input-" + inputTokens + "-" + api.word());
        return run(options(out, api, inputTokens).maxTokens(OUTPUT_TOKENS).ignoreEos(true), out);
    }

    private static RunOptionsBuilder options(final Path out, final Api api, final int inputTokens)
    {
        final RunOptionsBuilder o = RunOptions.builder();
        o.url(server.baseUrl());
        o.api(api);
        o.outputDir(out);
        o.progress(false);
        o.inputTokens(inputTokens);
        o.concurrency(1);
        o.requests((long)REQUESTS);
        o.warmupRequests(3);
        return o;
    }

    private static Run run(final RunOptionsBuilder o, final Path out) throws Exception
    {
        final RunResult result = new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));
        final List<JsonNode> measured = new ArrayList<>();
        for (final String line : Files.readAllLines(out.resolve("requests.jsonl")))
        {
            final JsonNode request = JSON.readTree(line);
            if ("measure".equals(request.path("phase").asText()))
            {
                measured.add(request);
            }
        }
        return new Run(result, measured);
    }

    @Test
    void shouldMeasureTheRealEngineAsItMeasuresItselfLateNeverEarly() throws Exception
    {
        final Run shortPrompts = run(32);
        final Run longPrompts = run(1024);

        for (final Run r : List.of(shortPrompts, longPrompts))
        {
            assertEquals(REQUESTS, r.result().counts().ok());
            assertEquals(REQUESTS, r.measured().size());
            for (final JsonNode request : r.measured())
            {
                tokenCountsAgree(request);
                clientNeverEarly(request);
            }
            tpotMediansAgree(r);
        }
        final double shortTtft = shortPrompts.distribution(Metric.TTFT).p50();
        final double longTtft = longPrompts.distribution(Metric.TTFT).p50();
        final double shortEngine = shortPrompts.distribution(Metric.ENGINE_TTFT).p50();
        final double longEngine = longPrompts.distribution(Metric.ENGINE_TTFT).p50();
        assertTrue(longTtft > 3 * shortTtft && longEngine > 3 * shortEngine, String.format(Locale.ROOT,
            "TTFT grows with the prompt as prefill does: p50 %.3f ms (engine %.3f) at 32 tokens, %.3f ms (engine " +
            "%.3f) at 1,024", shortTtft, shortEngine, longTtft, longEngine));
    }

    /**
     * The engine's Responses and Messages streams, as llama.cpp's server writes them: the Responses API carries the
     * engine's timings beside {@code response.completed}, so its requests are held to the same counts and the same
     * never-early inequalities as chat's (a grammar that took an opening event for a token would stamp it early); the
     * medians' agreement is chat's test alone, since the API changes nothing of the timing path and the medians are
     * the part of this test a loaded machine can move (a server write or a client read stalled at a stream's end
     * lengthens the client's span; seen once, under a load average of 35). The Messages API carries no timings
     * (llama.cpp sends none there), so its requests are held to the token counts, the prompt's usage and the end.
     */
    @Test
    void shouldMeasureTheEngineOnTheResponsesAndMessagesApisAsOnChat() throws Exception
    {
        final Run responses = run(32, Api.RESPONSES);
        assertEquals(REQUESTS, responses.result().counts().ok());
        for (final JsonNode request : responses.measured())
        {
            assertEquals("responses", request.path("api").asText());
            tokenCountsAgree(request);
            clientNeverEarly(request);
            assertEquals(0, request.path("cached_tokens").asInt(), "the engine never serves a prompt from cache");
        }

        final Run messages = run(32, Api.MESSAGES);
        assertEquals(REQUESTS, messages.result().counts().ok());
        for (final JsonNode request : messages.measured())
        {
            assertEquals("messages", request.path("api").asText());
            assertEquals(OUTPUT_TOKENS, request.path("chunks").asInt(), "one event per engine token: " + request);
            assertEquals(OUTPUT_TOKENS, request.path("usage_completion_tokens").asInt(), request.toString());
            assertTrue(request.path("usage_prompt_tokens").asInt() >= 32, request.toString());
            assertEquals("length", request.path("finish_reason").asText());
            assertTrue(request.path("done_marker").asBoolean(), "message_stop ended it");
            assertTrue(request.path("engine_prompt_ms").isMissingNode(), "no engine timings on this API");
        }
    }

    /**
     * Embeddings and rerank answered whole by the engine's pooling instance, four inputs a request: each answered
     * item counted, the prompt tokens the engine's own (its tokenizer splits the harness's synthetic words into more
     * tokens than the harness counts, and adds {@code <s>}), the client's end
     * to end never shorter than the engine's span of the request, and no metric of a stream anywhere.
     */
    @ParameterizedTest
    @EnumSource(value = Api.class, names = {"EMBEDDINGS", "RERANK"})
    void shouldMeasureTheEnginesEmbeddingsAndRerankWholeAndNeverEarly(final Api api) throws Exception
    {
        final Path out = dir.resolve("pooled-" + api.word());
        final RunOptionsBuilder o = options(out, api, INPUT_WORDS);
        o.set(RunOption.EMBED_BATCH, BATCH);
        final Run r = run(o, out);

        assertEquals(REQUESTS, r.result().counts().ok(), r.result().counts().errorsByClass().toString());
        assertEquals(REQUESTS, r.measured().size());
        double usageSum = 0;
        for (final JsonNode request : r.measured())
        {
            assertEquals(api.word(), request.path("api").asText());
            assertEquals(BATCH, request.path("inputs").asInt(), request.toString());
            assertEquals(BATCH, request.path("answer_items").asInt(), "one embedding or result per input: " + request);
            final int usage = request.path("usage_prompt_tokens").asInt();
            assertTrue(usage > BATCH * INPUT_WORDS, "the engine's count (each text's <s>, its tokenizer's splits), " +
                "not the harness's " + INPUT_WORDS + " a text: " + request);
            assertEquals(usage, request.path("input_tokens").asInt(), "the run counts the server's: " + request);
            usageSum += usage;
            final double engineSpan = request.path("engine_prompt_ms").asDouble();
            assertTrue(engineSpan > 0, "the engine's timings of the request: " + request);
            assertTrue(request.path("e2e_ms").asDouble() >= engineSpan - ROUNDING_MS, String.format(Locale.ROOT,
                "client e2e can't beat the engine's span %.3f ms: %s", engineSpan, request));
            for (final String absent : List.of("ttft_ms", "tpot_ms", "chunks", "output_tokens", "chunk_ns",
                "engine_decode_ms"))
            {
                assertFalse(request.has(absent), absent + " of an answer read whole: " + request);
            }
        }
        for (final Metric m : Metric.values())
        {
            assertEquals(!m.streamOnly(), Files.exists(out.resolve(m.key() + ".hlog")), m.key() + ".hlog");
        }
        final JsonNode throughput = JSON.readTree(out.resolve("record.json").toFile()).path("report")
            .path("throughput");
        assertFalse(throughput.has("output_tokens_per_s"), throughput.toString());
        assertEquals(usageSum / REQUESTS, throughput.path("input_tokens_per_s").asDouble() /
            throughput.path("requests_per_s").asDouble(), 1e-6 * usageSum, "input tokens/s from the usage: " +
            throughput);
    }

    /**
     * A body the engine cannot use (here {@code input} or {@code documents} overwritten with a number by
     * {@code --extra-body}) is answered 400 with an error object: each request ends with one classified error, every
     * request is sent, and the engine serves the next run.
     */
    @ParameterizedTest
    @EnumSource(value = Api.class, names = {"EMBEDDINGS", "RERANK"})
    void shouldClassifyTheEnginesAnswerToABadBodyPerRequestAndGoOn(final Api api) throws Exception
    {
        final Path out = dir.resolve("bad-" + api.word());
        final RunOptionsBuilder o = options(out, api, INPUT_WORDS).warmupRequests(0).preflight(false)
            .model(server.config().modelName())
            .extraBody(api == Api.EMBEDDINGS ? "{\"input\": 5}" : "{\"documents\": 5}");
        final Run bad = run(o, out);

        assertEquals(0, bad.result().counts().ok());
        assertEquals(REQUESTS, bad.result().counts().errors());
        assertEquals(REQUESTS, bad.measured().size());
        for (final JsonNode request : bad.measured())
        {
            assertEquals(ErrorClass.HTTP_4XX.label(), request.path("error").asText(), request.toString());
            assertEquals(400, request.path("http_status").asInt(), request.toString());
        }
        final Path next = dir.resolve("after-" + api.word());
        final RunOptionsBuilder good = options(next, api, INPUT_WORDS).warmupRequests(0);
        good.set(RunOption.EMBED_BATCH, BATCH);
        assertEquals(REQUESTS, run(good, next).result().counts().ok(), "the engine goes on serving");
    }

    private static void tokenCountsAgree(final JsonNode request)
    {
        assertEquals(OUTPUT_TOKENS, request.path("engine_predicted_tokens").asInt(), request.toString());
        assertEquals(OUTPUT_TOKENS, request.path("chunks").asInt(), "one chunk per engine token: " + request);
        assertEquals(OUTPUT_TOKENS, request.path("output_tokens").asInt(), request.toString());
        assertEquals(OUTPUT_TOKENS, request.path("chunk_ns").size(), request.toString());
    }

    private static void clientNeverEarly(final JsonNode request)
    {
        final double ttft = request.path("ttft_ms").asDouble();
        final double enginePrompt = request.path("engine_prompt_ms").asDouble();
        final double clientSpan = request.path("tpot_ms").asDouble() * (request.path("output_tokens").asInt() - 1);
        final double engineDecode = request.path("engine_decode_ms").asDouble();
        final double firstTokenLag = ttft - enginePrompt;
        assertTrue(firstTokenLag >= -ROUNDING_MS, String.format(Locale.ROOT,
            "client TTFT %.3f ms can't beat the engine's prompt time %.3f ms: %s", ttft, enginePrompt, request));
        assertTrue(clientSpan >= engineDecode - firstTokenLag - ROUNDING_MS, String.format(Locale.ROOT,
            "client TPOT x (n - 1) = %.3f ms can't fall short of the engine's decode %.3f ms by more than the " +
            "client's first-token lag %.3f ms: %s", clientSpan, engineDecode, firstTokenLag, request));
    }

    private static void tpotMediansAgree(final Run r)
    {
        final double client = r.distribution(Metric.TPOT).p50();
        final double engine = r.distribution(Metric.ENGINE_TPOT).p50();
        assertEquals(REQUESTS, r.distribution(Metric.ENGINE_TPOT).count());
        // A first token stamped late (the client's own delay, as on a loaded machine) shortens the client's span by
        // that lag, and clientNeverEarly bounds each request by it; so the medians may differ by the median lag
        // spread over the n - 1 gaps, beyond the tolerance. Idle, the lag is tens of microseconds.
        final double lagAllowance = Math.max(0, medianFirstTokenLagMs(r)) / (OUTPUT_TOKENS - 1);
        assertEquals(engine, client, TPOT_MEDIAN_TOLERANCE * engine + lagAllowance, String.format(Locale.ROOT,
            "TPOT p50: client %.4f ms, engine %.4f ms (its decode time over its tokens - 1), allowing %.4f ms " +
            "for the client's median first-token lag", client, engine, lagAllowance));
    }

    /** @return the median over measured requests of client TTFT minus the engine's prompt time, in ms. */
    private static double medianFirstTokenLagMs(final Run r)
    {
        final double[] lags = r.measured().stream()
            .mapToDouble(q -> q.path("ttft_ms").asDouble() - q.path("engine_prompt_ms").asDouble()).sorted().toArray();
        return lags.length == 0 ? 0 : lags[lags.length / 2];
    }
}
