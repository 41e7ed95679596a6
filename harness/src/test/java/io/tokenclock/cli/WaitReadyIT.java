package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.testing.ScriptedSseServer;

/**
 * A server that is still loading its model, as llama.cpp's and vLLM's servers are for seconds to minutes after they
 * start: it answers 503 "Loading model" on every path until it is ready. {@code --wait-ready} waits for it and
 * records how long; without it, the one line says the real cause (the status and the body, escaped) and exit 3, as
 * does a 404 on {@code /models}.
 */
@Timeout(120)
@Tag("slow") // waits for servers that become ready late: skipped by -Pfast
final class WaitReadyIT
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LOADING = "{\"error\":{\"message\":\"Loading model\",\"type\":\"unavailable_error\"," +
        "\"code\":503}}\n\u001b]0;pwned\u0007";

    private CapturedConsole console;
    @RegisterExtension
    final ScriptedSseServer server = new ScriptedSseServer();
    private volatile long readyAtNs;
    private volatile boolean modelsMissing;
    /** The completion endpoint answers 200 with a whole JSON body, as a server that ignores stream: true. */
    private volatile boolean jsonBody;
    /** The completion endpoint reads the request and then says nothing for this long. */
    private volatile long muteMs;
    /** The completion endpoint's stream: these events, then silence for {@link #SILENCE_MS}; null for a good one. */
    private volatile String thenSilent;
    /** The completion endpoint refuses every request with this status and body; 0 for none. */
    private volatile int refuseStatus;
    private volatile String refuseBody;
    /** Each "not ready" answer takes this long to come. */
    private volatile long slowNotReadyMs;
    /**
     * Set when the server's silence (muteMs, SILENCE_MS) ends: a probe that gave up at its limit has ended before.
     * A flag rather than a wall-clock bound, so a busy machine's slow start cannot fail the test.
     */
    private volatile boolean silenceOver;
    private final AtomicInteger modelsProbes = new AtomicInteger();
    /** Longer than any test here waits: a probe that waits for it has not honoured its limits. */
    private static final long SILENCE_MS = 20_000;

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws IOException
    {
        console = CapturedConsole.started();
        server.on("/v1/models", this::models);
        server.on("/v1/chat/completions", this::completions);
        server.start();
    }

    @AfterEach
    void stop()
    {
        console.restore();
    }

    private boolean ready()
    {
        return System.nanoTime() >= readyAtNs;
    }

    private void models(final HttpExchange x) throws IOException
    {
        modelsProbes.incrementAndGet();
        if (modelsMissing)
        {
            ScriptedSseServer.reply(x, 404, "{\"detail\":\"Not Found\"}");
        }
        else if (!ready())
        {
            sleep(slowNotReadyMs);
            ScriptedSseServer.reply(x, 503, LOADING);
        }
        else
        {
            ScriptedSseServer.reply(x, 200,
                "{\"object\":\"list\",\"data\":[{\"id\":\"loaded-model\",\"object\":\"model\"}]}");
        }
    }

    private void completions(final HttpExchange x) throws IOException
    {
        x.getRequestBody().readAllBytes();
        if (!ready())
        {
            ScriptedSseServer.reply(x, 503, LOADING);
            return;
        }
        if (refuseStatus != 0)
        {
            ScriptedSseServer.reply(x, refuseStatus, refuseBody);
            return;
        }
        if (thenSilent != null)
        {
            x.getResponseHeaders().add("content-type", "text/event-stream");
            x.sendResponseHeaders(200, 0);
            final OutputStream body = x.getResponseBody();
            body.write(thenSilent.getBytes(StandardCharsets.UTF_8));
            body.flush();
            sleep(SILENCE_MS);
            silenceOver = true;
            body.close();
            return;
        }
        if (jsonBody)
        {
            x.getResponseHeaders().add("content-type", "application/json");
            ScriptedSseServer.reply(x, 200,
                "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"hi\"}}]}");
            return;
        }
        if (muteMs > 0)
        {
            sleep(muteMs);
            silenceOver = true;
        }
        x.getResponseHeaders().add("content-type", "text/event-stream");
        x.sendResponseHeaders(200, 0);
        try (OutputStream body = x.getResponseBody())
        {
            for (final String piece : new String[] {"Hel", "lo"})
            {
                body.write(("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + piece + "\"}}]}\n\n")
                    .getBytes(StandardCharsets.UTF_8));
                body.flush();
            }
            body.write(("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]," +
                "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}\n\ndata: [DONE]\n\n")
                .getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void sleep(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private int run(final String... extra)
    {
        final String[] base = {"run", "--url", server.apiUrl(),
            "--concurrency", "1", "--requests", "2", "--max-tokens", "2", "--no-progress",
            "--output-dir", dir.resolve("run").toString()};
        final String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        return Main.execute(args);
    }

    private String errText()
    {
        return console.err();
    }

    @Test
    void shouldWaitForALoadingServerAndRecordHowLong() throws Exception
    {
        readyAtNs = System.nanoTime() + 1_500_000_000L;
        assertEquals(Main.EXIT_OK, run("--wait-ready", "30"), errText());
        assertTrue(errText().contains("not ready") && errText().contains("503"), errText());
        final JsonNode ready = JSON.readTree(dir.resolve("run").resolve("record.json").toFile())
            .path("measurement").path("readiness");
        assertTrue(ready.path("server_ready_after_s").asDouble() >= 1.4, ready.toString());
        assertTrue(ready.path("server_probes").asInt() >= 3, "polled until ready: " + ready);
        assertEquals(30.0, ready.path("wait_ready_s").asDouble(), 1e-9);
    }

    @Test
    void shouldNameTheStatusAndTheEscapedBodyWhenTheServerIsLoadingAndNoWaitWasAsked()
    {
        readyAtNs = Long.MAX_VALUE;
        assertEquals(Main.EXIT_UNREACHABLE, run());
        final String text = errText().strip();
        assertEquals(1, text.lines().count(), "one line: " + text);
        assertTrue(text.contains("503") && text.contains("Loading model") && text.contains("--wait-ready"), text);
        assertFalse(text.contains("lists no model"), "a 503 is not an empty list: " + text);
        assertFalse(text.contains("\u001b") || text.contains("\u0007"), "no raw escape reaches the terminal: " + text);
        assertTrue(text.contains("\\u001b]0;pwned\\u0007"), "it is shown escaped: " + text);
    }

    @Test
    void shouldGiveUpWhenTheWaitRunsOutAndSaySo()
    {
        readyAtNs = Long.MAX_VALUE;
        final long startNs = System.nanoTime();
        assertEquals(Main.EXIT_UNREACHABLE, run("--wait-ready", "1.5"));
        assertTrue(System.nanoTime() - startNs >= 1_400_000_000L, "it waited");
        assertTrue(errText().contains("wait ran out after") && errText().contains("--wait-ready 1.5"), errText());
    }

    @Test
    void shouldRefuseAServerThatIgnoresStreamingBeforeTheRun()
    {
        readyAtNs = 0;
        jsonBody = true;
        assertEquals(Main.EXIT_UNREACHABLE, run());
        assertTrue(errText().contains("JSON body") && errText().contains("stream"), errText());
    }

    @Test
    void shouldLetTheProbeRunForTimeoutAndSayWhichLimitRanOut()
    {
        readyAtNs = 0;
        muteMs = SILENCE_MS;
        assertEquals(Main.EXIT_UNREACHABLE, run("--timeout", "1"));
        assertFalse(silenceOver, "the probe gave up at --timeout, before the server answered");
        assertTrue(errText().contains("--timeout"), errText());
    }

    @Test
    void shouldExitThreeWithTheStatusWhenModelsIsNotFound()
    {
        readyAtNs = 0;
        modelsMissing = true;
        assertEquals(Main.EXIT_UNREACHABLE, run());
        assertTrue(errText().contains("404") && errText().contains("--model"), errText());
        console.resetErr();
        assertEquals(Main.EXIT_OK, run("--model", "loaded-model", "--force"), errText());
    }

    @Test
    void shouldEndThePreflightAtAnErrorEventThatSilenceFollows()
    {
        readyAtNs = 0;
        thenSilent = "data: {\"error\":{\"message\":\"engine dead\",\"type\":\"server_error\"}}\n\n";
        assertEquals(Main.EXIT_UNREACHABLE, run("--timeout", "15"));
        assertFalse(silenceOver, "it ended at the error event, not after the server's silence: " + errText());
        assertTrue(errText().contains("error event") && errText().contains("engine dead"), errText());
    }

    @Test
    void shouldHoldThePreflightToTheRunsTotalLimitWhenTheStreamGoesSilent()
    {
        readyAtNs = 0;
        thenSilent = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n";
        assertEquals(Main.EXIT_UNREACHABLE, run("--timeout", "2"));
        assertFalse(silenceOver, "the preflight gave up at --timeout 2, before the server's silence ended: " +
            errText());
        assertTrue(errText().contains("(--timeout)"), errText());
    }

    @Test
    void shouldHoldThePreflightToTheRunsIdleLimit()
    {
        readyAtNs = 0;
        thenSilent = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n";
        assertEquals(Main.EXIT_UNREACHABLE, run("--timeout", "15", "--idle-timeout", "1"));
        assertTrue(errText().contains("went silent") && errText().contains("(--idle-timeout)"), errText());
    }

    @Test
    void shouldSayTheWaitRanOutAndAfterHowLongWithinItsBudget()
    {
        readyAtNs = Long.MAX_VALUE;
        slowNotReadyMs = 2_000;
        assertEquals(Main.EXIT_UNREACHABLE, run("--wait-ready", "3"));
        final String text = errText().strip();
        // Probe 1 answers after 2 s, the pause takes the wait to its end: a second probe would be sent after the
        // budget ran out (and answer 2 s later still). Counted, not timed, so a slow machine cannot pass or fail it.
        assertEquals(1, modelsProbes.get(), "no probe starts once the 3 s have run out: " + text);
        final String last = text.lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.contains("wait ran out after 3.") && last.contains("--wait-ready 3"), last);
        assertFalse(last.contains("--wait-ready S"), "it does not suggest the flag already given: " + last);
    }

    @Test
    void shouldRecordARefusedConfigurationThatRecordPrints() throws Exception
    {
        readyAtNs = 0;
        refuseStatus = 500;
        refuseBody = "{\"error\":{\"message\":\"CUDA out of memory. Tried to allocate 2.00 GiB\u001b[2J\"}}";
        assertEquals(Main.EXIT_UNREACHABLE, run());
        final Path file = dir.resolve("run").resolve("refusal.json");
        assertTrue(errText().contains("500") && errText().contains(file.toString()), errText());
        final JsonNode refusal = JSON.readTree(file.toFile());
        assertEquals("status", refusal.path("kind").asText());
        assertEquals(500, refusal.path("status").asInt());
        assertTrue(refusal.path("body").asText().contains("CUDA out of memory"), refusal.toString());
        assertTrue(refusal.path("body").asText().contains("\\u001b[2J"), "escaped: " + refusal);
        console.resetErr();
        assertEquals(Main.EXIT_OK, Main.execute("record", dir.resolve("run").toString()));
        final String shown = console.out();
        assertTrue(shown.contains("REFUSED") && shown.contains("CUDA out of memory") && shown.contains("500"),
            shown);
        assertFalse(shown.contains("\u001b"), "no raw escape reaches the terminal: " + shown);
    }
}
