package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
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
import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.FaultKind;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.run.RunResult;
import io.tokenclock.testing.SimServerExtension;
import io.tokenclock.transport.Stamping;
import io.tokenclock.workload.SessionChain;

/**
 * The Responses and Messages APIs end to end against the simulator, held to what chat is held to: TTFT and chunk
 * gaps of the configured engine on either transport, the first answer token after reasoning, each API's faults
 * classified per request, and sessions chained by {@code previous_response_id}.
 */
@Timeout(120)
final class StreamedApisRunIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static SimConfig fixedDelays()
    {
        return new SimConfig().prefillBaseMs(40).prefillPerInputTokenMs(0).decodeBaseMs(10).decodePerSeqMs(0)
            .jitter(0).tokensPerChunk(1);
    }

    private static RunResult run(final RunOptionsBuilder o) throws Exception
    {
        return new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));
    }

    private List<JsonNode> requests() throws Exception
    {
        return requests(dir);
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

    @ParameterizedTest
    @EnumSource(value = Api.class, names = {"RESPONSES", "MESSAGES"})
    void shouldMeasureTheConfiguredTtftAndGapsOnBothTransports(final Api api) throws Exception
    {
        for (final Stamping stamping : Stamping.values())
        {
            try (SimServer server = SimServer.start(fixedDelays().reasoningTokens(3)))
            {
                final Path run = dir.resolve(stamping.name());
                final RunOptionsBuilder o = SimServerExtension.options(server, run).api(api).concurrency(1)
                    .requests(6L).warmupRequests(1);
                o.set(RunOption.STAMPING, stamping);
                final RunResult r = run(o);

                final String at = api.word() + ", " + stamping;
                assertEquals(6, r.counts().ok(), at);
                // Lower bounds only: the engine's steps are deadlines it never writes before, whatever the load
                final Distribution ttft = r.distributions().get(Metric.TTFT);
                assertTrue(ttft.min() >= 40.0, "no opening event is a token: " + at + " " + ttft);
                final Distribution ttfot = r.distributions().get(Metric.TTFOT);
                assertTrue(ttfot.min() >= 40.0 + 3 * 10.0, "three reasoning steps first: " + at + " " + ttfot);
                final Distribution icl = r.distributions().get(Metric.INTER_CHUNK_LATENCY);
                assertEquals(6 * 19, icl.count(), "19 gaps between 20 single-token events, nothing lost: " + at);
                for (final JsonNode line : requests(run))
                {
                    // the 20th token is due 40 + 19 x 10 ms after the request reached the engine, whatever a stall
                    // did to the gaps between (a late step makes the next ones catch up)
                    final JsonNode chunks = line.path("chunk_ns");
                    assertTrue(chunks.get(chunks.size() - 1).asLong() - line.path("sent_ns").asLong() >= 230_000_000L,
                        "the last token no earlier than its step: " + at + " " + line);
                    assertEquals(api.word(), line.path("api").asText(), at);
                    assertEquals(20, line.path("usage_completion_tokens").asInt(), at);
                    assertTrue(line.path("usage_prompt_tokens").asInt() >= 16, at);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Api.class, names = {"RESPONSES", "MESSAGES"})
    void shouldClassifyEachApisFaultsPerRequestAndGoOn(final Api api) throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(2).decodeBaseMs(1).faultRate(0.5)
            .faultKinds(FaultKind.ERROR_EVENT, FaultKind.MALFORMED, FaultKind.TRUNCATE, FaultKind.HTTP_500)
            .seed(7)))
        {
            final RunOptionsBuilder o = SimServerExtension.options(server, dir).api(api).concurrency(2)
                .requests(40L).preflight(false).model("m");
            final RunResult r = run(o);

            final Map<String, Integer> byError = new HashMap<>();
            for (final JsonNode line : requests())
            {
                byError.merge(line.path("error").asText("ok"), 1, Integer::sum);
                if ("error_event".equals(line.path("error").asText()))
                {
                    assertTrue(line.path("error_detail").asText().contains(api == Api.MESSAGES ?
                        "overloaded_error" : "server_error"), line.toString());
                }
            }
            assertEquals(40, r.counts().ok() + r.counts().errors(), byError.toString());
            for (final ErrorClass e : List.of(ErrorClass.ERROR_EVENT, ErrorClass.MALFORMED_EVENT, ErrorClass.TRUNCATED,
                ErrorClass.HTTP_5XX))
            {
                assertTrue(byError.getOrDefault(e.label(), 0) > 0, api.word() + " " + e + ": " + byError);
            }
            assertTrue(byError.getOrDefault("ok", 0) > 0, byError.toString());
        }
    }

    @Test
    void shouldChainSessionTurnsByPreviousResponseIdOnTheResponsesApi() throws Exception
    {
        try (SimServer server = SimServer.start(fixedDelays().prefillBaseMs(2).decodeBaseMs(1)))
        {
            final RunOptionsBuilder o = SimServerExtension.options(server, dir).api(Api.RESPONSES).users(2)
                .requests(12L).maxTokens(6).inputTokens(10).sessionTurns(LengthSpec.fixed(3))
                .thinkTimeMs(LengthSpec.fixed(5));
            o.set(RunOption.SESSION_CHAIN, SessionChain.PREVIOUS_RESPONSE_ID);
            final RunResult r = run(o);

            assertEquals(12, r.counts().ok());
            assertTrue(JSON.readTree(dir.resolve("record.json").toFile()).path("workload").path("prompts")
                .asText().contains("previous_response_id"));
            final Map<Integer, List<JsonNode>> byUser = new HashMap<>();
            for (final JsonNode line : requests())
            {
                byUser.computeIfAbsent(line.get("user").asInt(), u -> new ArrayList<>()).add(line);
            }
            for (final List<JsonNode> turns : byUser.values())
            {
                turns.sort(Comparator.comparingLong(l -> l.get("scheduled_ns").asLong()));
                for (int k = 1; k < turns.size(); k++)
                {
                    if (k % 3 != 0)
                    {
                        final JsonNode previous = turns.get(k - 1);
                        final long message = turns.get(k - k % 3).get("usage_prompt_tokens").asLong();
                        // the server prefilled the stored conversation, then the new message (as long as a session's
                        // first): only a chained turn adds exactly the previous prompt and answer (resent text counts
                        // by its words, which may differ from the tokens generated)
                        assertEquals(previous.get("usage_prompt_tokens").asLong() +
                            previous.get("usage_completion_tokens").asLong() + message,
                            turns.get(k).get("usage_prompt_tokens").asLong(), turns.get(k).toString());
                    }
                }
            }
        }
    }
}
