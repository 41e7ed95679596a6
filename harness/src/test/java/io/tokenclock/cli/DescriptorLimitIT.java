package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;

/**
 * A run planned for more connections than the open-files limit allows is refused before anything is sent, with one
 * line saying what to raise; a soft limit below the hard one is raised instead. Each case runs {@code tokenclock run}
 * under a shell's {@code ulimit}.
 */
@Timeout(300)
@Tag("slow") // starts JVMs under a shell with lowered limits: skipped by -Pfast
final class DescriptorLimitIT
{
    private static final int LIMIT_S = 240;

    @TempDir
    Path dir;

    private String run(final String ulimit, final String jvmFlag, final int concurrency) throws Exception
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final String command = ulimit + " && exec '" + java + "' " + jvmFlag + " '" +
            System.getProperty("tokenclock.jvmFlags") + "' -Dtokenclock.selfWarmup=false " +
            "-jar target/tokenclock.jar run " +
            "--url http://127.0.0.1:9/v1 --model m --no-preflight --no-progress --concurrency " + concurrency +
            " --requests 1 --timeout 5 --output-dir '" + dir.resolve("run-" + concurrency) + "'";
        final Path console = dir.resolve("console-" + concurrency + ".txt");
        final int status = exec(command, console);
        return status + "|" + Files.readString(console, StandardCharsets.UTF_8).strip();
    }

    /**
     * Runs {@code command} under bash, its output into {@code console}, and waits for it: a guard against a hang,
     * not a speed limit (on a quiet machine these runs take 5-25 s; under a loaded suite one took 79 s).
     *
     * @return its exit status.
     */
    private static int exec(final String command, final Path console) throws Exception
    {
        final Process p = new ProcessBuilder(List.of("bash", "-c", command)).redirectErrorStream(true)
            .redirectOutput(console.toFile()).start();
        if (!p.waitFor(LIMIT_S, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail("not finished in " + LIMIT_S + " s; its output: " + Files.readString(console, StandardCharsets.UTF_8));
        }
        return p.exitValue();
    }

    @Test
    void shouldRefuseARunThatNeedsMoreDescriptorsThanTheHardLimit() throws Exception
    {
        assumeTrue(Files.isReadable(Path.of("/proc/self/limits")), "Linux only");
        final String[] result = run("ulimit -n 400", "", 1000).split("\\|", 2);
        assertEquals("2", result[0], result[1]);
        assertEquals(1, result[1].lines().count(), "one line: " + result[1]);
        assertTrue(result[1].contains("open-files limit is 400") && result[1].contains("1256"), result[1]);
    }

    @Test
    void shouldRaiseASoftLimitBelowTheHardOneInsteadOfRefusing() throws Exception
    {
        assumeTrue(Files.isReadable(Path.of("/proc/self/limits")), "Linux only");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/prlimit")), "needs util-linux prlimit");
        // -XX:-MaxFDLimit keeps the JVM from raising the soft limit itself, so the harness must.
        final String[] result = run("ulimit -S -n 300", "-XX:-MaxFDLimit", 500).split("\\|", 2);
        assertFalse(result[1].contains("open-files limit"), result[1]);
        assertEquals("1", result[0], "it ran (port 9 refuses, so no request succeeds): " + result[1]);
    }

    @Test
    void shouldSizeAnOpenLoopFromTheProbesLatencyAndRefuseItBeforeTheRun() throws Exception
    {
        assumeTrue(Files.isReadable(Path.of("/proc/self/limits")), "Linux only");
        // 4 preflight tokens at 100 ms: about 10 s per 100-token request, so --rate 300 holds about 3,000
        // connections. The old estimate (1 s per request) said 455 and let the run start under ulimit -n 800.
        try (SimServer sim = SimServer.start(new SimConfig().prefillBaseMs(0).decodeBaseMs(100).decodePerSeqMs(0)
            .jitter(0)))
        {
            final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            final Path run = dir.resolve("open");
            final String command = "ulimit -n 800 && exec '" + java + "' '" +
                System.getProperty("tokenclock.jvmFlags") + "' -Dtokenclock.selfWarmup=false " +
                "-jar target/tokenclock.jar " +
                "run --url " + sim.baseUrl() + " --model m --no-progress --rate 300 --duration 2 --max-tokens 100 " +
                "--ignore-eos --timeout 3 --output-dir '" + run + "'";
            final Path console = dir.resolve("console-open.txt");
            final int status = exec(command, console);
            final String said = Files.readString(console, StandardCharsets.UTF_8).strip();
            assertEquals(2, status, said);
            assertEquals(1, said.lines().count(), "one line: " + said);
            assertTrue(said.contains("open-files limit is 800") && said.contains("--rate 300") &&
                said.contains("from the preflight") && said.contains("--max-concurrency"), said);
            assertEquals(1, sim.engine().requestsTotal(), "only the preflight was sent: " + said);
        }
    }

    @Test
    void shouldClassifyARefusedChannelAsTheClientsLimitAndSaySo() throws Exception
    {
        assumeTrue(Files.isReadable(Path.of("/proc/self/limits")), "Linux only");
        // Without a preflight the open loop is sized on an assumed 1 s per request; these take 10 s, so the run
        // opens more connections than ulimit -n 800 allows (900 in flight after 3 s), and the client is the limit.
        try (SimServer sim = SimServer.start(new SimConfig().prefillBaseMs(0).decodeBaseMs(100).decodePerSeqMs(0)
            .jitter(0).batchSlots(4096)))
        {
            final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            final Path run = dir.resolve("refused");
            final String command = "ulimit -n 800 && exec '" + java + "' '" +
                System.getProperty("tokenclock.jvmFlags") + "' -Dtokenclock.selfWarmup=false " +
                "-jar target/tokenclock.jar " +
                "run --url " + sim.baseUrl() + " --model m --no-preflight --no-progress --rate 300 --duration 3 " +
                "--max-tokens 100 --ignore-eos --timeout 8 --drain-timeout 10 --output-dir '" + run + "'";
            final Path console = dir.resolve("console-refused.txt");
            exec(command, console); // its status is the errors' (no request succeeds); the record says which
            final String said = Files.readString(console, StandardCharsets.UTF_8);
            final JsonNode errors = new ObjectMapper().readTree(run.resolve("record.json").toFile()).path("report")
                .path("errors_by_class");
            assertTrue(errors.path("client_limit").asLong() > 0, errors + "\n" + said);
            assertFalse(errors.has("client_error"), "a refused channel is not a client_error: " + errors);
            assertTrue(said.contains("CLIENT LIMIT") && said.contains("ulimit -n"), said);
        }
    }
}
