package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code slurm render} and {@code k8s render} as a user runs them: no credential in what they print, every credential
 * in a file only its owner reads that the job uses (a sourced environment, a Secret the pods reference), every value
 * the syntax can hold quoted so that it reaches {@code tokenclock run} unchanged, and a value it cannot hold refused
 * with one line and exit 2 before anything is written. The Slurm script is run by bash here, with a stand-in for
 * tokenclock that records its arguments: what the job would run, byte for byte.
 */
final class ShardRenderTest
{
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String START = "2030-01-01T00:00:00Z";
    private static final Path CONTRACT = Path.of("..", "examples", "chat-slo.yaml");

    /** Distinct per channel, so that a failure names the one that leaked. */
    private static final Map<String, String> SECRETS = Map.of(
        "url password", "url-pw-6b1e",
        "url query", "url-q-0f3a",
        "-HNAME:VALUE", "hdr-attached-77c2",
        "-H=NAME:VALUE", "hdr-equals-2d90",
        "-H 'NAME: VALUE'", "hdr-separate-c41f",
        "--header=NAME:VALUE", "hdr-long-eq-58ab",
        "--header 'X-API-KEY: VALUE'", "hdr-upper-api-key-9e07",
        "--header 'api-key: VALUE'", "hdr-azure-api-key-13d4");

    @RegisterExtension
    final CapturedConsole console = new CapturedConsole();

    @TempDir
    Path tmp;

    private static List<String> runArgsWithEveryCredential()
    {
        return List.of("--url", "http://alice:" + SECRETS.get("url password") + "@vllm.bench.svc:8000/v1?key=" +
            SECRETS.get("url query"), "-HX-Key-A:" + SECRETS.get("-HNAME:VALUE"),
            "-H=X-Key-B:" + SECRETS.get("-H=NAME:VALUE"), "-H", "X-Key-C: " + SECRETS.get("-H 'NAME: VALUE'"),
            "--header=X-Key-D:" + SECRETS.get("--header=NAME:VALUE"),
            "--header", "X-API-KEY: " + SECRETS.get("--header 'X-API-KEY: VALUE'"),
            "--header", "api-key: " + SECRETS.get("--header 'api-key: VALUE'"),
            "--rate", "4", "--duration", "5", "--max-tokens", "8", "--api-key-env", "TOKENCLOCK_TEST_NO_SUCH_KEY");
    }

    private List<String> leaks(final String text)
    {
        final List<String> leaks = new ArrayList<>();
        SECRETS.forEach((what, secret) ->
        {
            if (text.contains(secret))
            {
                leaks.add(what);
            }
        });
        return leaks;
    }

    private String render(final String... args)
    {
        assertEquals(Main.EXIT_OK, Main.execute(args), console.err());
        return console.out();
    }

    private static String[] args(final List<String> head, final List<String> runArgs)
    {
        final List<String> all = new ArrayList<>(head);
        all.add("--");
        all.addAll(runArgs);
        return all.toArray(String[]::new);
    }

