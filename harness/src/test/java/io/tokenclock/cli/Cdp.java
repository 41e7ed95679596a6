package io.tokenclock.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A small Chrome DevTools Protocol client over the JDK's WebSocket: starts headless Chromium with a fresh profile,
 * background networking, component updates and sync off, and its debugging port on loopback only (port 0: the
 * browser picks one and writes it to {@code DevToolsActivePort}), attaches to its page, and records every event the
 * page sends (console, log, exceptions, network) for the test to assert on.
 */
final class Cdp implements AutoCloseable
{
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_S = 60;

    private final Process chrome;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<JsonNode> events = new ArrayList<>();

    private Cdp(final Process chrome, final String pageUrl) throws IOException, InterruptedException
    {
        this.chrome = chrome;
        this.socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
            .buildAsync(URI.create(pageUrl), new Listener()).join();
    }

    /** Starts Chromium on {@code profile} (a fresh, empty directory) and attaches to its one page. */
    static Cdp launch(final Path profile, final int width, final int height) throws IOException, InterruptedException
    {
        final Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars", "--mute-audio",
            "--user-data-dir=" + profile, "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
            "--window-size=" + width + "," + height, "about:blank")
            .redirectErrorStream(true).redirectOutput(profile.resolveSibling("chromium.log").toFile()).start();
        final Path portFile = profile.resolve("DevToolsActivePort");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (!Files.isRegularFile(portFile) || Files.readAllLines(portFile).size() < 2)
        {
            if (System.nanoTime() > deadline || !p.isAlive())
            {
                p.destroyForcibly();
                throw new IOException("Chromium did not open its debugging port (see chromium.log)");
            }
            Thread.sleep(50);
        }
        final int port = Integer.parseInt(Files.readAllLines(portFile).get(0).trim());
        return new Cdp(p, pageSocket(port));
    }

    private static String pageSocket(final int port) throws IOException, InterruptedException
    {
        final HttpResponse<String> list = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/json/list")).build(), HttpResponse.BodyHandlers.ofString());
        for (final JsonNode target : JSON.readTree(list.body()))
        {
            if ("page".equals(target.path("type").asText()))
            {
                return target.path("webSocketDebuggerUrl").asText();
            }
        }
        throw new IOException("Chromium lists no page: " + list.body());
    }

    /** Sends {@code method} and waits for its answer; an error answer fails. */
    JsonNode call(final String method, final ObjectNode params) throws Exception
    {
        final int id = ids.incrementAndGet();
        final CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        final ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        msg.set("params", params == null ? JSON.createObjectNode() : params);
        socket.sendText(JSON.writeValueAsString(msg), true).join();
        final JsonNode reply = answer.get(TIMEOUT_S, TimeUnit.SECONDS);
        if (reply.has("error"))
        {
            throw new IOException(method + ": " + reply.path("error"));
        }
        return reply.path("result");
    }

    static ObjectNode params()
    {
        return JSON.createObjectNode();
    }

    /** @return the value of {@code expression}, evaluated in the page. */
    JsonNode eval(final String expression) throws Exception
    {
        return call("Runtime.evaluate", params().put("expression", expression).put("returnByValue", true))
            .path("result").path("value");
    }

    /** @return the events so far, and forgets them. */
    List<JsonNode> drainEvents()
    {
        synchronized (events)
        {
            final List<JsonNode> copy = new ArrayList<>(events);
            events.clear();
            return copy;
        }
    }

    /** Waits for an event named {@code method}; keeps every event. */
    void await(final String method) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (System.nanoTime() < deadline)
        {
            synchronized (events)
            {
                if (events.stream().anyMatch(e -> method.equals(e.path("method").asText())))
                {
                    return;
                }
                events.wait(100);
            }
        }
        throw new IOException("no " + method + " within " + TIMEOUT_S + " s");
    }

    @Override
    public void close()
    {
        socket.abort();
        chrome.destroy();
        try
        {
            if (!chrome.waitFor(10, TimeUnit.SECONDS))
            {
                chrome.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            // AutoCloseable.close should not throw InterruptedException (javac's try lint): kill, keep the flag
            chrome.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private final class Listener implements WebSocket.Listener
    {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(final WebSocket ws, final CharSequence data, final boolean last)
        {
            partial.append(data);
            if (last)
            {
                onMessage(partial.toString());
                partial.setLength(0);
            }
            ws.request(1);
            return null;
        }

        private void onMessage(final String text)
        {
            try
            {
                final JsonNode msg = JSON.readTree(text);
                if (msg.has("id"))
                {
                    final CompletableFuture<JsonNode> f = pending.remove(msg.path("id").asInt());
                    if (f != null)
                    {
                        f.complete(msg);
                    }
                    return;
                }
                synchronized (events)
                {
                    events.add(msg);
                    events.notifyAll();
                }
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException("not JSON from Chromium: " + ex.getMessage(), ex);
            }
        }
    }
}
