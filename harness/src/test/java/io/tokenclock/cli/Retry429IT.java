package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.testing.ScriptedSseServer;

/**
 * A server that sheds load: its first answers are 429 with a {@code Retry-After}. By default each 429 is an error
 * with its Retry-After recorded; {@code --retry-429 N} sends the request again after the wait, counts the retries
 * apart, and a request still waiting when the drain runs out is cancelled rather than left hanging.
 */
@Timeout(120)
final class Retry429IT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private CapturedConsole console;
    @RegisterExtension
    final ScriptedSseServer server = new ScriptedSseServer();
    private final AtomicInteger posts = new AtomicInteger();
    private volatile int rejectFirst;
    private volatile String retryAfter = "0.2";

    @BeforeEach
    void start() throws IOException
    {
        server.on("/v1/chat/completions", this::answer).start();
        console = CapturedConsole.started();
    }

    @AfterEach
    void stop()
    {
        console.restore();
    }

    private void answer(final HttpExchange x) throws IOException
    {
        if (posts.incrementAndGet() <= rejectFirst)
        {
            x.getRequestBody().readAllBytes();
            x.getResponseHeaders().add("retry-after", retryAfter);
            ScriptedSseServer.reply(x, 429, "{\"error\":{\"message\":\"slow down\",\"code\":429}}");
            return;
        }
        ScriptedSseServer.stream(x, ScriptedSseServer.TWO_TOKENS);
    }

    private List<JsonNode> run(final String name, final int expectedExit, final String... extra) throws IOException
    {
        final List<String> args = new ArrayList<>(List.of("run", "--url",
            server.apiUrl(), "--model", "m", "--no-preflight",
            "--concurrency", "1", "--no-progress", "--output-dir", dir.resolve(name).toString()));
        args.addAll(List.of(extra));
        assertEquals(expectedExit, Main.execute(args.toArray(String[]::new)), console.err());
        final List<JsonNode> rows = new ArrayList<>();
        for (final String line : Files.readAllLines(dir.resolve(name).resolve("requests.jsonl")))
        {
            rows.add(JSON.readTree(line));
        }
        return rows;
    }

    private JsonNode counts(final String name) throws IOException
    {
        return JSON.readTree(dir.resolve(name).resolve("record.json").toFile()).path("report").path("counts");
    }

    @Test
    void shouldRecordEach429AndItsRetryAfterWithoutRetrying() throws IOException
    {
        rejectFirst = 2;
        final List<JsonNode> rows = run("plain", Main.EXIT_FAILED, "--requests", "2");
        for (final JsonNode row : rows)
        {
            assertEquals("http_429", row.path("error").asText());
            assertEquals(200, row.path("retry_after_ms").asInt());
            assertEquals(0, row.path("retries_429").asInt());
        }
        assertEquals(2, posts.get(), "no retry was sent");
        assertTrue(counts("plain").path("http_429_per_s").asDouble() > 0);
    }

    @Test
    void shouldSendAgainAfterRetryAfterAndCountTheRetries() throws IOException
    {
        rejectFirst = 2;
        final List<JsonNode> rows = run("retry", Main.EXIT_OK, "--requests", "2", "--retry-429", "3");
        assertEquals(2, rows.size());
        assertEquals("ok", rows.get(0).path("status").asText(), rows.get(0).toString());
        assertEquals(2, rows.get(0).path("retries_429").asInt(), "two 429s, then the stream");
        // On the row's own stamps, not on the wall clock: the send stamp is the last send's, both 200 ms waits lie
        // between the intended start and it, TTFT counts from that last send and TTFT from schedule from the start.
        final JsonNode row = rows.get(0);
        final long scheduledNs = row.path("scheduled_ns").asLong();
        final long sentNs = row.path("sent_ns").asLong();
        final long firstTokenNs = row.path("first_token_ns").asLong();
        assertTrue(sentNs - scheduledNs >= 400_000_000L - 1_000_000L,
            "the send stamp is the last send's, after both 200 ms waits: " + row);
        assertTrue(firstTokenNs > sentNs, row.toString());
        assertEquals((firstTokenNs - sentNs) / 1e6, row.path("ttft_ms").asDouble(), 0.001, "TTFT from the last send");
        assertEquals((firstTokenNs - scheduledNs) / 1e6, row.path("ttft_from_schedule_ms").asDouble(), 0.001,
            "TTFT from schedule from the first intended start");
        assertEquals(2, counts("retry").path("retries_429").asInt());
        assertEquals(4, posts.get());
    }

    @Test
    void shouldCancelARequestStillWaitingToRetryWhenTheDrainRunsOut() throws IOException
    {
        rejectFirst = 100;
        retryAfter = "30";
        final List<JsonNode> rows = run("waiting", Main.EXIT_FAILED, "--retry-429", "1", "--requests", "1",
            "--drain-timeout", "0.5");
        assertEquals(1, rows.size());
        assertEquals("cancelled", rows.get(0).path("status").asText(), rows.get(0).toString());
    }
}
