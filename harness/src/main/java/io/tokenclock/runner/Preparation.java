package io.tokenclock.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.tokenclock.api.Api;
import io.tokenclock.config.RunOptions;
import io.tokenclock.quality.JudgeSpec;
import io.tokenclock.run.ClientHost;
import io.tokenclock.run.ServerInfo;
import io.tokenclock.secrets.KnownSecrets;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.workload.RequestBodyFactory;
import io.tokenclock.workload.RerankShape;
import io.tokenclock.workload.Workload;
import io.tokenclock.workload.WorkloadGenerator;
import io.tokenclock.workload.tokenizer.Tokenizer;

/**
 * The first phase of a run, before the harness makes itself ready: resolve the endpoint and its headers, wait for the
 * server and list its models, build the workload, send the preflight request, measure TCP round trips, read the
 * client machine and its GPUs, and apply the cache policy. Nothing here is measured; everything it learns goes into
 * the record.
 */
final class Preparation
{
    /**
     * What the preparation found.
     *
     * @param endpoint    the API endpoint.
     * @param headers     request headers, credentials included (never written out).
     * @param probe       the probe, for the readiness phase.
     * @param server      what the probe saw.
     * @param model       the model to ask for: the option, else the first the server lists.
     * @param tokenizer   the run's tokenizer.
     * @param workload    the run's requests.
     * @param networkRtt  TCP connect round trips to the server before the run.
     * @param cacheAction what the cache policy did, or null.
     * @param host        the client machine and its GPUs, read once here so that writing a record runs nothing.
     */
    record Prepared(Endpoint endpoint, Map<String, String> headers, ServerProbe probe, ServerInfo server, String model,
        Tokenizer tokenizer, Workload workload, Map<String, Object> networkRtt, String cacheAction, ClientHost host)
    {
    }

    private Preparation()
    {
    }

    static Prepared prepare(final RunOptions options, final PrintStream err)
        throws ServerProbe.UnreachableException, IOException
    {
        final Endpoint endpoint = Endpoint.parse(options.target().url(), options.target().api());
        final Map<String, String> headers = requestHeaders(options, endpoint);
        rememberCredentials(options, headers);
        final ServerProbe probe = new ServerProbe(endpoint, headers, options.limits(), options.tlsTrust())
            .waitingReady(options.target().waitReadyS());
        ServerInfo server = options.target().preflight() ? probe.modelsWhenReady(err) : ServerInfo.NONE;
        final String model = options.model().name() != null ? options.model().name() : servedModel(server, endpoint,
            options);
        final Tokenizer tokenizer = Workloads.tokenizer(options);
        final Workload workload = Workloads.generator(options, endpoint, model, tokenizer);
        if (options.target().preflight())
        {
            final byte[] hello = bodies(options, endpoint, model, 4).body("Say hello.");
            server = probe.preflightWhenReady(server, hello, err);
        }
        final Map<String, Object> networkRtt = EnvironmentCapture.connectRtt(endpoint.host(), endpoint.port(), 20);
        final String cacheAction = applyCachePolicy(options, probe, server, endpoint, model, workload);
        final ClientHost host = new ClientHost(EnvironmentCapture.client(), EnvironmentCapture.gpus());
        return new Prepared(endpoint, headers, probe, server, model, tokenizer, workload, networkRtt, cacheAction,
            host);
    }

    /** @return what the cache policy did: the flush's answer, the prefixes preloaded, or null for none. */
    private static String applyCachePolicy(
        final RunOptions options, final ServerProbe probe, final ServerInfo server, final Endpoint endpoint,
        final String model, final Workload workload) throws ServerProbe.UnreachableException
    {
        if ("flush".equals(options.state().cachePolicy()))
        {
            return probe.flush(options.state().flushUrl(), options.state().flushMethod());
        }
        if (!"preload".equals(options.state().cachePolicy()) || !(workload instanceof WorkloadGenerator synthetic))
        {
            return null;
        }
        final RequestBodyFactory one = bodies(options, endpoint, model, 1);
        final long startNs = System.nanoTime();
        final List<String> prompts = synthetic.preloadPrompts();
        for (final String prompt : prompts)
        {
            probe.preflight(server, one.body(prompt));
        }
        return String.format(Locale.ROOT, "preloaded %d shared prefixes in %.2f s (one max_tokens=1 request each, " +
            "before warmup, not measured)", prompts.size(), (System.nanoTime() - startNs) / 1e9);
    }

