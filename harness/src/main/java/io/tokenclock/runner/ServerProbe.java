package io.tokenclock.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.framing.UntrustedText;
import io.tokenclock.result.ServerInfo;
import io.tokenclock.secrets.Redaction;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.transport.RequestLimits;
import io.tokenclock.transport.TlsTrust;

/**
 * Talks to the server before the run, on the cold path, with the JDK's HTTP client: lists {@code /models} (for the
 * record, and the model name when none was given) and sends one small streaming request to prove that the URL, key
 * and model work, so that a wrong URL ends the run with one clear line instead of a run of errors.
 */
public final class ServerProbe
{
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Between two probes of a server that is not ready yet. */
    private static final long RETRY_PAUSE_NS = 1_000_000_000L;

    /** The server could not be used; the message is the one line the user sees. */
    public static final class UnreachableException extends Exception
    {
        private static final long serialVersionUID = 1L;
        private final boolean notReadyYet;

        public UnreachableException(final String message)
        {
            this(message, false);
        }

        /** @param notReadyYet whether a server that is starting or loading would answer so (worth waiting for). */
        public UnreachableException(final String message, final boolean notReadyYet)
        {
            super(message);
            this.notReadyYet = notReadyYet;
        }

        /** @return whether waiting could help: a refused connection, or 502, 503, 504. */
        public boolean notReadyYet()
        {
            return notReadyYet;
        }
    }

    private final Endpoint endpoint;
    private final Map<String, String> headers;
    private final Duration timeout;
    private final HttpClient http;
    private final long firstProbeNs = System.nanoTime();
    private int probes;

    /**
     * @param limits the run's limits: one probe may take {@code --timeout} in all, {@code --connect-timeout} to
     *               connect (5 s when that is 0, so that a probe of a dead address ends).
     */
    public ServerProbe(final Endpoint endpoint, final Map<String, String> headers, final RequestLimits limits,
        final TlsTrust trust)
    {
        this.endpoint = endpoint;
        this.headers = headers;
        final double timeoutS = limits.totalNs() / 1e9;
        if (trust.insecure())
        {
            // The JDK client checks host names unless this is set before it is built; --insecure asked for none.
            System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
        }
        this.http = HttpClient.newBuilder()
            .connectTimeout(limits.connectNs() > 0 ? Duration.ofNanos(limits.connectNs()) : Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1).sslContext(trust.jdkContext()).build();
        this.timeout = Duration.ofMillis(Math.max(1, Math.round(timeoutS * 1e3)));
    }

    /**
     * GET /models until it answers 200, or it answers what waiting cannot change, or {@code deadlineNs} passes
     * ({@code --wait-ready}; pass the current time for no waiting).
     *
     * @param err where one line says that the probe is waiting, once.
     */
    public ServerInfo modelsWhenReady(final long deadlineNs, final PrintStream err) throws UnreachableException
    {
        boolean told = false;
        while (true)
        {
            try
            {
                final ServerInfo info = models();
                if (!retryable(info.modelsStatus()) || System.nanoTime() >= deadlineNs)
                {
                    return info;
                }
                told = tellWaiting(told, err, "GET " + endpoint.shownModelsUrl() + " answered " + info.modelsStatus() +
                    (info.modelsDetail().isEmpty() ? "" : ": " + info.modelsDetail()), deadlineNs);
            }
            catch (final UnreachableException ex)
            {
                if (!ex.notReadyYet() || System.nanoTime() >= deadlineNs)
                {
                    throw ex;
                }
                told = tellWaiting(told, err, ex.getMessage(), deadlineNs);
            }
            pause(deadlineNs);
        }
    }

    /** The preflight ({@link #preflight}), retried like {@link #modelsWhenReady} while the server is not ready. */
    public ServerInfo preflightWhenReady(final ServerInfo models, final byte[] body, final long deadlineNs,
        final PrintStream err) throws UnreachableException
    {
        boolean told = false;
        while (true)
        {
            try
            {
                return preflight(models, body);
            }
            catch (final UnreachableException ex)
            {
                if (!ex.notReadyYet() || System.nanoTime() >= deadlineNs)
                {
                    throw ex;
                }
                told = tellWaiting(told, err, ex.getMessage(), deadlineNs);
            }
            pause(deadlineNs);
        }
    }

    private static boolean retryable(final int status)
    {
        return status == 502 || status == 503 || status == 504;
    }

    private static boolean tellWaiting(final boolean told, final PrintStream err, final String why,
        final long deadlineNs)
    {
        if (!told && err != null)
        {
            err.printf(Locale.ROOT, "tokenclock: the server is not ready (%s); waiting up to %.0f s " +
                "more (--wait-ready)%n", why, Math.max(0, deadlineNs - System.nanoTime()) / 1e9);
        }
        return true;
    }

    private static void pause(final long deadlineNs) throws UnreachableException
    {
        try
        {
            Thread.sleep(Math.max(1, Math.min(RETRY_PAUSE_NS, deadlineNs - System.nanoTime()) / 1_000_000));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new UnreachableException("interrupted while waiting for the server to be ready");
        }
    }

