package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

/**
 * No credential reaches a file or the console, however it was given. One {@code tokenclock run}, in its own JVM as a
 * user starts it, gets a distinct secret through every channel we know of: the API key's environment variable,
 * each spelling of the header flag, a contract header, a contract URL and the {@code --url} with user information
 * and a query, and a JVM option that carries a password; it profiles itself ({@code --profile cpu}), so the JFR
 * recording is in the scan. Then every byte of every file in the run directory, and the console output, are
 * searched for every secret in UTF-8, UTF-16LE and UTF-16BE, and every string field of every JFR event is searched
 * too (JFR may store strings in a constant pool or in Latin-1, which a byte scan could miss).
 */
@Timeout(180)
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
        assertTrue(command.contains("http://<redacted>@" ), command);
        assertTrue(command.contains("/v1?key=<redacted>"), command);
        assertEquals("<redacted>",
            record.path("contract").path("declared").path("target").path("headers").path("X-Contract-Key").asText());
        assertTrue(record.path("hardware").toString().contains("proxyPassword=<redacted>"),
            "the JVM option is recorded by name only");
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
        final byte[] bytes = Files.readAllBytes(file);
        for (final Map.Entry<String, String> secret : SECRETS.entrySet())
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
