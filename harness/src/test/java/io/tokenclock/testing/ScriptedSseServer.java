package io.tokenclock.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A loopback HTTP server whose every answer a test scripts: the inference server that misbehaves on cue (a 429
 * with {@code Retry-After}, a 503 while "loading", headers and then silence, an event larger than the limit, a body
 * that is not a stream), or the judge, metrics page or DCGM exporter a run talks to beside it.
 * <p>
 * Register it as a field, script its paths, start it; JUnit stops it after each test:
 * <pre>{@code
 * @RegisterExtension
 * final ScriptedSseServer server = new ScriptedSseServer();
 *
 * @BeforeEach
 * void start() throws IOException
 * {
 *     server.on("/v1/chat/completions", x -> ScriptedSseServer.stream(x, ScriptedSseServer.TWO_TOKENS)).start();
 * }
 * ...
 *     Main.execute("run", "--url", server.apiUrl(), ...);
 * }</pre>
 * Each exchange runs on a thread of its own (a cached pool), so a handler that sleeps or waits for a latch holds
 * only its own request, as one slow stream of a real server does; the JDK's default would answer one exchange at a
 * time. It binds 127.0.0.1 only, on a port the kernel picks.
 */
public final class ScriptedSseServer implements AfterEachCallback, AutoCloseable
{
    /** Two content tokens, a finish_reason and [DONE]: the shortest proper stream. */
    public static final String TWO_TOKENS = "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n" +
        "data: {\"choices\":[{\"delta\":{\"content\":\"b\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";

    private final HttpServer http;
    private final ExecutorService exchanges = Executors.newCachedThreadPool();
    private boolean started;

    /** A server not yet listening for requests: script it with {@link #on}, then {@link #start}. */
    public ScriptedSseServer()
    {
        try
        {
            http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("could not bind a loopback port for the scripted server", ex);
        }
        http.setExecutor(exchanges);
    }

    /**
     * Answers requests whose path starts with {@code path} with {@code handler} (the JDK's longest-prefix match).
     *
     * @return this server, to chain.
     */
    public ScriptedSseServer on(final String path, final HttpHandler handler)
    {
        http.createContext(path, handler);
        return this;
    }

    /** @return this server, now answering. Starting it twice is harmless. */
    public ScriptedSseServer start()
    {
        if (!started)
        {
            http.start();
            started = true;
        }
        return this;
    }

    /** @return the port the kernel gave it. */
    public int port()
    {
        return http.getAddress().getPort();
    }

    /** @return {@code http://127.0.0.1:PORT}, the server's root. */
    public String baseUrl()
    {
        return "http://127.0.0.1:" + port();
    }

    /** @return {@code http://127.0.0.1:PORT/v1}, the OpenAI-style base URL that {@code --url} takes. */
    public String apiUrl()
    {
        return baseUrl() + "/v1";
    }

    /**
     * Answers {@code status} with {@code text} as the whole body. The request's body is left as the handler left it
     * (a handler that parsed it may have closed it); the JDK drains what is unread.
     */
    public static void reply(final HttpExchange x, final int status, final String text) throws IOException
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream body = x.getResponseBody())
        {
            body.write(bytes);
        }
    }

    /** Answers 200 with an event stream holding {@code events}, chunked, after reading the request's body. */
    public static void stream(final HttpExchange x, final String events) throws IOException
    {
        try (OutputStream body = openStream(x))
        {
            body.write(events.getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Reads the request's body and sends the headers of a 200 event stream (chunked), for a handler that writes the
     * events itself: with pauses, flushes or a stall between them.
     *
     * @return the response body; the caller closes it, which ends the stream.
     */
    public static OutputStream openStream(final HttpExchange x) throws IOException
    {
        x.getRequestBody().readAllBytes();
        x.getResponseHeaders().add("content-type", "text/event-stream");
        x.sendResponseHeaders(200, 0);
        return x.getResponseBody();
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        close();
    }

    /** Stops answering at once (exchanges still open are closed) and ends the exchange threads. */
    @Override
    public void close()
    {
        if (started)
        {
            http.stop(0);
            started = false;
        }
        exchanges.shutdownNow();
    }
}
