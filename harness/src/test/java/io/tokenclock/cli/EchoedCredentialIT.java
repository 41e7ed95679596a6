package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.testing.ScriptedSseServer;

/**
 * A server that echoes the credentials it was sent, as proxies do in a 401 or a 500 ("invalid key sk-..."), must not
 * get them onto the console or into any file, on any path that turns its words into text: the model listing, the
 * preflight (and its {@code refusal.json}), the measured requests' {@code error_detail} with either transport, the
 * judge, the metrics scraper. Each credential is distinct and given as a user gives it: an {@code X-Api-Key} header,
 * the URL's user information (sent as Basic) and a query value; the server's error bodies quote every header and the
 * request line back. The API key's environment variable is covered by {@code SecretScanIT}, which can set it.
 */
@Timeout(120)
final class EchoedCredentialIT
{
    private static final Map<String, String> SECRETS = Map.of(
        "x-api-key header", "hdr-echo-5d2b7c",
        "url password", "pw-echo-91ae4f",
        "url query", "q-echo-3c77d0",
        "judge password", "judgepassEcho8841",
        "metrics query", "metricsq-echo-e6a1");

    @TempDir
    Path dir;

    @RegisterExtension
    final ScriptedSseServer server = new ScriptedSseServer();

    private CapturedConsole console;
    private volatile String mode = "models-500";

    @BeforeEach
    void start()
    {
        server.on("/v1/models", this::models).on("/v1/chat/completions", this::completions)
            .on("/judge/v1/chat/completions", this::judge).on("/metrics", this::metrics).start();
        console = CapturedConsole.started();
    }

    @AfterEach
    void stop()
    {
        console.restore();
    }

    /** @return every header and the request line, as a careless proxy's error page has them. */
    private static String echo(final HttpExchange x) throws IOException
    {
        x.getRequestBody().readAllBytes();
        final StringBuilder sb = new StringBuilder("{\"error\": \"unauthorized: " + x.getRequestMethod() + " " +
            x.getRequestURI() + "\", \"headers\": {");
        x.getRequestHeaders().forEach((name, values) -> sb.append('"').append(name).append("\": \"")
            .append(String.join(",", values)).append("\", "));
        return sb.append("}}").toString();
    }

    private void models(final HttpExchange x) throws IOException
    {
        if (mode.equals("models-500"))
        {
            ScriptedSseServer.reply(x, 500, echo(x));
            return;
        }
        x.getRequestBody().readAllBytes();
        ScriptedSseServer.reply(x, 200, "{\"data\": [{\"id\": \"m\"}]}");
    }

    private void completions(final HttpExchange x) throws IOException
    {
        if (mode.equals("judge") || mode.equals("metrics"))
        {
            ScriptedSseServer.stream(x, ScriptedSseServer.TWO_TOKENS);
            return;
        }
        ScriptedSseServer.reply(x, mode.equals("preflight-401") ? 401 : 500, echo(x));
    }

    /** A judge that answers its Basic credentials' password as its whole body: the JSON parser quotes it. */
    private void judge(final HttpExchange x) throws IOException
    {
        x.getRequestBody().readAllBytes();
        final String basic = x.getRequestHeaders().getFirst("Authorization").substring("Basic ".length());
        final String password = new String(Base64.getDecoder().decode(basic), StandardCharsets.UTF_8).split(":")[1];
        ScriptedSseServer.reply(x, 200, password);
    }

    /** A metrics page whose value is no number but the page's own URL: the parser quotes the value. */
    private void metrics(final HttpExchange x) throws IOException
    {
        x.getRequestBody().readAllBytes();
        ScriptedSseServer.reply(x, 200, "vllm:num_requests_running 1\nvllm:num_requests_waiting " + x.getRequestURI() +
            "\n");
    }

    private List<String> run(final String name, final int exit, final String... extra)
    {
        final String url = "http://alice:" + SECRETS.get("url password") + "@127.0.0.1:" + server.port() +
            "/v1?key=" + SECRETS.get("url query");
        final List<String> args = new ArrayList<>(List.of("run", "--url", url, "-H", "X-Api-Key: " +
            SECRETS.get("x-api-key header"), "--no-progress", "--no-report", "--output-dir",
            dir.resolve(name).toString()));
        args.addAll(List.of(extra));
        assertEquals(exit, Main.execute(args.toArray(String[]::new)), console.err());
        return args;
    }

