package io.tokenclock.accuracy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.tokenclock.api.Api;
import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.run.RunResult;
import io.tokenclock.runner.BenchmarkRunner;

/**
 * The harness against the ground-truth server in CI size: 50 streams x 10 ms ITL x 20 tokens. Every scripted chunk
 * is received exactly once, in order, and stamped no earlier than the server stamped its send (same JVM, same
 * clock). This asserts correctness; how small the delays are is the accuracy benchmark's business
 * (scripts/accuracy), not a timed test's. Each streamed API (chat, Responses, Messages) is held to it alike.
 */
@Timeout(120)
@Tag("slow") // streams against the ground-truth server: skipped by -Pfast
final class GroundTruthIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Api.class, names = {"CHAT", "RESPONSES", "MESSAGES"})
    void shouldReceiveEveryScriptedChunkOnceInOrderAfterItsSend(final Api api) throws Exception
    {
        final Path truth = dir.resolve("truth.jsonl");
        final RunResult result;
        try (TruthServer server = TruthServer.start(TruthServer.Options.of(TruthScript.fixed(5, 10, 20))
            .withTruthLog(truth)))
        {
            final RunOptionsBuilder o = RunOptions.builder();
            o.url(server.baseUrl());
            o.api(api);
            o.model("m");
            o.concurrency(50);
            o.requests(50L);
            o.maxTokens(20);
            o.ignoreEos(true);
            o.outputDir(dir.resolve("run"));
            o.progress(false);
            result = new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));
        }
        assertEquals(50, result.counts().ok());

        final Map<String, JsonNode> sends = new HashMap<>();
        for (final String line : Files.readAllLines(truth))
        {
            final JsonNode n = JSON.readTree(line);
            sends.put(n.get("response_id").asText(), n.get("sent_ns"));
        }
        int chunks = 0;
        for (final String line : Files.readAllLines(dir.resolve("run").resolve("requests.jsonl")))
        {
            final JsonNode request = JSON.readTree(line);
            assertEquals(api.word(), request.get("api").asText());
            final JsonNode sent = sends.get(request.get("response_id").asText());
            assertNotNull(sent, "the server logged the stream " + request.get("response_id"));
            final JsonNode arrived = request.get("chunk_ns");
            assertEquals(sent.size(), arrived.size(), "every scripted chunk received once, none invented");
            for (int k = 0; k < arrived.size(); k++)
            {
                assertTrue(arrived.get(k).asLong() >= sent.get(k).asLong(), "arrival after send, chunk " + k);
                if (k > 0)
                {
                    assertTrue(arrived.get(k).asLong() >= arrived.get(k - 1).asLong(), "in order");
                }
            }
            chunks += arrived.size();
        }
        assertEquals(50 * 20, chunks);
    }
}
