package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.testing.ScriptedSseServer;

/**
 * {@code --jfr-events}: one {@code tokenclock.Request} JFR event per finished request in {@code requests.jfr}, with
 * the same figures as requests.jsonl, beside the JVM's own events and without those that carry the environment;
 * without the flag, no recording at all.
 */
@Timeout(120)
final class JfrEventsIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path dir;

    @RegisterExtension
    final ScriptedSseServer server = new ScriptedSseServer();

    @BeforeEach
    void start() throws IOException
    {
        server.on("/v1/chat/completions", x -> ScriptedSseServer.stream(x, ScriptedSseServer.TWO_TOKENS));
        server.start();
    }

    private Path run(final String name, final String... extra)
    {
        final Path out = dir.resolve(name);
        final List<String> args = new java.util.ArrayList<>(List.of("run", "--url", server.apiUrl(), "--model", "m",
            "--no-preflight", "--concurrency", "2",
            "--requests", "6", "--warmup-requests", "2", "--no-progress", "--no-report", "--output-dir",
            out.toString()));
        args.addAll(List.of(extra));
        assertEquals(Main.EXIT_OK, Main.execute(args.toArray(String[]::new)), console.err());
        return out;
    }

    @Test
    void shouldRecordOneEventPerRequestWithItsFiguresWhenAsked() throws IOException
    {
        final Path out = run("jfr", "--jfr-events");
        final Map<Long, JsonNode> lines = new HashMap<>();
        for (final String line : Files.readAllLines(out.resolve("requests.jsonl")))
        {
            final JsonNode row = JSON.readTree(line);
            lines.put(row.path("id").asLong(), row);
        }
        int requests = 0;
        boolean jvmEvents = false;
        for (final RecordedEvent e : RecordingFile.readAllEvents(out.resolve("requests.jfr")))
        {
            final String type = e.getEventType().getName();
            assertFalse(type.equals("jdk.InitialEnvironmentVariable") || type.equals("jdk.InitialSystemProperty") ||
                type.equals("jdk.JVMInformation"), type + " carries what a recording must never hold");
            assertFalse(type.equals("jdk.ThreadDump"), "a thread dump stops every thread at the window's edge");
            jvmEvents |= type.startsWith("jdk.");
            if (type.equals("tokenclock.Request"))
            {
                requests++;
                final JsonNode row = lines.get(e.getLong("requestId"));
                assertEquals(row.path("phase").asText(), e.getString("phase"));
                assertEquals(row.path("status").asText(), e.getString("status"));
                assertEquals(row.path("output_tokens").asLong(), e.getLong("outputTokens"));
                assertEquals(row.path("ttft_ms").asDouble(), e.getDuration("ttft").toNanos() / 1e6, 0.001);
                assertEquals(row.path("e2e_ms").asDouble(), e.getDuration("e2e").toNanos() / 1e6, 0.001);
                assertTrue(e.getDuration("streamSetup").compareTo(Duration.ZERO) >= 0);
            }
        }
        assertEquals(lines.size(), requests, "one event per line of requests.jsonl, warm-up included");
        assertTrue(jvmEvents, "the JVM's own events beside them");
    }

    @Test
    void shouldRecordNothingWithoutTheFlag()
    {
        assertFalse(Files.exists(run("plain").resolve("requests.jfr")));
    }
}
