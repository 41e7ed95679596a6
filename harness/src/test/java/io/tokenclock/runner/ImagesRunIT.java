package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.tokenclock.api.Api;
import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.testing.SimServerExtension;
import io.tokenclock.workload.ImageFormat;

/**
 * Synthetic images end to end on each API that takes them: sent in the API's shape (the simulator counts 64 prompt
 * tokens per image part it finds, so the usage shows every image arrived), the same bytes from the same seed (the
 * workload hash repeats) and other bytes from another size, and stated in the record; and in user sessions, where
 * every turn carries its own images and resends the earlier turns' with their answers.
 */
@Timeout(120)
final class ImagesRunIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private JsonNode run(final SimServer server, final Api api, final String name, final String size)
        throws Exception
    {
        final Path out = dir.resolve(name);
        final RunOptionsBuilder o = SimServerExtension.options(server, out).api(api).concurrency(1).requests(4L)
            .maxTokens(4).inputTokens(10);
        o.set(RunOption.IMAGE_COUNT, 2);
        o.set(RunOption.IMAGE_SIZE, size);
        o.set(RunOption.IMAGE_FORMAT, ImageFormat.JPEG);
        new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));
        for (final String line : Files.readAllLines(out.resolve("requests.jsonl")))
        {
            final JsonNode l = JSON.readTree(line);
            assertEquals("ok", l.path("status").asText(), line);
            // 10 words, and 2 images of 64 tokens each (the simulator's cost); the harness's own count leaves them out
            assertEquals(10 + 2 * 64, l.path("usage_prompt_tokens").asInt(), api.word() + " " + line);
        }
        return JSON.readTree(out.resolve("record.json").toFile()).path("workload");
    }

    @ParameterizedTest
    @EnumSource(value = Api.class, names = {"CHAT", "RESPONSES", "MESSAGES"})
    void shouldSendTheSameImagesFromTheSameSeedAndRecordThem(final Api api) throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(1).decodeBaseMs(1).jitter(0)))
        {
            final JsonNode first = run(server, api, "first", "48x32");
            final JsonNode again = run(server, api, "again", "48x32");
            final JsonNode other = run(server, api, "other", "32x48");

            assertEquals(first.path("hash").asText(), again.path("hash").asText(), "the same seed, the same bytes");
            assertNotEquals(first.path("hash").asText(), other.path("hash").asText(), "the hash covers the images");
            final JsonNode images = first.path("images");
            assertEquals(2, images.path("per_request").asInt());
            assertEquals("48x32", images.path("size").asText());
            assertEquals("jpeg", images.path("format").asText());
            assertEquals(first.path("hash_requests").asLong() * 2, images.path("sent").asLong(), images.toString());
            assertTrue(images.path("bytes").asLong() > 100 * images.path("sent").asLong(), images.toString());
            assertTrue(images.path("tokens").asText().contains("cannot count image tokens"), images.toString());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Api.class, names = {"CHAT", "RESPONSES", "MESSAGES"})
    void shouldSendEveryUserTurnItsOwnImagesAfterTheEarlierTurnsImagesAndCountThemAll(final Api api)
        throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(1).decodeBaseMs(1).jitter(0)))
        {
            final Path out = dir.resolve("users");
            final RunOptionsBuilder o = SimServerExtension.options(server, out).api(api).users(2).requests(12L)
                .maxTokens(4).inputTokens(4).sessionTurns(LengthSpec.fixed(3)).thinkTimeMs(LengthSpec.fixed(5));
            o.set(RunOption.IMAGE_COUNT, 2);
            o.set(RunOption.IMAGE_SIZE, "32x32");
            new BenchmarkRunner().run(o.build(), new PrintStream(new ByteArrayOutputStream()));

            final Map<Integer, List<JsonNode>> byUser = new HashMap<>();
            for (final String line : Files.readAllLines(out.resolve("requests.jsonl")))
            {
                final JsonNode l = JSON.readTree(line);
                assertEquals("ok", l.path("status").asText(), line);
                byUser.computeIfAbsent(l.get("user").asInt(), u -> new ArrayList<>()).add(l);
            }
            long expectedImages = 0;
            for (final List<JsonNode> turns : byUser.values())
            {
                turns.sort(Comparator.comparingLong(l -> l.get("scheduled_ns").asLong()));
                for (int i = 0; i < turns.size(); i++)
                {
                    // turn k (1-based) of a session: 2k image parts of 64 tokens each at the simulator, and under 64
                    // tokens of text (k messages of 4 words, k - 1 answers of 4 tokens)
                    final int k = i % 3 + 1;
                    final long prompt = turns.get(i).path("usage_prompt_tokens").asLong();
                    assertEquals(2 * k, prompt / 64, api.word() + " turn " + k + ": " + turns.get(i));
                    assertTrue(prompt % 64 >= 4 * k, api.word() + " turn " + k + ": " + turns.get(i));
                    expectedImages += 2 * k;
                }
            }
            assertEquals(2, byUser.size());
            final JsonNode workload = JSON.readTree(out.resolve("record.json").toFile()).path("workload");
            final JsonNode images = workload.path("images");
            assertEquals(12, workload.path("hash_requests").asLong());
            assertEquals(expectedImages, images.path("sent").asLong(), images.toString());
            assertEquals(2, images.path("per_request").asInt());
            assertTrue(images.path("source").asText().contains("user, session, turn"), images.toString());
            assertTrue(images.path("session_rule").asText().contains("resends every earlier user message with " +
                "its images"), images.toString());
            assertTrue(workload.path("prompts").asText().contains("images 2 x 32x32 png per turn"),
                workload.toString());
        }
    }
}