    @Test
    void shouldKeepEveryCredentialOutOfTheSlurmScriptAndRunTheJobWithThemFromAnOwnerOnlyFile() throws Exception
    {
        final Path secrets = tmp.resolve("job-secrets.env");
        final Path out = tmp.resolve("out");
        final List<String> runArgs = runArgsWithEveryCredential();
        final String script = render(args(List.of("slurm", "render", "--shards", "2", "--output-dir", out.toString(),
            "--start-at", START, "--secrets-file", secrets.toString()), runArgs));
        assertEquals(List.of(), leaks(script + console.err()), "credentials in the script or on the console");
        assertTrue(script.contains(". \"$TOKENCLOCK_SECRETS\""), script);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets)));
        assertEquals(SECRETS.size() - 2 + 1, Files.readString(secrets).lines().filter(l -> l.startsWith("export "))
            .count(), "one variable per argument that holds a credential: " + Files.readString(secrets));
        assertEquals(expectedArgs(runArgs, out, 2), runScript(script, Map.of()), "the job runs what was given");
    }

    @Test
    void shouldQuoteEveryRunArgumentAndPathSoThatTheJobRunsExactlyThemAndNothingElse() throws Exception
    {
        final Path out = tmp.resolve("it's a $HOME `dir` 50%");
        final List<String> runArgs = List.of("--url", "http://vllm:8000/v1", "--prompt",
            "line one\nline two; touch " + tmp.resolve("pwned") + " $(touch " + tmp.resolve("pwned") + ") 'q' \"dq\"",
            "--rate", "4", "--duration", "5", "--model", "a b\\c*", "--extra-body", "{\"stop\": [\"\\n\"]}");
        final String script = render(args(List.of("slurm", "render", "--shards", "3", "--output-dir", out.toString(),
            "--start-at", START, "--tokenclock", tmp.resolve("no such launcher; rm -rf /").toString()), runArgs));
        assertTrue(script.contains("#SBATCH --output=\"" + tmp + "/it's a $HOME `dir` 50%%/slurm-%A_%a.out\"\n"),
            "in sbatch's own quotes, % doubled: " + script);
        assertEquals(expectedArgs(runArgs, out, 3), runScript(script, Map.of()));
        assertFalse(Files.exists(tmp.resolve("pwned")), "nothing in a value ran");
    }

    @Test
    void shouldMakeARelativeConfigAbsoluteInTheSlurmScript() throws Exception
    {
        final String script = render(args(List.of("slurm", "render", "--shards", "2", "--output-dir",
            tmp.resolve("o").toString(), "--start-at", START), List.of("--config", CONTRACT.toString(), "--url",
            "http://vllm:8000/v1")));
        final String absolute = CONTRACT.toAbsolutePath().normalize().toString();
        assertTrue(script.contains("--config " + absolute + " "), "the file the render checked: " + script);
        assertFalse(script.contains("../examples"), script);
    }

    @Test
    void shouldKeepEveryCredentialOutOfTheManifestsAndInASecretThatThePodsReference() throws Exception
    {
        final Path secret = tmp.resolve("bench-secret.yaml");
        final String text = render(args(List.of("k8s", "render", "--shards", "2", "--config", CONTRACT.toString(),
            "--name", "bench", "--namespace", "bench", "--image", "registry.example/tokenclock:1", "--start-at", START,
            "--secrets-file", secret.toString()), runArgsWithEveryCredential()));
        assertEquals(List.of(), leaks(text + console.err()), "credentials in the objects or on the console");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)));
        final JsonNode s = YAML.readTree(secret.toFile());
        assertEquals("Secret", s.path("kind").asText());
        assertEquals("bench-credentials", s.path("metadata").path("name").asText());
        final List<JsonNode> objects = documents(text);
        final JsonNode container = objects.get(2).path("spec").path("template").path("spec").path("containers")
            .get(0);
        final String command = container.path("command").get(2).asText();
        final Map<String, String> fromSecret = new HashMap<>();
        container.path("env").forEach(e ->
        {
            if (e.has("valueFrom"))
            {
                assertEquals("bench-credentials", e.path("valueFrom").path("secretKeyRef").path("name").asText());
                fromSecret.put(e.path("name").asText(), s.path("stringData").path(e.path("valueFrom")
                    .path("secretKeyRef").path("key").asText()).asText());
            }
        });
        assertEquals(7, fromSecret.size(), "one variable per argument that holds a credential: " + fromSecret);
        // the pod's command, with each variable expanded from the Secret, is the run's arguments as given
        String expanded = command;
        for (final Map.Entry<String, String> e : fromSecret.entrySet())
        {
            assertTrue(command.contains("\"$" + e.getKey() + "\""), command);
            expanded = expanded.replace("\"$" + e.getKey() + "\"", e.getValue());
        }
        for (final String secretValue : SECRETS.values())
        {
            assertTrue(expanded.contains(secretValue), "carried: " + secretValue);
        }
    }

    @Test
    void shouldPutAContractThatHoldsACredentialInTheSecretAndMountItFromThere() throws Exception
    {
        final Path contract = tmp.resolve("with key.yaml");
        Files.writeString(contract, "target:\n  url: http://vllm.bench.svc:8000/v1\n  headers:\n" +
            "    X-Contract-Key: contract-hdr-4a4a\nload: {mode: open, rate: 4, duration_s: 5}\n");
        final Path secret = tmp.resolve("s.yaml");
        final String text = render("k8s", "render", "--shards", "2", "--config", contract.toString(), "--start-at",
            START, "--secrets-file", secret.toString());
        assertFalse(text.contains("contract-hdr-4a4a"), text);
        final List<JsonNode> objects = documents(text);
        assertEquals(List.of("PersistentVolumeClaim", "Job", "Job"), objects.stream().map(o -> o.path("kind")
            .asText()).toList(), "no ConfigMap: the contract is in the Secret");
        final JsonNode pod = objects.get(1).path("spec").path("template").path("spec");
        final JsonNode volume = pod.path("volumes").get(0).path("secret");
        assertEquals("tokenclock-credentials", volume.path("secretName").asText());
        assertEquals("with-key.yaml", volume.path("items").get(0).path("key").asText(),
            "the file's name as a valid key");
        assertTrue(pod.path("containers").get(0).path("command").get(2).asText()
            .contains("--config /etc/tokenclock/with-key.yaml"));
        assertEquals(Files.readString(contract), YAML.readTree(secret.toFile()).path("stringData")
            .path("with-key.yaml").asText());
    }

    @Test
    void shouldNameThisVersionsImageByDefaultAndTheContractByItsConfigMapPath() throws Exception
    {
        final String text = render("k8s", "render", "--shards", "2", "--config", CONTRACT.toString(), "--start-at",
            START, "--", "--url", "http://vllm.bench.svc:8000/v1");
        final JsonNode container = documents(text).get(2).path("spec").path("template").path("spec")
            .path("containers").get(0);
        assertEquals("tokenclock:" + projectVersion(), container.path("image").asText());
        final String command = container.path("command").get(2).asText();
        assertTrue(command.startsWith("\"$TOKENCLOCK\" run --config /etc/tokenclock/chat-slo.yaml "), command);
        assertFalse(text.contains("../examples"), "no path of the renderer's disk");
        assertEquals("", console.err(), "a Service's name is no loopback: no warning");
    }

    @Test
    void shouldWarnInOneLineWhenThePodsWouldAimAtTheirOwnLoopback() throws Exception
    {
        for (final String url : List.of("http://127.0.0.1:8000/v1", "http://localhost:8000/v1",
            "http://[::1]:8000/v1", "http://0.0.0.0:8000/v1"))
        {
            console.start();
            render("k8s", "render", "--shards", "2", "--config", CONTRACT.toString(), "--start-at", START, "--",
                "--url", url);
            final String err = console.err().strip();
            assertEquals(1, err.lines().count(), err);
            assertTrue(err.startsWith("tokenclock: warning: the target ") && err.contains("loopback"), err);
        }
        console.start();
        render("k8s", "render", "--shards", "2", "--config", CONTRACT.toString(), "--start-at", START);
        assertTrue(console.err().contains("loopback"), "the contract's own 127.0.0.1 too: " + console.err());
    }

    /** @return the parent pom's version, which the image is named after. */
    private static String projectVersion() throws IOException
    {
        final Matcher m = Pattern.compile("<artifactId>tokenclock-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(Files.readString(Path.of("..", "pom.xml")));
        assertTrue(m.find(), "the parent pom names its version");
        return m.group(1);
    }

    static List<JsonNode> documents(final String yaml) throws IOException
    {
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml))
        {
            return it.readAll();
        }
    }

    private List<String> expectedArgs(final List<String> runArgs, final Path out, final int shards)
    {
        final List<String> expected = new ArrayList<>(List.of("run"));
        expected.addAll(runArgs);
        expected.addAll(List.of("--shards", String.valueOf(shards), "--start-at", START, "--output-dir",
            out.toAbsolutePath() + "/shard-0", "--no-progress"));
        return expected;
    }

    /**
     * Runs the script with bash as Slurm's task 0 would, tokenclock replaced by a script that writes its arguments,
     * NUL-separated, to a file.
     *
     * @return the arguments tokenclock got.
     */
    private List<String> runScript(final String script, final Map<String, String> env) throws Exception
    {
        final Path job = tmp.resolve("job.sbatch");
        Files.writeString(job, script);
        final Path got = tmp.resolve("argv");
        final Path stub = tmp.resolve("stub.sh");
        Files.writeString(stub, "#!/bin/sh\nprintf '%s\\0' \"$@\" > '" + got + "'\n");
        assertTrue(stub.toFile().setExecutable(true));
        final ProcessBuilder pb = new ProcessBuilder("bash", job.toString()).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("TOKENCLOCK", stub.toString());
        pb.environment().put("SLURM_ARRAY_TASK_ID", "0");
        final Process p = pb.start();
        final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), output);
        final String argv = Files.readString(got);
        return Arrays.asList(argv.substring(0, argv.length() - 1).split("\0", -1));
    }
}