    @Test
    void shouldRedactCredentialsAModelListingEchoesFromTheConsole() throws IOException
    {
        run("models", Main.EXIT_UNREACHABLE, "--requests", "1", "--concurrency", "1");
        assertTrue(console.err().contains("500"), console.err());
        assertNoSecret("models");
    }

    @Test
    void shouldRedactCredentialsAPreflightEchoesFromTheConsoleAndRefusalJson() throws IOException
    {
        mode = "preflight-401";
        run("preflight", Main.EXIT_UNREACHABLE, "--requests", "1", "--concurrency", "1");
        final String refusal = Files.readString(dir.resolve("preflight").resolve("refusal.json"));
        assertTrue(refusal.contains("<redacted>"), "the body is kept, the credentials are not: " + refusal);
        assertNoSecret("preflight");
    }

    @Test
    void shouldRedactCredentialsEchoedInErrorBodiesFromRequestsJsonlWithEitherTransport() throws IOException
    {
        mode = "measured-500";
        for (final String stamping : List.of("kernel", "user"))
        {
            run("measured-" + stamping, Main.EXIT_FAILED, "--no-preflight", "--model", "m", "--requests", "2",
                "--concurrency", "1", "--stamping", stamping);
            final String requests = Files.readString(dir.resolve("measured-" + stamping).resolve("requests.jsonl"));
            assertTrue(requests.contains("<redacted>"), stamping + ": the detail is kept, redacted: " + requests);
        }
        assertNoSecret("measured-kernel");
        assertNoSecret("measured-user");
    }

    @Test
    void shouldRedactCredentialsTheJudgesAnswerEchoes() throws IOException
    {
        mode = "judge";
        final Path contract = dir.resolve("judge.yaml");
        Files.writeString(contract, String.join("\n",
            "target: {url: '" + server.apiUrl() + "'}",
            "load: {concurrency: 1, requests: 2}",
            "quality:",
            "  judge:",
            "    url: 'http://jbob:" + SECRETS.get("judge password") + "@127.0.0.1:" + server.port() + "/judge/v1'",
            "    model: j",
            "    rubric: Say PASS.",
            ""));
        run("judge", Main.EXIT_OK, "--config", contract.toString());
        assertTrue(Files.readString(dir.resolve("judge").resolve("requests.jsonl")).contains("<redacted>"),
            "the judge's error is kept, redacted");
        assertNoSecret("judge");
    }

    @Test
    void shouldRedactCredentialsAMetricsPageEchoes() throws IOException
    {
        mode = "metrics";
        run("metrics", Main.EXIT_OK, "--requests", "2", "--concurrency", "1", "--server-metrics",
            server.baseUrl() + "/metrics?token=" + SECRETS.get("metrics query"), "--server-metrics-interval-ms",
            "100");
        final String scrapes = Files.readString(dir.resolve("metrics").resolve("server_metrics.jsonl"));
        assertTrue(scrapes.contains("/metrics?token=<redacted>"), "the parser quoted the value: " + scrapes);
        assertNoSecret("metrics");
    }

    /** Every secret, absent from the console and from every file of the run directory. */
    private void assertNoSecret(final String name) throws IOException
    {
        final Map<String, String> secrets = new HashMap<>(SECRETS);
        secrets.put("url user information as Basic", Base64.getEncoder().encodeToString(("alice:" +
            SECRETS.get("url password")).getBytes(StandardCharsets.UTF_8)));
        final List<String> leaks = new ArrayList<>();
        final String consoleText = console.out() + console.err();
        secrets.forEach((what, secret) ->
        {
            if (consoleText.contains(secret))
            {
                leaks.add(what + " on the console");
            }
        });
        final Path runDir = dir.resolve(name);
        if (Files.isDirectory(runDir))
        {
            try (Stream<Path> files = Files.walk(runDir))
            {
                for (final Path file : files.filter(Files::isRegularFile).toList())
                {
                    final String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                    secrets.forEach((what, secret) ->
                    {
                        if (text.contains(secret))
                        {
                            leaks.add(what + " in " + runDir.relativize(file));
                        }
                    });
                }
            }
        }
        assertEquals(List.of(), leaks, "credentials the server echoed, written out");
    }
}
