package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.fixtures.ThrowawayTls;
import io.tokenclock.testing.ScriptedSseServer;
import io.tokenclock.transport.kernel.KernelStamps;

/**
 * https against a server whose certificate no default CA signed (made here with {@code keytool}): the run is refused
 * with one line naming the fix; {@code --ca-cert} with the server's certificate as PEM makes it work and is recorded;
 * {@code --insecure} works, is recorded and is warned about; without a preflight, the failed handshakes are classed
 * {@code tls}, not {@code stream_cut}. With {@code --stamping kernel} the same https run is stamped by the kernel
 * (TLS decrypted after the stamp) and fails exactly as Netty's client does.
 */
@Timeout(120)
@Tag("slow") // starts keytool and a TLS server: skipped by -Pfast
final class TlsIT
{
    private static final ObjectMapper JSON = new ObjectMapper();

    // One key pair and one server for the class: keytool is a JVM of its own (two per key pair), and no test changes
    // the server; each test has its own output directory and console.
    @TempDir
    static Path keys;

    private static HttpsServer server;
    private static ExecutorService exchanges;
    private static Path pem;

    @TempDir
    Path dir;

    private CapturedConsole console;

    @BeforeAll
    static void startServer() throws Exception
    {
        final ThrowawayTls identity = ThrowawayTls.make(keys, "ip:127.0.0.1,dns:localhost");
        pem = identity.certificatePem();
        final SSLContext context = identity.serverContext();
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(context));
        // Each exchange (its TLS handshake included) on a thread of its own: the JDK's default runs them on its one
        // dispatcher thread, where a connection whose handshake does not go on (a client that refused the
        // certificate, a pooled connection of the preflight) holds every other until one side times out.
        exchanges = Executors.newCachedThreadPool();
        server.setExecutor(exchanges);
        server.createContext("/v1/models", x -> ScriptedSseServer.reply(x, 200, "{\"data\":[{\"id\":\"tls-model\"}]}"));
        server.createContext("/v1/chat/completions", x -> ScriptedSseServer.stream(x, ScriptedSseServer.TWO_TOKENS));
        server.start();
    }

    @AfterAll
    static void stopServer()
    {
        server.stop(0);
        exchanges.shutdownNow();
    }

    @BeforeEach
    void start()
    {
        console = CapturedConsole.started();
    }

    @AfterEach
    void stop()
    {
        console.restore();
    }

    private int run(final String name, final String... extra)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--url",
            "https://127.0.0.1:" + server.getAddress().getPort() + "/v1", "--concurrency", "1", "--requests", "2",
            "--max-tokens", "2", "--no-progress", "--output-dir", dir.resolve(name).toString()));
        args.addAll(List.of(extra));
        return Main.execute(args.toArray(String[]::new));
    }

    private String errText()
    {
        return console.err().strip();
    }

    @Test
    void shouldRefuseAnUntrustedCertificateInOneLineThatNamesTheFix()
    {
        assertEquals(Main.EXIT_UNREACHABLE, run("untrusted"));
        assertEquals(1, errText().lines().count(), errText());
        assertTrue(errText().contains("not trusted") && errText().contains("--ca-cert") &&
            errText().contains("--insecure"), errText());
    }

    @Test
    void shouldTrustTheGivenCaAndRecordIt() throws Exception
    {
        assertEquals(Main.EXIT_OK, run("ca", "--ca-cert", pem.toString()), errText());
        final JsonNode m = JSON.readTree(dir.resolve("ca").resolve("record.json").toFile()).path("measurement");
        assertTrue(m.path("tls").asText().contains("--ca-cert"), m.path("tls").toString());
    }

    @Test
    void shouldAcceptAnyCertificateWhenInsecureAndSaySo() throws Exception
    {
        assertEquals(Main.EXIT_OK, run("insecure", "--insecure"), errText());
        final JsonNode m = JSON.readTree(dir.resolve("insecure").resolve("record.json").toFile()).path("measurement");
        assertTrue(m.path("tls").asText().contains("NOT verified"), m.path("tls").toString());
        assertTrue(console.out().contains("NOT verified (--insecure)"));
    }

    @Test
    void shouldClassFailedHandshakesAsTlsWithoutAPreflight() throws Exception
    {
        assertEquals(Main.EXIT_FAILED, run("handshake", "--no-preflight", "--model", "tls-model"));
        final JsonNode errors = JSON.readTree(dir.resolve("handshake").resolve("record.json").toFile())
            .path("report").path("errors_by_class");
        assertEquals(2, errors.path("tls").asInt(), errors.toString());
        for (final String line : Files.readAllLines(dir.resolve("handshake").resolve("requests.jsonl")))
        {
            assertTrue(JSON.readTree(line).path("error_detail").asText().contains("--ca-cert"), line);
        }
    }

    @Test
    void shouldStampHttpsReadsInTheKernelAndRecordIt() throws Exception
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, KernelStamps.unavailableReason());
        assertEquals(Main.EXIT_OK, run("kernel", "--ca-cert", pem.toString(), "--stamping", "kernel"), errText());
        final JsonNode m = JSON.readTree(dir.resolve("kernel").resolve("record.json").toFile()).path("measurement");
        final JsonNode stamping = m.path("stamping");
        assertEquals("kernel", stamping.path("mode").asText(), stamping.toString());
        assertTrue(stamping.path("reads").asLong() - stamping.path("fallback_reads").asLong() > 0,
            "reads with kernel stamps: " + stamping);
        assertTrue(m.path("transport").asText().contains("SSLEngine"), m.path("transport").toString());
        assertTrue(m.path("tls").asText().contains("--ca-cert"), m.path("tls").toString());
    }

    @Test
    void shouldAcceptAnyCertificateWhenInsecureOnTheKernelClient() throws Exception
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, KernelStamps.unavailableReason());
        assertEquals(Main.EXIT_OK, run("kernel-insecure", "--insecure", "--stamping", "kernel"), errText());
        final JsonNode m = JSON.readTree(dir.resolve("kernel-insecure").resolve("record.json").toFile())
            .path("measurement");
        assertEquals("kernel", m.path("stamping").path("mode").asText(), m.path("stamping").toString());
        assertTrue(m.path("tls").asText().contains("NOT verified"), m.path("tls").toString());
    }

    @Test
    void shouldClassFailedHandshakesOnTheKernelClientExactlyAsOnNetty() throws Exception
    {
        Assumptions.assumeTrue(KernelStamps.unavailableReason() == null, KernelStamps.unavailableReason());
        assertEquals(Main.EXIT_FAILED, run("netty", "--no-preflight", "--model", "tls-model", "--stamping", "user"));
        assertEquals(Main.EXIT_FAILED, run("kernel", "--no-preflight", "--model", "tls-model", "--stamping",
            "kernel"));
        for (final String name : List.of("netty", "kernel"))
        {
            final JsonNode errors = JSON.readTree(dir.resolve(name).resolve("record.json").toFile())
                .path("report").path("errors_by_class");
            assertEquals(2, errors.path("tls").asInt(), name + ": " + errors);
        }
        assertEquals(errorDetails("netty"), errorDetails("kernel"), "the same lines");
    }

    private List<String> errorDetails(final String name) throws Exception
    {
        final List<String> details = new ArrayList<>();
        for (final String line : Files.readAllLines(dir.resolve(name).resolve("requests.jsonl")))
        {
            details.add(JSON.readTree(line).path("error_detail").asText());
        }
        assertTrue(details.stream().allMatch(d -> d.contains("--ca-cert")), details.toString());
        return details;
    }

    @Test
    void shouldRefuseContradictoryOrMissingTrustOptions()
    {
        assertEquals(Main.EXIT_USAGE, run("both", "--ca-cert", pem.toString(), "--insecure"));
        assertEquals(Main.EXIT_USAGE, run("missing", "--ca-cert", dir.resolve("nope.pem").toString()));
    }
}