    private static RequestBodyFactory bodies(
        final RunOptions options, final Endpoint endpoint, final String model, final int maxTokens)
    {
        return new RequestBodyFactory(endpoint.api(), model, maxTokens, Workloads.decoding(options.model(), false),
            RequestBodyFactory.parseExtraBody(options.model().extraBody()),
            options.workload().rerankShape() == RerankShape.TEXTS);
    }

    /**
     * @return the first model the server lists, when no {@code --model} was given; otherwise says why there is none:
     * the real status and body of {@code /models} (exit 3), or an empty list (exit 2).
     */
    private static String servedModel(final ServerInfo server, final Endpoint endpoint, final RunOptions options)
        throws ServerProbe.UnreachableException
    {
        if (!options.target().preflight())
        {
            throw new IllegalArgumentException("--model is required with --no-preflight (nothing asks the server " +
                "which models it serves)");
        }
        final int status = server.modelsStatus();
        if (status != 200)
        {
            final boolean loading = status == 502 || status == 503 || status == 504;
            throw new ServerProbe.UnreachableException("GET " + endpoint.shownModelsUrl() + " answered " + status +
                (server.modelsDetail().isEmpty() ? "" : ": " + server.modelsDetail()) + (loading ?
                    " (the server is not ready: --wait-ready S waits for it)" :
                    status == 404 ? " (is --url the API base, ending in /v1? without /models, give --model)" :
                        " (give --model to skip the listing)"));
        }
        if (server.modelIds().isEmpty())
        {
            throw new IllegalArgumentException("--model is required: " + endpoint.shownModelsUrl() + " lists no model");
        }
        return server.modelIds().get(0);
    }

    /**
     * Tells {@link KnownSecrets} every credential the run holds, before anything is sent: what its requests carry
     * (every header, the Authorization made from a key or the URL's user information), the URLs it calls (the
     * target, the metrics page, the cache flush, a DCGM exporter, the judge) and the judge's key. A server that echoes
     * one in what it answers, on any path, then has it redacted ({@code text.UntrustedText}).
     */
    static void rememberCredentials(final RunOptions o, final Map<String, String> requestHeaders)
    {
        requestHeaders.forEach(KnownSecrets::rememberHeader);
        final String key = o.target().apiKeyEnv() == null ? null : System.getenv(o.target().apiKeyEnv());
        KnownSecrets.remember(key == null ? null : key.strip());
        KnownSecrets.rememberUrl(o.target().url());
        KnownSecrets.rememberUrl(o.serverMetricsUrl());
        KnownSecrets.rememberUrl(o.state().flushUrl());
        o.power().sources().stream().filter(p -> p.location() != null && p.location().contains("://"))
            .forEach(p -> KnownSecrets.rememberUrl(p.location()));
        final JudgeSpec judge = o.quality().rule() == null ? null : o.quality().rule().judge();
        if (judge != null)
        {
            KnownSecrets.rememberUrl(judge.url());
            final String judgeKey = judge.apiKeyEnv() == null ? null : System.getenv(judge.apiKeyEnv());
            KnownSecrets.remember(judgeKey == null ? null : judgeKey.strip());
        }
    }

    /**
     * Extra headers, then the API's own ({@code anthropic-version} for the Messages API) unless given, then one
     * credential if none was given: Basic from the URL's user information when it has some (the most explicit), else
     * the API key from its environment variable, if set, in the API's key header ({@code Authorization: Bearer}, or
     * {@code x-api-key} for the Messages API). Credentials never leave this map.
     */
    static Map<String, String> requestHeaders(final RunOptions o, final Endpoint endpoint)
    {
        final Map<String, String> headers = new LinkedHashMap<>(o.target().headers());
        final Api api = endpoint.api();
        api.fixedHeaders().forEach((name, value) ->
        {
            if (!has(headers, name))
            {
                headers.put(name, value);
            }
        });
        if (has(headers, "authorization") || has(headers, api.keyHeader()))
        {
            return headers;
        }
        final String key = o.target().apiKeyEnv() == null ? null : System.getenv(o.target().apiKeyEnv());
        if (endpoint.userInfo() != null)
        {
            headers.put("authorization", endpoint.basicAuthorization());
        }
        else if (key != null && !key.isBlank())
        {
            headers.put(api.keyHeader(), api.keyHeaderValue(key.strip()));
        }
        return headers;
    }

    private static boolean has(final Map<String, String> headers, final String name)
    {
        return headers.keySet().stream().anyMatch(h -> h.equalsIgnoreCase(name));
    }
}
