package io.tokenclock.runner;

import java.io.IOException;
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
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.secrets.Redaction;
import io.tokenclock.transport.Endpoint;

/**
 * Talks to the server before the run, on the cold path, with the JDK's HTTP client: lists {@code /models} (for the
 * record, and the model name when none was given) and sends one small streaming request to prove that the URL, key
 * and model work, so that a wrong URL ends the run with one clear line instead of a run of errors.
 */
public final class ServerProbe
{
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The server could not be used; the message is the one line the user sees. */
    public static final class UnreachableException extends Exception
    {
        private static final long serialVersionUID = 1L;

        public UnreachableException(final String message)
        {
            super(message);
        }
    }

    /** What the probe saw: served model ids, the raw /models answer, response headers that name the engine. */
    public record Info(List<String> modelIds, JsonNode modelsResponse, Map<String, String> engineHeaders,
        Integer preflightStatus, double preflightMs)
    {
    }

    private final Endpoint endpoint;
    private final Map<String, String> headers;
    private final HttpClient http = HttpClient.newBuilder()
        .connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1).build();

    public ServerProbe(final Endpoint endpoint, final Map<String, String> headers)
    {
        this.endpoint = endpoint;
        this.headers = headers;
    }

    /** GET /models. A refused connection throws; a server without /models yields an empty list. */
    public Info models() throws UnreachableException
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
        return new Info(ids, body, engineHeaders(response), null, Double.NaN);
    }

    /** Sends one streaming request with {@code body}; throws with a clear line unless the answer is 200. */
    public Info preflight(final Info models, final byte[] body) throws UnreachableException
    {
        final long start = System.nanoTime();
        final HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(endpoint.completionUrl()))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).header("content-type", "application/json"));
        final double ms = (System.nanoTime() - start) / 1e6;
        if (response.statusCode() != 200)
        {
            final String detail = response.body() == null ? "" : response.body().strip();
            throw new UnreachableException(endpoint.shownCompletionUrl() + " answered " + response.statusCode() +
                hint(response.statusCode()) + (detail.isEmpty() ? "" : ": " + abbreviate(detail)));
        }
        final Map<String, String> engine = new LinkedHashMap<>(models.engineHeaders());
        engine.putAll(engineHeaders(response));
        return new Info(models.modelIds(), models.modelsResponse(), engine, response.statusCode(), ms);
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
        final String body = response.body() == null ? "" : abbreviate(response.body().strip());
        if (response.statusCode() / 100 != 2)
        {
            throw new UnreachableException("cache flush " + method + " " + Redaction.url(url) + " answered " +
                response.statusCode() + (body.isEmpty() ? "" : ": " + body));
        }
        return method + " " + Redaction.url(url) + " -> " + response.statusCode() + (body.isEmpty() ? "" : ": " + body);
    }

    private HttpResponse<String> send(final HttpRequest.Builder builder) throws UnreachableException
    {
        builder.timeout(Duration.ofSeconds(60));
        headers.forEach(builder::header);
        try
        {
            return http.send(builder.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }
        catch (final ConnectException ex)
        {
            throw new UnreachableException("cannot connect to " + endpoint.origin() + ": connection refused or " +
                "unreachable (is the server running, and is --url right?)");
        }
        catch (final HttpTimeoutException ex)
        {
            throw new UnreachableException("no answer from " + endpoint.origin() + " within the probe timeout");
        }
        catch (final IOException ex)
        {
            throw new UnreachableException("cannot talk to " + endpoint.origin() + ": " +
                (ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage()));
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
            case 400, 422 -> " (the server rejected the request: check --model and the body options)";
            default -> "";
        };
    }

    private static Map<String, String> engineHeaders(final HttpResponse<?> response)
    {
        final Map<String, String> m = new LinkedHashMap<>();
        response.headers().map().forEach((name, values) ->
        {
            final String n = name.toLowerCase(java.util.Locale.ROOT);
            if (n.equals("server") || n.startsWith("x-") && (n.contains("engine") || n.contains("version") ||
                n.contains("model") || n.contains("backend")) || n.equals("openai-version"))
            {
                m.put(n, String.join(", ", values));
            }
        });
        return m;
    }

    private static String abbreviate(final String s)
    {
        final String one = s.replace('\n', ' ');
        return one.length() > 300 ? one.substring(0, 300) + "..." : one;
    }
}
