package io.tokenclock.accuracy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The baseline client against the ground-truth server on loopback: what it writes per request (the fields, in order,
 * that {@link AccuracyReport} reads), its counts, the open loop's intended starts, and how it classes failures.
 * Asserts behaviour only (counts, order, stamp relations), never speed.
 */
@Timeout(60)
final class JdkBaselineClientTest
{
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<String> CLOSED_FIELDS = List.of("id", "response_id", "phase", "status", "error",
        "error_detail", "sent_ns", "first_token_ns", "end_ns", "chunk_ns", "chunks");

    @TempDir
    Path dir;

    @Test
    void closedLoopWritesOneLinePerRequestWithEveryContentChunksStamp() throws Exception
    {
        final Path out = dir.resolve("sub/requests.jsonl");
        final JdkBaselineClient.Result result;
        try (TruthServer server = TruthServer.start(TruthServer.Options.of(TruthScript.fixed(1, 1, 16))))
        {
            result = JdkBaselineClient.run(new JdkBaselineClient.Options(server.baseUrl(), "m", 2, 3, 1, 4, out,
                Duration.ofSeconds(30)));
        }
        assertEquals(3, result.ok());
        assertEquals(0, result.errors());
        assertEquals(12, result.chunks(), "warm-up chunks are not counted");
        final List<JsonNode> lines = read(out);
        assertEquals(4, lines.size());
        for (final JsonNode r : lines)
        {
            assertEquals(CLOSED_FIELDS, fields(r));
            assertEquals(r.path("id").asInt() == 0 ? "warmup" : "measure", r.path("phase").asText());
            assertEquals("ok", r.path("status").asText());
            assertTrue(r.path("error").isNull() && r.path("error_detail").isNull(), r.toString());
            assertTrue(r.path("response_id").asText().startsWith("chatcmpl-tc"), r.toString());
            assertEquals(4, r.path("chunks").asInt());
            final JsonNode chunks = r.path("chunk_ns");
            assertEquals(4, chunks.size());
            assertEquals(chunks.get(0).asLong(), r.path("first_token_ns").asLong());
            long previous = r.path("sent_ns").asLong();
            for (final JsonNode c : chunks)
            {
                assertTrue(c.asLong() >= previous, r.toString());
                previous = c.asLong();
            }
            assertTrue(r.path("end_ns").asLong() >= previous, r.toString());
        }
        assertEquals(List.of(0, 1, 2, 3), lines.stream().map(r -> r.path("id").asInt()).sorted().toList());
    }

    @Test
    void openLoopRecordsEachIntendedStartOnTheSeededPoissonSchedule() throws Exception
    {
        final Path out = dir.resolve("open.jsonl");
        final JdkBaselineClient.Result result;
        try (TruthServer server = TruthServer.start(TruthServer.Options.of(TruthScript.fixed(0, 1, 2))))
        {
            result = JdkBaselineClient.run(new JdkBaselineClient.Options(server.baseUrl(), "m", 1, 4, 0, 2, out,
                Duration.ofSeconds(30), 200, 7, 2));
        }
        assertEquals(4, result.ok());
        final List<JsonNode> lines = new ArrayList<>(read(out));
        lines.sort(Comparator.comparingInt(r -> r.path("id").asInt()));
        final JdkBaselineClient.PoissonOffsets offsets = new JdkBaselineClient.PoissonOffsets(200, 7);
        final long start = lines.get(0).path("scheduled_ns").asLong() - offsets.next();
        for (int i = 1; i < lines.size(); i++)
        {
            assertEquals(start + offsets.next(), lines.get(i).path("scheduled_ns").asLong());
        }
        for (final JsonNode r : lines)
        {
            final List<String> expected = new ArrayList<>(CLOSED_FIELDS);
            expected.add(expected.indexOf("sent_ns"), "scheduled_ns");
            assertEquals(expected, fields(r));
            assertTrue(r.path("sent_ns").asLong() >= r.path("scheduled_ns").asLong(), r.toString());
        }
    }

    @Test
    void classesAnHttpErrorAndARefusedConnection() throws Exception
    {
        final Path notFound = dir.resolve("404.jsonl");
        final JdkBaselineClient.Result http;
        try (TruthServer server = TruthServer.start(TruthServer.Options.of(TruthScript.fixed(0, 1, 2))))
        {
            http = JdkBaselineClient.run(new JdkBaselineClient.Options(server.baseUrl() + "/nope/", "m", 1, 1, 0, 2,
                notFound, Duration.ofSeconds(30)));
        }
        assertEquals(0, http.ok());
        assertEquals(1, http.errors());
        final JsonNode r = read(notFound).get(0);
        assertEquals("error", r.path("status").asText());
        assertEquals("http_404", r.path("error").asText());
        assertEquals("HTTP 404", r.path("error_detail").asText());
        assertEquals(0, r.path("chunks").asInt());
        assertEquals(0, r.path("first_token_ns").asLong());
        assertTrue(r.path("response_id").isNull());

        final int closedPort;
        try (ServerSocket socket = new ServerSocket(0))
        {
            closedPort = socket.getLocalPort();
        }
        final Path refused = dir.resolve("refused.jsonl");
        final JdkBaselineClient.Result none = JdkBaselineClient.run(new JdkBaselineClient.Options(
            "http://127.0.0.1:" + closedPort + "/v1", "m", 1, 1, 0, 2, refused, Duration.ofSeconds(30)));
        assertEquals(1, none.errors());
        final JsonNode c = read(refused).get(0);
        assertEquals("client_error", c.path("error").asText());
        assertTrue(c.path("error_detail").asText().contains("ConnectException"), c.toString());
    }

    private static List<JsonNode> read(final Path file) throws Exception
    {
        final List<JsonNode> out = new ArrayList<>();
        for (final String line : Files.readAllLines(file))
        {
            out.add(MAPPER.readTree(line));
        }
        return out;
    }

    private static List<String> fields(final JsonNode r)
    {
        final List<String> out = new ArrayList<>();
        r.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
