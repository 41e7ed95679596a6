package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

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
 * A server that sends more than a client should hold: one SSE event of 2 MiB, or a stream of many small chunks
 * whose text adds up past the output limit. Each such request ends as {@code oversize}, at once, and the run goes on.
 */
@Timeout(120)
final class OversizeIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private CapturedConsole console;
    @RegisterExtension
    final ScriptedSseServer server = new ScriptedSseServer();
    private volatile boolean hugeEvent;

    @BeforeEach
    void start() throws IOException
    {
        server.on("/v1/chat/completions", this::stream);
        server.start();
        console = CapturedConsole.started();
    }

    @AfterEach
    void stop()
    {
        console.restore();
    }

    private void stream(final HttpExchange x) throws IOException
    {
        try (OutputStream body = ScriptedSseServer.openStream(x))
        {
            if (hugeEvent)
            {
                body.write("data: {\"choices\":[{\"delta\":{\"content\":\"".getBytes(StandardCharsets.UTF_8));
                body.write("x".repeat(2 << 20).getBytes(StandardCharsets.UTF_8));
                body.write("\"}}]}\n\n".getBytes(StandardCharsets.UTF_8));
            }
            else
            {
                for (int i = 0; i < 100; i++)
                {
                    body.write(("data: {\"choices\":[{\"delta\":{\"content\":\"" + "y".repeat(50) + "\"}}]}\n\n")
                        .getBytes(StandardCharsets.UTF_8));
                }
            }
            body.write("data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
                .getBytes(StandardCharsets.UTF_8));
        }
        catch (final IOException clientLeft)
        {
            // the harness closed the connection at the limit, as it should
        }
    }

    private JsonNode runAndRecord(final String name, final String... extra) throws IOException
    {
        final String[] base = {"run", "--url", server.apiUrl(),
            "--model", "m", "--no-preflight", "--concurrency", "1", "--requests", "2", "--no-progress",
            "--output-dir", dir.resolve(name).toString()};
        final String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        assertEquals(Main.EXIT_FAILED, Main.execute(args), console.err());
        return JSON.readTree(dir.resolve(name).resolve("record.json").toFile());
    }

    @Test
    void shouldEndARequestWhoseEventExceedsTheEventLimit() throws IOException
    {
        hugeEvent = true;
        final JsonNode record = runAndRecord("event");
        assertEquals(2, record.path("report").path("errors_by_class").path("oversize").asInt(), record.toString());
        for (final String line : Files.readAllLines(dir.resolve("event").resolve("requests.jsonl")))
        {
            assertTrue(JSON.readTree(line).path("error_detail").asText().contains("--max-event-bytes"), line);
        }
    }

    @Test
    void shouldEndARequestWhoseTextExceedsTheOutputLimit() throws IOException
    {
        hugeEvent = false;
        final JsonNode record = runAndRecord("text", "--max-output-bytes", "2048");
        assertEquals(2, record.path("report").path("errors_by_class").path("oversize").asInt(), record.toString());
        for (final String line : Files.readAllLines(dir.resolve("text").resolve("requests.jsonl")))
        {
            final JsonNode row = JSON.readTree(line);
            assertTrue(row.path("error_detail").asText().contains("--max-output-bytes"), line);
            assertTrue(row.path("chunks").asInt() < 100, "ended at the limit, not at the end: " + line);
        }
    }
}