    /** GET /models. A refused connection throws; a server without /models yields an empty list. */
    public ServerInfo models() throws UnreachableException
    {
        final HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(endpoint.modelsUrl())).GET());
        final List<String> ids = new ArrayList<>();
        JsonNode body = null;
        if (response.statusCode() == 200)
        {
            try
            {
                body = JSON.readTree(response.body());
                for (final JsonNode m : body.path("data"))
                {
                    if (m.hasNonNull("id"))
                    {
                        ids.add(m.get("id").asText());
                    }
                }
            }
            catch (final IOException ex)
            {
                body = null;
            }
        }
        else if (response.statusCode() == 401 || response.statusCode() == 403)
        {
            throw new UnreachableException(endpoint.shownModelsUrl() + " answered " + response.statusCode() +
                ": check the API key (read from the environment variable named by --api-key-env)");
        }
        final String detail = response.statusCode() == 200 ? "" : UntrustedText.oneLine(response.body());
        return new ServerInfo(ids, body, response.statusCode(), detail, engineHeaders(response), null, Double.NaN,
            readyAfterS(), probes);
    }

    private double readyAfterS()
    {
        return (System.nanoTime() - firstProbeNs) / 1e9;
    }

    /** Sends one streaming request with {@code body}; throws with a clear line unless the answer is 200. */
    public ServerInfo preflight(final ServerInfo models, final byte[] body) throws UnreachableException
    {
        final long start = System.nanoTime();
        final HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(endpoint.completionUrl()))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).header("content-type", "application/json"));
        final double ms = (System.nanoTime() - start) / 1e6;
        if (response.statusCode() != 200)
        {
            final String detail = UntrustedText.oneLine(response.body());
            throw new UnreachableException(endpoint.shownCompletionUrl() + " answered " + response.statusCode() +
                hint(response.statusCode()) + (detail.isEmpty() ? "" : ": " + detail),
                retryable(response.statusCode()));
        }
        final String type = response.headers().firstValue("content-type").orElse("");
        if (type.toLowerCase(Locale.ROOT).contains("json"))
        {
            throw new UnreachableException(endpoint.shownCompletionUrl() + " answered 200 with a JSON body, not an " +
                "event stream: the server ignored stream: true, so there is nothing to time per token (" +
                UntrustedText.oneLine(response.body()) + ")");
        }
        final Map<String, String> engine = new LinkedHashMap<>(models.engineHeaders());
        engine.putAll(engineHeaders(response));
        return new ServerInfo(models.modelIds(), models.modelsResponse(), models.modelsStatus(), models.modelsDetail(),
            engine, response.statusCode(), ms, readyAfterS(), probes);
    }

    /**
     * Flushes the server's cache before the run (state.cache: flush), e.g. vLLM's {@code POST /reset_prefix_cache}.
     *
     * @return what the server answered, for the record: {@code "POST URL -> 200: body"}.
     */
    public String flush(final String url, final String method) throws UnreachableException
    {
        final HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url));
        if ("GET".equals(method))
        {
            builder.GET();
        }
        else
        {
            builder.POST(HttpRequest.BodyPublishers.noBody());
        }
        final HttpResponse<String> response = send(builder);
        final String body = UntrustedText.oneLine(response.body());
        if (response.statusCode() / 100 != 2)
        {
            throw new UnreachableException("cache flush " + method + " " + Redaction.url(url) + " answered " +
                response.statusCode() + (body.isEmpty() ? "" : ": " + body));
        }
        return method + " " + Redaction.url(url) + " -> " + response.statusCode() + (body.isEmpty() ? "" : ": " + body);
    }

    private HttpResponse<String> send(final HttpRequest.Builder builder) throws UnreachableException
    {
        probes++;
        builder.timeout(timeout);
        headers.forEach(builder::header);
        try
        {
            return http.send(builder.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }
        catch (final ConnectException ex)
        {
            throw new UnreachableException("cannot connect to " + endpoint.origin() + ": connection refused or " +
                "unreachable (is the server running, and is --url right?)", true);
        }
        catch (final HttpTimeoutException ex)
        {
            throw new UnreachableException("no answer from " + endpoint.origin() + " within " +
                timeout.toMillis() / 1e3 + " s (--timeout)");
        }
        catch (final IOException ex)
        {
            final String tls = TlsTrust.explain(ex);
            if (tls != null)
            {
                throw new UnreachableException(endpoint.origin() + ": " + tls);
            }
            // the JDK quotes what the server sent (a status line that is no HTTP): escaped
            throw new UnreachableException("cannot talk to " + endpoint.origin() + ": " +
                (ex.getMessage() == null ? ex.getClass().getSimpleName() :
                    UntrustedText.oneLine(ex.getMessage())));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new UnreachableException("interrupted while probing " + endpoint.origin());
        }
    }

    private static String hint(final int status)
    {
        return switch (status)
        {
            case 401, 403 -> " (check the API key: it is read from the variable named by --api-key-env)";
            case 404 -> " (is --url the API base, ending in /v1, and --endpoint right?)";
            case 502, 503, 504 -> " (the server is not ready: starting, loading a model, or overloaded; " +
                "--wait-ready S waits for it)";
            case 400, 422 -> " (the server rejected the request: check --model and the body options)";
            default -> "";
        };
    }

    private static Map<String, String> engineHeaders(final HttpResponse<?> response)
    {
        final Map<String, String> m = new LinkedHashMap<>();
        response.headers().map().forEach((name, values) ->
        {
            final String n = name.toLowerCase(Locale.ROOT);
            if (n.equals("server") || n.startsWith("x-") && (n.contains("engine") || n.contains("version") ||
                n.contains("model") || n.contains("backend")) || n.equals("openai-version"))
            {
                m.put(n, String.join(", ", values));
            }
        });
        return m;
    }
}
