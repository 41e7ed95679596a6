package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

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
    private HttpServer server;
    private volatile long readyAtNs;
    private volatile boolean modelsMissing;
    /** The completion endpoint answers 200 with a whole JSON body, as a server that ignores stream: true. */
    private volatile boolean jsonBody;
    /** The completion endpoint reads the request and then says nothing for this long. */
    private volatile long muteMs;

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws IOException
    {
        console = CapturedConsole.started();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/models", this::models);
        server.createContext("/v1/chat/completions", this::completions);
        server.start();
    }

    @AfterEach
    void stop()
    {
        server.stop(0);
        console.restore();
    }

    private boolean ready()
    {
        return System.nanoTime() >= readyAtNs;
    }

    private void models(final HttpExchange x) throws IOException
    {
        if (modelsMissing)
        {
            FakeHttp.reply(x, 404, "{\"detail\":\"Not Found\"}");
        }
        else if (!ready())
        {
            FakeHttp.reply(x, 503, LOADING);
        }
        else
        {
            FakeHttp.reply(x, 200, "{\"object\":\"list\",\"data\":[{\"id\":\"loaded-model\",\"object\":\"model\"}]}");
        }
    }

    private void completions(final HttpExchange x) throws IOException
    {
        x.getRequestBody().readAllBytes();
        if (!ready())
        {
            FakeHttp.reply(x, 503, LOADING);
            return;
        }
        if (jsonBody)
        {
            x.getResponseHeaders().add("content-type", "application/json");
            FakeHttp.reply(x, 200, "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"hi\"}}]}");
            return;
        }
        if (muteMs > 0)
        {
            try
            {
                Thread.sleep(muteMs);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
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

    private int run(final String... extra)
    {
        final String[] base = {"run", "--url", "http://127.0.0.1:" + server.getAddress().getPort() + "/v1",
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
        assertTrue(errText().contains("were not enough"), errText());
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
        // The server answers after 5 s: a probe that waited longer than --timeout (its own 60 s, say) would get the
        // answer and go on to the run, so "unreachable, naming --timeout" is what shows the 1 s limit held.
        muteMs = 5_000;
        assertEquals(Main.EXIT_UNREACHABLE, run("--timeout", "1"));
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
}
