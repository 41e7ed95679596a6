package io.tokenclock.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.api.Api;
import io.tokenclock.json.Json;
import io.tokenclock.run.ServerInfo;
import io.tokenclock.secrets.Redaction;
import io.tokenclock.text.UntrustedText;
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
    private static final ObjectMapper JSON = Json.MAPPER;

    /** Between two probes of a server that is not ready yet. */
    private static final long RETRY_PAUSE_NS = 1_000_000_000L;

    /** The server could not be used; the message is the one line the user sees. */
    public static final class UnreachableException extends Exception
    {
        private static final long serialVersionUID = 1L;
        private final boolean notReadyYet;
        private final transient Refusal refusal;

        public UnreachableException(final String message)
        {
            this(message, false);
        }

        /** @param notReadyYet whether a server that is starting or loading would answer so (worth waiting for). */
        public UnreachableException(final String message, final boolean notReadyYet)
        {
            this(message, notReadyYet, null);
        }

        /** @param refusal what the server answered when it refused the run's configuration, or null. */
        UnreachableException(final String message, final boolean notReadyYet, final Refusal refusal)
        {
            super(message);
            this.notReadyYet = notReadyYet;
            this.refusal = refusal;
        }

        /** @return whether waiting could help: a refused connection, or 502, 503, 504. */
        public boolean notReadyYet()
        {
            return notReadyYet;
        }

        /** @return the server's refusal of the configuration, to be recorded; null when it did not answer so. */
        public Refusal refusal()
        {
            return refusal;
        }
    }

    private final Endpoint endpoint;
    private final Map<String, String> headers;
    private final RequestLimits limits;
    private final HttpClient http;
    private final long firstProbeNs = System.nanoTime();
    private double waitReadyS;
    /** The last answer that said the server was not ready yet, for the line when the wait runs out. */
    private String lastNotReady;
    private int probes;

    /**
     * @param limits the run's limits ({@code RunOptions.limits()}), which every probe request honours as a request
     *               of the run does ({@link ProbeExchange}): {@code --connect-timeout} to connect (5 s when that is
     *               0, so that a probe of a dead address ends), then the first-byte, idle and total limits.
     */
    public ServerProbe(final Endpoint endpoint, final Map<String, String> headers, final RequestLimits limits,
        final TlsTrust trust)
    {
        this.endpoint = endpoint;
        this.headers = headers;
        this.limits = limits;
        if (trust.insecure())
        {
            // The JDK client checks host names unless this is set before it is built; --insecure asked for none.
            System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
        }
        this.http = HttpClient.newBuilder()
            .connectTimeout(limits.connectNs() > 0 ? Duration.ofNanos(limits.connectNs()) : Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1).sslContext(trust.jdkContext()).build();
    }

    /**
     * Lets {@link #modelsWhenReady} and {@link #preflightWhenReady} wait for a server that is not ready yet, for
     * {@code seconds} from this probe's creation ({@code --wait-ready}; 0, the default, for no waiting). No probe
     * made while waiting outlasts the wait.
     */
    public ServerProbe waitingReady(final double seconds)
    {
        this.waitReadyS = seconds;
        return this;
    }

    private long readyDeadlineNs()
    {
        return firstProbeNs + Math.round(waitReadyS * 1e9);
    }

    /**
     * @return the cap of a probe made now: the end of the wait, once the server has said it is not ready. The first
     * probe runs under the run's limits alone, as a request of the run would: on a cold JVM or a busy machine it may
     * take longer than a short wait, and cutting it would say "not ready" of a server that never answered.
     */
    private long capNs()
    {
        return waitReadyS > 0 && lastNotReady != null ? readyDeadlineNs() : Long.MAX_VALUE;
    }

    /** @return the one line for a wait that ran out: how long it ran, and the server's last answer. */
    private UnreachableException waitRanOut(final String lastAnswer)
    {
        return new UnreachableException(String.format(Locale.ROOT, "the server was still not ready when the " +
            "wait ran out after %.1f s (--wait-ready %s): %s", readyAfterS(), stripZeros(waitReadyS), lastAnswer));
    }

    private static String stripZeros(final double seconds)
    {
        return seconds == Math.rint(seconds) ? Long.toString((long)seconds) : Double.toString(seconds);
    }

    /**
     * GET /models until it answers 200, or it answers what waiting cannot change, or the wait runs out
     * ({@link #waitingReady}); without a wait, the first answer.
     *
     * @param err where one line says that the probe is waiting, once.
     */
    public ServerInfo modelsWhenReady(final PrintStream err) throws UnreachableException
    {
        boolean told = false;
        while (true)
        {
            String why;
            try
            {
                final ServerInfo info = models(capNs());
                if (!retryable(info.modelsStatus()) || waitReadyS <= 0)
                {
                    return info;
                }
                why = "GET " + endpoint.shownModelsUrl() + " answered " + info.modelsStatus() +
                    (info.modelsDetail().isEmpty() ? "" : ": " + info.modelsDetail());
            }
            catch (final UnreachableException ex)
            {
                if (!ex.notReadyYet() || waitReadyS <= 0)
                {
                    throw ex;
                }
                why = ex.getMessage();
            }
            told = waitOrGiveUp(told, err, why);
        }
    }

    /** The preflight ({@link #preflight}), retried like {@link #modelsWhenReady} while the server is not ready. */
    public ServerInfo preflightWhenReady(final ServerInfo models, final byte[] body, final PrintStream err)
        throws UnreachableException
    {
        boolean told = false;
        while (true)
        {
            try
            {
                return preflight(models, body, capNs());
            }
            catch (final UnreachableException ex)
            {
                if (!ex.notReadyYet() || waitReadyS <= 0)
                {
                    throw ex;
                }
                told = waitOrGiveUp(told, err, ex.getMessage());
            }
        }
    }

    /** Says once that the probe waits, and pauses; throws the one line when the wait has run out. */
    private boolean waitOrGiveUp(final boolean told, final PrintStream err, final String why)
        throws UnreachableException
    {
        if (System.nanoTime() - readyDeadlineNs() >= 0)
        {
            throw waitRanOut(why);
        }
        lastNotReady = why;
        final boolean nowTold = tellWaiting(told, err, why, readyDeadlineNs());
        pause(readyDeadlineNs());
        if (System.nanoTime() - readyDeadlineNs() >= 0)
        {
            throw waitRanOut(why);
        }
        return nowTold;
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
            // To the end of the pause or the wait, never short of it: a probe sent a moment before the wait ends
            // could not finish within it.
            final long untilNs = System.nanoTime() + Math.min(RETRY_PAUSE_NS, deadlineNs - System.nanoTime());
            for (long leftNs; (leftNs = untilNs - System.nanoTime()) > 0; )
            {
                Thread.sleep(Duration.ofNanos(leftNs));
            }
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
        return models(Long.MAX_VALUE);
    }

    private ServerInfo models(final long capNs) throws UnreachableException
    {
        final ProbeExchange.Answer response = send(HttpRequest.newBuilder(URI.create(endpoint.modelsUrl())).GET(),
            capNs);
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

    /** Sends one request of the API with {@code body}; throws with a clear line unless the answer is 200. */
    public ServerInfo preflight(final ServerInfo models, final byte[] body) throws UnreachableException
    {
        return preflight(models, body, Long.MAX_VALUE);
    }

    private ServerInfo preflight(final ServerInfo models, final byte[] body, final long capNs)
        throws UnreachableException
    {
        final long start = System.nanoTime();
        final ProbeExchange.Answer response = send(HttpRequest.newBuilder(URI.create(endpoint.completionUrl()))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).header("content-type", "application/json"), capNs);
        final double ms = (System.nanoTime() - start) / 1e6;
        refuseUnusable(response);
        final Map<String, String> engine = new LinkedHashMap<>(models.engineHeaders());
        engine.putAll(engineHeaders(response));
        return new ServerInfo(models.modelIds(), models.modelsResponse(), models.modelsStatus(), models.modelsDetail(),
            engine, response.statusCode(), ms, readyAfterS(), probes);
    }

    /** Throws the one line, and the refusal to record, unless the preflight's answer is a usable stream. */
    private void refuseUnusable(final ProbeExchange.Answer response) throws UnreachableException
    {
        final String shown = endpoint.shownCompletionUrl();
        final int status = response.statusCode();
        if (status != 200)
        {
            final String detail = UntrustedText.oneLine(response.body());
            throw new UnreachableException(shown + " answered " + status + (waitReadyS > 0 && retryable(status) ?
                "" : hint(status, endpoint)) + (detail.isEmpty() ? "" : ": " + detail), retryable(status),
                retryable(status) ? null : Refusal.of(Refusal.Kind.STATUS, shown, status, response.body()));
        }
        if (response.errorEvent() != null)
        {
            throw new UnreachableException(shown + " answered 200, then an error event in the stream (the run " +
                "would count every request error_event): " + UntrustedText.oneLine(response.errorEvent()), false,
                Refusal.of(Refusal.Kind.ERROR_EVENT, shown, status, response.errorEvent()));
        }
        final String type = response.headers().firstValue("content-type").orElse("");
        // an API that answers whole (embeddings, rerank) answers JSON: that is its answer, not a stream ignored
        if (endpoint.api().streamed() && type.toLowerCase(Locale.ROOT).contains("json"))
        {
            throw new UnreachableException(shown + " answered 200 with a JSON body, not an event stream: the " +
                "server ignored stream: true, so there is nothing to time per token (" +
                UntrustedText.oneLine(response.body()) + ")", false,
                Refusal.of(Refusal.Kind.NOT_STREAMING, shown, status, response.body()));
        }
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
        final ProbeExchange.Answer response = send(builder, Long.MAX_VALUE);
        final String body = UntrustedText.oneLine(response.body());
        if (response.statusCode() / 100 != 2)
        {
            throw new UnreachableException("cache flush " + method + " " + Redaction.url(url) + " answered " +
                response.statusCode() + (body.isEmpty() ? "" : ": " + body));
        }
        return method + " " + Redaction.url(url) + " -> " + response.statusCode() + (body.isEmpty() ? "" : ": " + body);
    }

    private ProbeExchange.Answer send(final HttpRequest.Builder builder, final long capNs)
        throws UnreachableException
    {
        probes++;
        headers.forEach(builder::header);
        try
        {
            return new ProbeExchange(limits).exchange(http, builder.build(), capNs);
        }
        catch (final ProbeExchange.TimedOut ex)
        {
            if (ex.limit == ProbeExchange.Limit.WAIT)
            {
                throw waitRanOut(lastNotReady);
            }
            throw new UnreachableException(String.format(Locale.ROOT, "%s from %s within %.1f s (%s)",
                ex.limit == ProbeExchange.Limit.IDLE ? "the answer went silent mid-response: nothing more" :
                    ex.limit == ProbeExchange.Limit.TOTAL ? "no whole answer" : "no answer",
                endpoint.origin(), ex.afterS, ex.limit.flag));
        }
        catch (final ConnectException ex)
        {
            throw new UnreachableException("cannot connect to " + endpoint.origin() + ": connection refused or " +
                "unreachable (is the server running, and is --url right?)", true);
        }
        catch (final HttpTimeoutException ex)
        {
            throw new UnreachableException("cannot connect to " + endpoint.origin() + " within " +
                (limits.connectNs() > 0 ? limits.connectNs() / 1e9 : 5) + " s (--connect-timeout)");
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new UnreachableException("interrupted while probing " + endpoint.origin());
        }
        catch (final Exception ex)
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
    }

    private static String hint(final int status, final Endpoint endpoint)
    {
        final Api api = endpoint.api();
        return switch (status)
        {
            case 401, 403 -> " (check the API key: it is read from the variable named by --api-key-env, " +
                api.defaultKeyEnv() + " by default, and sent in " + api.keyHeader() + ")";
            case 404 -> api == Api.CHAT || api == Api.COMPLETIONS ?
                " (is --url the API base, ending in /v1, and --endpoint right?)" :
                " (the server does not serve " + api.path() + " under the base: it may not speak the " +
                    api.title() + "; is --url the API base, ending in /v1?)";
            case 502, 503, 504 -> " (the server is not ready: starting, loading a model, or overloaded; " +
                "--wait-ready S waits for it)";
            case 400, 422 -> " (the server rejected the request: check --model and the body options)";
            default -> "";
        };
    }

    private static Map<String, String> engineHeaders(final ProbeExchange.Answer response)
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
