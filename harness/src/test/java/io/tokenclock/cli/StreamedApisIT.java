package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.testing.ApiStreams;
import io.tokenclock.testing.ScriptedSseServer;

/**
 * {@code run --endpoint responses} and {@code --endpoint messages} as a user types them: against the simulator, the
 * record and every request line name the API and carry its usage; a URL ending in the API's path is the API, not a
 * base; against a server that speaks chat only, one line names the status and the path.
 */
@Timeout(120)
final class StreamedApisIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @RegisterExtension
    final ScriptedSseServer chatOnly = new ScriptedSseServer();

    @TempDir
    Path dir;

    private List<JsonNode> lines(final Path run) throws Exception
    {
        final List<JsonNode> out = new ArrayList<>();
        for (final String line : Files.readAllLines(run.resolve("requests.jsonl")))
        {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"responses", "messages"})
    void shouldRunTheApiAndNameItInTheRecordAndEveryRequestLine(final String api) throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(5).decodeBaseMs(5).reasoningTokens(2)))
        {
            final Path run = dir.resolve(api);
            final int code = Main.execute("run", "--url", server.baseUrl(), "--endpoint", api, "--concurrency", "2",
                "--requests", "6", "--max-tokens", "10", "--ignore-eos", "--input-tokens", "12", "--extra-body",
                "{\"sim_cached_tokens\": 5}", "--no-progress", "--output-dir", run.toString());

            assertEquals(Main.EXIT_OK, code, console.err());
            final JsonNode record = JSON.readTree(run.resolve("record.json").toFile());
            assertEquals(api, record.path("runtime").path("api").asText());
            assertTrue(record.path("runtime").path("endpoint").asText().endsWith("/v1/" + api),
                record.path("runtime").toString());
            final List<JsonNode> lines = lines(run);
            assertTrue(lines.size() >= 6, "warm-up and measured lines");
            for (final JsonNode line : lines)
            {
                assertEquals(api, line.path("api").asText());
                assertEquals("ok", line.path("status").asText(), line.toString());
                assertEquals(10, line.path("chunks").asInt(), "2 reasoning and 8 answer events: " + line);
                assertEquals(10, line.path("output_tokens").asInt());
                assertEquals("usage", line.path("token_count_source").asText());
                assertEquals(5, line.path("cached_tokens").asInt(), "the API's cached-token count");
                assertEquals("length", line.path("finish_reason").asText(), "the answer stopped at its cap");
                // lower bounds only (the engine never writes before its deadlines); reads may merge two events
                assertTrue(line.path("ttfot_ms").asDouble() >= 5.0 + 2 * 5.0, "two reasoning steps first: " + line);
                assertTrue(line.path("ttfot_ms").asDouble() >= line.path("ttft_ms").asDouble(), line.toString());
                assertEquals(0, line.path("unknown_events").asInt());
            }
            assertTrue(lines.stream().anyMatch(l -> l.path("ttfot_ms").asDouble() > l.path("ttft_ms").asDouble()),
                "the first token is reasoning, the answer's first token later");
            if ("responses".equals(api))
            {
                assertEquals(2, lines.get(0).path("usage_reasoning_tokens").asInt(), "Responses counts them");
            }
            else
            {
                assertTrue(lines.get(0).path("usage_reasoning_tokens").isNull(), "Messages has no such count");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"responses", "messages"})
    void shouldTakeAUrlEndingInTheApisPathAsTheApi(final String api) throws Exception
    {
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(1)))
        {
            final Path run = dir.resolve("url-" + api);
            final int code = Main.execute("run", "--url", server.baseUrl() + "/" + api, "--concurrency", "1",
                "--requests", "2", "--max-tokens", "4", "--no-progress", "--output-dir", run.toString());

            assertEquals(Main.EXIT_OK, code, console.err());
            assertEquals(api, JSON.readTree(run.resolve("record.json").toFile()).path("runtime").path("api").asText());
            assertEquals(api, lines(run).get(0).path("api").asText());
        }
    }

    @Test
    void shouldCountEventsOfAnUnknownTypeInTheRecordAndSayItWithoutFailingARequest() throws Exception
    {
        final String unknown = "event: message_compaction\ndata: {\"type\":\"message_compaction\",\"x\":1}\n\n";
        chatOnly.on("/v1/models", x -> ScriptedSseServer.reply(x, 200,
            "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\"}]}"));
        chatOnly.on("/v1/messages", x ->
        {
            x.getRequestBody().readAllBytes();
            ScriptedSseServer.stream(x, ApiStreams.MESSAGES_LLAMA_SERVER.replace("event: content_block_stop",
                unknown + "event: content_block_stop"));
        });
        chatOnly.start();
        final Path run = dir.resolve("unknown");

        // the note is one of the summary's details, printed with --verbose (issue 38); the record always counts them
        final int code = Main.execute("run", "--url", chatOnly.apiUrl() + "/messages", "--concurrency", "1",
            "--requests", "3", "--max-tokens", "4", "--no-progress", "--verbose", "--output-dir", run.toString());

        assertEquals(Main.EXIT_OK, code, console.err());
        final JsonNode record = JSON.readTree(run.resolve("record.json").toFile());
        assertEquals(3, record.path("report").path("counts").path("ok").asInt());
        assertEquals(3, record.path("report").path("counts").path("unknown_events").asInt(),
            "one per measured request");
        assertTrue(console.out().contains("note: 3 events of a type the messages grammar does not know"),
            console.out());
    }

    @Test
    void shouldRefuseAnEndpointThatContradictsTheUrlInOneLine()
    {
        final int code = Main.execute("run", "--url", "http://127.0.0.1:9/v1/messages", "--endpoint", "responses",
            "--concurrency", "1");

        assertEquals(Main.EXIT_USAGE, code);
        assertTrue(console.err().contains("--endpoint responses and --url ending in /messages name two APIs"),
            console.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"responses", "messages"})
    void shouldNameTheStatusAndThePathInOneLineAgainstAChatOnlyServer(final String api)
    {
        chatOnly.on("/v1/models", x -> ScriptedSseServer.reply(x, 200,
            "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\"}]}"));
        chatOnly.on("/v1/chat/completions", x -> ScriptedSseServer.stream(x,
            "data: {\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"));
        chatOnly.start();

        final int code = Main.execute("run", "--url", chatOnly.apiUrl(), "--endpoint", api, "--concurrency", "1",
            "--requests", "1", "--no-progress", "--output-dir", dir.resolve("refused").toString());

        assertEquals(Main.EXIT_UNREACHABLE, code);
        final List<String> errLines = console.err().lines().filter(l -> !l.isBlank()).toList();
        final String line = errLines.stream().filter(l -> l.contains("answered")).findFirst().orElse("");
        assertTrue(line.contains("/v1/" + api + " answered 404"), console.err());
        assertTrue(line.contains("does not serve"), "says what a 404 on the API's path means: " + line);
    }
}
