package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.tokenclock.transport.kernel.KernelStamps;

import io.tokenclock.testing.ScriptedSseServer;

/**
 * A server that sends its response headers at once and its first token 300 ms later, as an engine does that answers
 * the head before prefill: stream setup (send to headers) ends long before TTFT, and the two are told apart. Through
 * both clients: the kernel-stamped one (the default) and Netty's ({@code --stamping user}).
 */
@Timeout(120)
final class StreamSetupIT
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long PREFILL_MS = 300;

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    @RegisterExtension
    final ScriptedSseServer server = new ScriptedSseServer();

    @BeforeEach
    void start() throws IOException
    {
        server.on("/v1/chat/completions", StreamSetupIT::headersThenPrefill);
        server.start();
    }

    private static void headersThenPrefill(final HttpExchange x) throws IOException
    {
        try (OutputStream body = ScriptedSseServer.openStream(x))
        {
            body.flush();
            sleep();
            body.write(ScriptedSseServer.TWO_TOKENS.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void sleep() throws IOException
    {
        try
        {
            Thread.sleep(PREFILL_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException(ex);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"kernel", "user"})
    void shouldEndStreamSetupAtTheHeadersAndTtftAtTheFirstToken(final String stamping) throws IOException
    {
        final Path out = dir.resolve("run");
        assertEquals(Main.EXIT_OK, Main.execute("run", "--url", server.apiUrl(), "--model", "m",
            "--no-preflight", "--concurrency", "1", "--requests", "2", "--no-progress",
            "--no-report", "--stamping", stamping, "--output-dir", out.toString()), console.err());
        final List<String> lines = Files.readAllLines(out.resolve("requests.jsonl"));
        assertEquals(2, lines.size());
        for (final String line : lines)
        {
            final JsonNode row = JSON.readTree(line);
            final long sent = row.path("sent_ns").asLong();
            final long headers = row.path("headers_ns").asLong();
            assertTrue(headers > sent && headers < row.path("first_token_ns").asLong(), line);
            assertEquals((headers - sent) / 1e6, row.path("stream_setup_ms").asDouble(), 0.001, line);
            // The server sleeps between the head and the first token; a client read late can only shorten the gap.
            assertTrue(row.path("first_token_ns").asLong() - headers >= PREFILL_MS * 2 / 3 * 1_000_000L, line);
            assertTrue(row.path("ttft_ms").asDouble() >= row.path("stream_setup_ms").asDouble() + PREFILL_MS * 2 / 3,
                line);
        }
        final JsonNode record = JSON.readTree(out.resolve("record.json").toFile());
        if (KernelStamps.unavailableReason() == null)
        {
            assertEquals(stamping, record.path("measurement").path("stamping").path("mode").asText(), "the client");
        }
        final JsonNode setup = record.path("report").path("distributions").path("stream_setup");
        assertEquals(2, setup.path("count").asInt());
        assertTrue(console.out().contains("stream_setup"), "the summary shows it beside TTFT");
    }
}
