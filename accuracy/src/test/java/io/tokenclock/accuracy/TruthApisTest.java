package io.tokenclock.accuracy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The truth server's Responses and Messages streams: each API's events in its order, one text delta per scripted
 * chunk carrying its index and send stamp, the stream's id the one its truth log holds (so that a client's
 * requests.jsonl joins it), and usage at the end.
 */
@Timeout(30)
final class TruthApisTest
{
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int TOKENS = 6;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"responses", "messages"})
    void shouldStreamEachApiWithItsSendStampsUnderTheIdOfItsTruthLine(final String api) throws Exception
    {
        final boolean responses = "responses".equals(api);
        final String body = responses ?
            "{\"model\":\"x\",\"input\":\"hi there\",\"max_output_tokens\":6,\"stream\":true}" :
            "{\"model\":\"x\",\"max_tokens\":6,\"messages\":[{\"role\":\"user\",\"content\":\"hi there\"}]," +
            "\"stream\":true}";
        final String deltaType = responses ? "response.output_text.delta" : "content_block_delta";
        final Path log = dir.resolve("truth.jsonl");
        final List<JsonNode> events = new ArrayList<>();
        try (TruthServer server = TruthServer.start(TruthServer.Options.of(TruthScript.fixed(0, 2, TOKENS))
            .withTruthLog(log).withIoThreads(1)))
        {
            final HttpResponse<Stream<String>> response = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1).build().send(HttpRequest.newBuilder(URI.create(
                    server.baseUrl() + "/" + api)).header("content-type", "application/json")
                    .timeout(Duration.ofSeconds(20)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofLines());
            assertEquals(200, response.statusCode());
            try (Stream<String> lines = response.body())
            {
                lines.filter(l -> l.startsWith("data: ")).forEach(l -> events.add(read(l.substring(6))));
            }
            for (int i = 0; i < 100 && (!Files.exists(log) || Files.readString(log).isEmpty()); i++)
            {
                Thread.sleep(20);
            }
        }
        final List<JsonNode> deltas = events.stream().filter(e -> e.path("type").asText().equals(deltaType)).toList();
        assertEquals(TOKENS, deltas.size(), events.toString());
        final long[] sent = new long[TOKENS];
        for (int i = 0; i < TOKENS; i++)
        {
            assertEquals(i, deltas.get(i).path("tc_index").asInt());
            sent[i] = deltas.get(i).path("tc_sent_ns").asLong();
        }
        final String id = "responses".equals(api) ? events.get(0).path("response").path("id").asText() :
            events.get(0).path("message").path("id").asText();
        final AccuracyReport.ServerStream truth = AccuracyReport.readTruth(log).get(id);
        assertNotNull(truth, "the opening event's id is the truth log's: " + id);
        assertArrayEquals(sent, truth.sentNs());
        final JsonNode last = events.get(events.size() - 1);
        if ("responses".equals(api))
        {
            assertEquals("response.incomplete", last.path("type").asText());
            assertEquals(TOKENS, last.path("response").path("usage").path("output_tokens").asInt());
            assertEquals(2, last.path("response").path("usage").path("input_tokens").asInt());
        }
        else
        {
            assertEquals("message_stop", last.path("type").asText());
            final JsonNode delta = events.get(events.size() - 2);
            assertEquals("max_tokens", delta.path("delta").path("stop_reason").asText());
            assertEquals(TOKENS, delta.path("usage").path("output_tokens").asInt());
        }
        assertTrue(events.stream().noneMatch(e -> e.path("type").asText().isEmpty()), "every event is typed");
    }

    private static JsonNode read(final String json)
    {
        try
        {
            return MAPPER.readTree(json);
        }
        catch (final Exception ex)
        {
            throw new AssertionError("not JSON: " + json, ex);
        }
    }
}
