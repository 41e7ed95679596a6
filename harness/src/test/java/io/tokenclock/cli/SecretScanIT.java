package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.testing.ScriptedSseServer;

/**
 * No credential reaches a file or the console, however it was given, and whatever a server echoes of it; nor is one
 * written into a job that {@code slurm render} or {@code k8s render} prints. One {@code tokenclock run}, in its own JVM as a
 * user starts it, gets a distinct secret through every channel we know of: the API key's environment variable,
 * each spelling of the header flag, a contract header, a contract URL and the {@code --url} with user information
 * and a query, and a JVM option that carries a password; it profiles itself ({@code --profile cpu}), so the JFR
 * recording is in the scan. Then every byte of every file in the run directory, and the console output, are
 * searched for every secret in UTF-8, UTF-16LE and UTF-16BE, and every string field of every JFR event is searched
 * too (JFR may store strings in a constant pool or in Latin-1, which a byte scan could miss).
 */
@Timeout(400)
@Tag("slow") // starts the launcher's JVM and scans every file it writes: skipped by -Pfast
final class SecretScanIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Distinct per channel, so that a failure names the channel that leaked. */
    private static final Map<String, String> SECRETS = Map.of(
        "env API key", "sk-env-7f3a91c2",
        "-HNAME:VALUE", "hdr-attached-51e0",
        "-H=NAME:VALUE", "hdr-equals-8c4d",
        "-H 'NAME: VALUE'", "hdr-separate-2b7e",
        "--header=NAME:VALUE", "hdr-long-equals-9a13",
        "contract header", "hdr-contract-6d05",
        "--url user information", "url-password-3e88",
        "--url query", "url-query-c0f1",
        "contract url user information", "contract-url-pw-47aa",
        "JVM option password", "jvm-truststore-pw-e2b9");

    /**
     * The JVMs after the first skip the harness's self-warm-up: up to ten seconds of CPU each (more than the rest of
     * such a run on a busy 2-core machine), and no channel of a secret: it rehearses the run against an embedded
     * simulator with options made afresh, with no header, key, URL, judge or power source of the run's
     * ({@code Readiness.warmupOptions}). The first test's JVM runs it, as a user's does, so its profile records it too.
     */
    private static final String NO_SELF_WARMUP = "-Dtokenclock.selfWarmup=false";

    @TempDir
    Path dir;

    @Test
    void shouldWriteNoSecretGivenInAnySpellingToAnyFileOrTheConsole() throws Exception
    {
        final Path runDir = dir.resolve("run");
        final Path console = dir.resolve("console.txt");
        final int exit;
        try (SimServer server = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(1)))
        {
            final String hostPort = "127.0.0.1:" + server.port();
            final Path contract = dir.resolve("contract.yaml");
            Files.writeString(contract, String.join("\n",
                "name: secret-scan",
                "target:",
                "  url: http://bob:" + SECRETS.get("contract url user information") + "@" + hostPort + "/v1",
                "  headers:",
                "    X-Contract-Key: " + SECRETS.get("contract header"),
                "load: {concurrency: 2, requests: 6}",
                ""));
            final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                System.getProperty("tokenclock.jvmFlags"), "-Dtokenclock.tty=0",
                "-Dhttps.proxyPassword=" + SECRETS.get("JVM option password"),
                "-jar", jar().toString(), "run", "--config", contract.toString(),
                "--url", "http://alice:" + SECRETS.get("--url user information") + "@" + hostPort + "/v1?key=" +
                    SECRETS.get("--url query"),
                "-HX-Key-A:" + SECRETS.get("-HNAME:VALUE"),
                "-H=X-Key-B:" + SECRETS.get("-H=NAME:VALUE"),
                "-H", "X-Key-C: " + SECRETS.get("-H 'NAME: VALUE'"),
                "--header=X-Key-D:" + SECRETS.get("--header=NAME:VALUE"),
                "--max-tokens", "8", "--no-progress", "--profile", "cpu", "--output-dir", runDir.toString()));
            final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(console.toFile());
            builder.environment().put("OPENAI_API_KEY", SECRETS.get("env API key"));
            final Process process = builder.start();
            if (!process.waitFor(150, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
            }
            exit = process.exitValue();
        }
        assertEquals(Main.EXIT_OK, exit, Files.readString(console));

        final List<String> leaks = new ArrayList<>();
        scanBytes(console, leaks);
        final List<Path> files;
        try (Stream<Path> walk = Files.walk(runDir))
        {
            files = walk.filter(Files::isRegularFile).toList();
        }
        for (final Path file : files)
        {
            scanBytes(file, leaks);
        }
        final Path jfr = runDir.resolve("recording.jfr");
        assertTrue(files.contains(jfr), "the profile wrote a JFR recording: " + files);
        scanJfrStrings(jfr, leaks);
        assertTrue(leaks.isEmpty(), "secrets written out: " + leaks);

        // and what is kept instead says what was there
        final JsonNode record = JSON.readTree(runDir.resolve("record.json").toFile());
        final String command = record.path("command").toString();
        for (final String name : List.of("X-Key-A", "X-Key-B", "X-Key-C", "X-Key-D"))
        {
            assertTrue(command.contains("\"" + name + ": <redacted>\""), name + " in " + command);
        }
        assertTrue(command.contains("http://<redacted>@"), command);
        assertTrue(command.contains("/v1?key=<redacted>"), command);
        assertEquals("<redacted>",
            record.path("contract").path("declared").path("target").path("headers").path("X-Contract-Key").asText());
        assertTrue(record.path("hardware").toString().contains("proxyPassword=<redacted>"),
            "the JVM option is recorded by name only");
    }

    /** The secrets of the paths around the run: replay, the judge, a power source and the checker. */
    private static final Map<String, String> AROUND = Map.ofEntries(
        Map.entry("env API key", "sk-env-around-1b7c"),
        Map.entry("contract api_key_env variable", "sk-contract-env-93de"),
        Map.entry("judge api_key_env variable", "sk-judge-env-4f60"),
        Map.entry("judge url user information", "judge-pw-c5a2"),
        Map.entry("judge url query", "judge-q-28e9"),
        Map.entry("power url user information", "power-pw-7d43"),
        Map.entry("power url query", "power-q-e01b"),
        Map.entry("--url user information", "url-pw-around-66f1"),
        Map.entry("--url query", "url-q-around-a3c8"),
        Map.entry("-H value", "hdr-around-0d5e"),
        Map.entry("JVM plain option", "jvm-plain-b9a4"));

    /** A loopback judge (always PASS) and DCGM exporter (always 503) that keep each request's target and auth. */
    private static final class Remote implements AutoCloseable
    {
        final List<String> judgeTargets = new CopyOnWriteArrayList<>();
        final List<String> judgeAuthorizations = new CopyOnWriteArrayList<>();
        final List<String> exporterTargets = new CopyOnWriteArrayList<>();
        final ScriptedSseServer server = new ScriptedSseServer();

        Remote()
        {
            server.on("/", exchange ->
            {
                final String target = exchange.getRequestURI().toString();
                exchange.getRequestBody().readAllBytes();
                if (target.startsWith("/metrics"))
                {
                    exporterTargets.add(target);
                    exchange.sendResponseHeaders(503, -1);
                    exchange.close();
                    return;
                }
                judgeTargets.add(target);
                judgeAuthorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                ScriptedSseServer.reply(exchange, 200,
                    "{\"choices\": [{\"message\": {\"role\": \"assistant\", \"content\": \"PASS\"}}]}");
            });
            server.start();
        }

        String origin()
        {
            return "127.0.0.1:" + server.port();
        }

        @Override
        public void close()
        {
            server.close();
        }
    }

    @Test
    void shouldPassNoSecretToReplaysConsoleTheJudgesRequestLineAPowerSourceOrTheChecker() throws Exception
    {
        final Path runDir = dir.resolve("around");
        final Path envDump = dir.resolve("checker-env.txt");
        final List<String> leaks = new ArrayList<>();
        try (SimServer sim = SimServer.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(1));
             Remote remote = new Remote())
        {
            final Path contract = dir.resolve("around.yaml");
            Files.writeString(contract, String.join("\n",
                "target: {url: 'http://127.0.0.1:9/v1', api_key_env: TC_SCAN_MODEL_KEY}",
                "load: {concurrency: 2, requests: 4}",
                "quality:",
                "  checks:",
                "    - {type: command, argv: [sh, -c, 'env > " + envDump + "'], pass_env: [TC_SCAN_ALLOWED]}",
                "  judge:",
                "    url: 'http://jbob:" + AROUND.get("judge url user information") + "@" + remote.origin() +
                    "/judge/v1?k=" + AROUND.get("judge url query") + "'",
                "    model: j",
                "    rubric: Say PASS.",
                "    api_key_env: TC_SCAN_JUDGE_KEY",
                ""));
            final String url = "http://alice:" + AROUND.get("--url user information") + "@127.0.0.1:" + sim.port() +
                "/v1?key=" + AROUND.get("--url query");
            final String power = "dcgm:http://u:" + AROUND.get("power url user information") + "@" +
                remote.origin() + "/metrics?t=" + AROUND.get("power url query");
            final Path console = dir.resolve("around-console.txt");
            assertEquals(Main.EXIT_OK, tokenclock(List.of("run", "--config", contract.toString(), "--url", url,
                "-H", "X-Key: " + AROUND.get("-H value"), "--power", power + ",interval_ms=100", "--max-tokens", "4",
                "--no-progress", "--output-dir", runDir.toString()), console), Files.readString(console));
            scanBytes(console, AROUND, leaks);

            // replay re-runs the contract: its console line is built from redacted options
            final Path replayConsole = dir.resolve("replay-console.txt");
            assertEquals(Main.EXIT_OK, tokenclock(List.of("replay", runDir.toString(), "--url", url, "-H",
                "X-Key: " + AROUND.get("-H value"), "--power", power + ",interval_ms=100"), replayConsole),
                Files.readString(replayConsole));
            assertTrue(Files.readString(replayConsole).contains("replay: re-running"),
                Files.readString(replayConsole));
            scanBytes(replayConsole, AROUND, leaks);

            // a power source spec that is refused says so without its URL
            final Path refusedConsole = dir.resolve("refused-console.txt");
            assertEquals(Main.EXIT_USAGE, tokenclock(List.of("run", "--url", url, "--concurrency", "1",
                "--power", power + ",bogus=1", "--output-dir", dir.resolve("refused").toString()), refusedConsole));
            scanBytes(refusedConsole, AROUND, leaks);

            for (final String target : remote.judgeTargets)
            {
                assertEquals("/judge/v1/chat/completions?k=" + AROUND.get("judge url query"), target,
                    "the judge's path is joined before its query");
            }
            assertTrue(remote.judgeTargets.size() >= 4, "each output judged, twice over: " + remote.judgeTargets);
            assertEquals(Set.of("Basic " + Base64.getEncoder().encodeToString(("jbob:" +
                AROUND.get("judge url user information")).getBytes(StandardCharsets.UTF_8))),
                Set.copyOf(remote.judgeAuthorizations), "the judge URL's user information is its Authorization");
            assertTrue(remote.exporterTargets.contains("/metrics?t=" + AROUND.get("power url query")),
                "the exporter's URL, query and all, is one value: " + remote.exporterTargets);
        }
        final String env = Files.readString(envDump);
        assertTrue(env.lines().anyMatch(l -> l.equals("TC_SCAN_ALLOWED=allowed-a1")), "pass_env lets it in: " + env);
        scanBytes(envDump, AROUND, leaks);
        try (Stream<Path> walk = Files.walk(runDir))
        {
            for (final Path file : walk.filter(Files::isRegularFile).toList())
            {
                scanBytes(file, AROUND, leaks);
            }
        }
        assertTrue(leaks.isEmpty(), "secrets written out: " + leaks);
        final JsonNode record = JSON.readTree(runDir.resolve("record.json").toFile());
        assertTrue(record.path("hardware").toString().contains("-Dplain.opt=<redacted>"), "named, never valued");
    }

    /** The secrets of a Messages API run: its key's variable, a contract's, a header, and an OpenAI key not for it. */
    private static final Map<String, String> ANTHROPIC = Map.of(
        "ANTHROPIC_API_KEY", "sk-ant-env-5c19e7",
        "contract api_key_env variable (messages)", "sk-ant-contract-0b8d",
        "-H x-api-key", "sk-ant-header-7e42",
        "OPENAI_API_KEY beside a messages run", "sk-openai-unsent-93c1");

    @Test
    void shouldSendTheMessagesApisKeyOnlyInXApiKeyAndWriteItNowhere() throws Exception
    {
        final List<Map<String, String>> seen = new CopyOnWriteArrayList<>();
        final List<String> leaks = new ArrayList<>();
        try (ScriptedSseServer anthropic = new ScriptedSseServer())
        {
            anthropic.on("/v1/models", x -> ScriptedSseServer.reply(x, 200,
                "{\"object\":\"list\",\"data\":[{\"id\":\"claude-x\",\"object\":\"model\"}]}"));
            anthropic.on("/v1/messages", x ->
            {
                x.getRequestBody().readAllBytes();
                final Map<String, String> h = new HashMap<>();
                for (final String name : List.of("x-api-key", "anthropic-version", "authorization"))
                {
                    h.put(name, String.valueOf(x.getRequestHeaders().getFirst(name)));
                }
                seen.add(h);
                ScriptedSseServer.stream(x, MESSAGES_STREAM);
            });
            anthropic.start();
            final String base = "http://127.0.0.1:" + anthropic.port() + "/v1";

            final Path envRun = dir.resolve("messages-env");
            final Path envConsole = dir.resolve("messages-env-console.txt");
            assertEquals(Main.EXIT_OK, anthropicRun(List.of("run", "--url", base, "--endpoint", "messages",
                "--concurrency", "1", "--requests", "2", "--max-tokens", "4", "--no-progress", "--output-dir",
                envRun.toString()), envConsole), Files.readString(envConsole));
            assertEquals(Set.of(Map.of("x-api-key", ANTHROPIC.get("ANTHROPIC_API_KEY"), "anthropic-version",
                "2023-06-01", "authorization", "null")), Set.copyOf(seen),
                "the key in x-api-key, the version header, and no OpenAI key in Authorization");

            seen.clear();
            final Path contract = dir.resolve("messages.yaml");
            Files.writeString(contract, "target: {url: '" + base + "/messages', api_key_env: TC_SCAN_ANT_KEY}\n" +
                "load: {concurrency: 1, requests: 2}\nmodel: {decoding: {max_tokens: 4}}\n");
            final Path headerRun = dir.resolve("messages-header");
            final Path headerConsole = dir.resolve("messages-header-console.txt");
            assertEquals(Main.EXIT_OK, anthropicRun(List.of("run", "--config", contract.toString(), "-H",
                "x-api-key: " + ANTHROPIC.get("-H x-api-key"), "--no-progress", "--output-dir", headerRun.toString()),
                headerConsole), Files.readString(headerConsole));
            assertEquals(Set.of(ANTHROPIC.get("-H x-api-key")), Set.copyOf(seen.stream().map(m -> m.get("x-api-key"))
                .toList()), "a header given wins over the contract's variable");
            for (final Path file : List.of(envConsole, headerConsole))
            {
                scanBytes(file, ANTHROPIC, leaks);
            }
            for (final Path run : List.of(envRun, headerRun))
            {
                try (Stream<Path> walk = Files.walk(run))
                {
                    for (final Path file : walk.filter(Files::isRegularFile).toList())
                    {
                        scanBytes(file, ANTHROPIC, leaks);
                    }
                }
            }
            assertTrue(leaks.isEmpty(), "secrets written out: " + leaks);
            assertEquals("messages", JSON.readTree(headerRun.resolve("record.json").toFile()).path("runtime")
                .path("api").asText());
        }
    }

    /** A Messages API stream of two words, as llama.cpp's server writes it. */
    private static final String MESSAGES_STREAM = "event: message_start\ndata: {\"message\":{\"id\":\"msg_s\"," +
        "\"usage\":{\"input_tokens\":3,\"output_tokens\":0}},\"type\":\"message_start\"}\n\n" +
        "event: content_block_delta\ndata: {\"delta\":{\"text\":\"a\",\"type\":\"text_delta\"},\"type\":" +
        "\"content_block_delta\"}\n\nevent: content_block_delta\ndata: {\"delta\":{\"text\":\" b\",\"type\":" +
        "\"text_delta\"},\"type\":\"content_block_delta\"}\n\nevent: message_delta\ndata: {\"delta\":" +
        "{\"stop_reason\":\"end_turn\"},\"type\":\"message_delta\",\"usage\":{\"output_tokens\":2}}\n\n" +
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

    /** Runs tokenclock in its own JVM with the Messages run's secrets, and an OpenAI key, in its environment. */
    private static int anthropicRun(final List<String> args, final Path console) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            System.getProperty("tokenclock.jvmFlags"), "-Dtokenclock.tty=0", NO_SELF_WARMUP, "-jar",
            jar().toString()));
        command.addAll(args);
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(console.toFile());
        builder.environment().put("ANTHROPIC_API_KEY", ANTHROPIC.get("ANTHROPIC_API_KEY"));
        builder.environment().put("TC_SCAN_ANT_KEY", ANTHROPIC.get("contract api_key_env variable (messages)"));
        builder.environment().put("OPENAI_API_KEY", ANTHROPIC.get("OPENAI_API_KEY beside a messages run"));
        final Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            process.waitFor();
        }
        return process.exitValue();
    }

    /** Runs tokenclock in a JVM of its own, as a user starts it, with the secrets in its environment. */
    private static int tokenclock(final List<String> args, final Path console) throws Exception
    {
        return tokenclock(args, console, Map.of("OPENAI_API_KEY", AROUND.get("env API key"),
            "TC_SCAN_MODEL_KEY", AROUND.get("contract api_key_env variable"),
            "TC_SCAN_JUDGE_KEY", AROUND.get("judge api_key_env variable"), "TC_SCAN_ALLOWED", "allowed-a1"),
            "-Dplain.opt=" + AROUND.get("JVM plain option"));
    }

    /** The credentials a rendered job carries: headers in each spelling of an API key's name, a URL's, the key. */
    private static final Map<String, String> RENDERED = Map.ofEntries(
        Map.entry("env API key", "sk-env-render-5e0c"),
        Map.entry("X-API-KEY header", "hdr-render-upper-81f2"),
        Map.entry("x-api-key header", "hdr-render-lower-3a9d"),
        Map.entry("Api-Key header", "hdr-render-azure-c7e4"),
        Map.entry("apikey header", "hdr-render-joined-09b6"),
        Map.entry("Authorization header", "hdr-render-bearer-6d31"),
        Map.entry("--url user information", "url-pw-render-2f87"),
        Map.entry("--url query", "url-q-render-b45a"),
        Map.entry("contract header", "hdr-render-contract-e813"));

    @Test
    void shouldRenderSlurmAndKubernetesJobsWithNoCredentialInThemAndEveryOneInAnOwnerOnlyFile() throws Exception
    {
        final Path contract = dir.resolve("render.yaml");
        Files.writeString(contract, String.join("\n",
            "target:",
            "  url: http://vllm.bench.svc:8000/v1",
            "  headers: {X-Contract-Key: " + RENDERED.get("contract header") + "}",
            "load: {mode: open, rate: 4, duration_s: 5}",
            ""));
        final List<String> runArgs = List.of("--url", "http://alice:" + RENDERED.get("--url user information") +
            "@vllm.bench.svc:8000/v1?key=" + RENDERED.get("--url query"),
            "-H", "X-API-KEY: " + RENDERED.get("X-API-KEY header"), "-Hx-api-key:" + RENDERED.get("x-api-key header"),
            "--header=Api-Key:" + RENDERED.get("Api-Key header"), "-H=apikey: " + RENDERED.get("apikey header"),
            "--header", "Authorization: Bearer " + RENDERED.get("Authorization header"));
        final Map<String, String> env = Map.of("OPENAI_API_KEY", RENDERED.get("env API key"));
        final List<String> leaks = new ArrayList<>();

        final Path slurmSecrets = dir.resolve("slurm.env");
        final List<String> slurm = new ArrayList<>(List.of("slurm", "render", "--shards", "2", "--output-dir",
            dir.resolve("out").toString(), "--secrets-file", slurmSecrets.toString(), "--", "--config",
            contract.toString()));
        slurm.addAll(runArgs);
        final Path script = dir.resolve("job.sbatch");
        assertEquals(Main.EXIT_OK, tokenclock(slurm, script, env), Files.readString(script));
        scanBytes(script, RENDERED, leaks);
        // the contract stays on the shared disk for Slurm: the job reads it there, so it is not carried
        final Map<String, String> carried = new java.util.HashMap<>(RENDERED);
        carried.remove("contract header");
        assertHolds(slurmSecrets, carried);

        final Path k8sSecret = dir.resolve("secret.yaml");
        final List<String> k8s = new ArrayList<>(List.of("k8s", "render", "--shards", "2", "--config",
            contract.toString(), "--secrets-file", k8sSecret.toString(), "--"));
        k8s.addAll(runArgs);
        final Path manifests = dir.resolve("job.yaml");
        assertEquals(Main.EXIT_OK, tokenclock(k8s, manifests, env), Files.readString(manifests));
        scanBytes(manifests, RENDERED, leaks);
        assertHolds(k8sSecret, RENDERED);
        assertTrue(leaks.isEmpty(), "credentials in a rendered job or on the console: " + leaks);
    }

    /** The file is its owner's alone, and holds every credential. */
    private static void assertHolds(final Path file, final Map<String, String> secrets) throws IOException
    {
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(file)), file.toString());
        final String text = Files.readString(file);
        secrets.forEach((what, secret) -> assertTrue(text.contains(secret), what + " carried in " + file));
    }

    /** A server that quotes, in its 401 and 500 bodies, the Authorization it was sent: the API key. */
    @Test
    void shouldKeepAnApiKeyAServerEchoesInItsErrorBodiesOffTheConsoleAndOutOfEveryFile() throws Exception
    {
        final String key = "sk-env-echoed-4c19";
        try (ScriptedSseServer server = new ScriptedSseServer())
        {
            server.on("/", exchange ->
            {
                exchange.getRequestBody().readAllBytes();
                final String auth = String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"));
                final boolean models = exchange.getRequestURI().getPath().endsWith("/models");
                ScriptedSseServer.reply(exchange, models ? 500 : exchange.getRequestURI().getQuery() == null ? 401 :
                    500, "{\"error\": \"invalid api key, got: " + auth + "\"}");
            });
            server.start();
            final Map<String, String> env = Map.of("OPENAI_API_KEY", key);
            final Map<String, String> secrets = Map.of("echoed API key", key);
            final List<String> leaks = new ArrayList<>();
            final List<List<String>> runs = List.of(
                List.of("--url", server.apiUrl(), "--requests", "1", "--concurrency", "1"), // the listing's 500
                List.of("--url", server.apiUrl(), "--model", "m", "--requests", "1", "--concurrency", "1"), // 401
                List.of("--url", server.apiUrl() + "?measured=1", "--model", "m", "--no-preflight", "--requests",
                    "2", "--concurrency", "1")); // each measured request's 500
            for (int i = 0; i < runs.size(); i++)
            {
                final Path out = dir.resolve("echo-" + i);
                final List<String> args = new ArrayList<>(List.of("run", "--no-progress", "--output-dir",
                    out.toString()));
                args.addAll(runs.get(i));
                final Path console = dir.resolve("echo-" + i + ".txt");
                tokenclock(args, console, env);
                final List<Path> files = new ArrayList<>(List.of(console));
                if (Files.isDirectory(out))
                {
                    try (Stream<Path> walk = Files.walk(out))
                    {
                        files.addAll(walk.filter(Files::isRegularFile).toList());
                    }
                }
                final StringBuilder all = new StringBuilder();
                for (final Path file : files)
                {
                    scanBytes(file, secrets, leaks);
                    all.append(Files.readString(file, StandardCharsets.ISO_8859_1));
                }
                assertTrue(all.toString().contains("<redacted>"), "run " + i + ": the body is kept, the key is " +
                    "not: " + Files.readString(console));
            }
            assertTrue(leaks.isEmpty(), "an echoed key written out: " + leaks);
        }
    }

    /**
     * Runs tokenclock in a JVM of its own, as a user starts it, with {@code env} added to this one's environment and
     * {@code jvmOptions} before {@code -jar}, its console into a file.
     */
    private static int tokenclock(final List<String> args, final Path console, final Map<String, String> env,
        final String... jvmOptions) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            System.getProperty("tokenclock.jvmFlags"), "-Dtokenclock.tty=0", NO_SELF_WARMUP));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-jar", jar().toString()));
        command.addAll(args);
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(console.toFile());
        builder.environment().putAll(env);
        final Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            process.waitFor();
        }
        return process.exitValue();
    }

    private static Path jar()
    {
        final Path jar = Path.of("target", "tokenclock.jar");
        assertTrue(Files.isRegularFile(jar), "the runnable jar is built before integration tests: " +
            jar.toAbsolutePath());
        return jar;
    }

    private static void scanBytes(final Path file, final List<String> leaks) throws IOException
    {
        scanBytes(file, SECRETS, leaks);
    }

    private static void scanBytes(final Path file, final Map<String, String> secrets, final List<String> leaks)
        throws IOException
    {
        final byte[] bytes = Files.readAllBytes(file);
        for (final Map.Entry<String, String> secret : secrets.entrySet())
        {
            for (final Charset cs : List.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16LE,
                StandardCharsets.UTF_16BE))
            {
                if (indexOf(bytes, secret.getValue().getBytes(cs)) >= 0)
                {
                    leaks.add(secret.getKey() + " in " + file.getFileName() + " (" + cs + ")");
                }
            }
        }
    }

    private static void scanJfrStrings(final Path jfr, final List<String> leaks) throws IOException
    {
        for (final RecordedEvent event : RecordingFile.readAllEvents(jfr))
        {
            final String text = event.toString();
            for (final Map.Entry<String, String> secret : SECRETS.entrySet())
            {
                if (text.contains(secret.getValue()))
                {
                    leaks.add(secret.getKey() + " in JFR event " + event.getEventType().getName());
                }
            }
        }
    }

    private static int indexOf(final byte[] haystack, final byte[] needle)
    {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++)
        {
            for (int j = 0; j < needle.length; j++)
            {
                if (haystack[i + j] != needle[j])
                {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
