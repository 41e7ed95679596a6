package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the record captures about the machine and the network path is read, not assumed. */
@Timeout(30)
final class EnvironmentCaptureTest
{
    private static final Path SH = Path.of("/bin/sh");

    @TempDir
    Path dir;

    @Test
    void shouldParseNvidiaSmiCsvIntoOneMapPerGpu()
    {
        final List<Map<String, String>> gpus = EnvironmentCapture.parseGpuCsv(
            "0, NVIDIA H200, GPU-1234, 143771, 580.65.06, 700.00, 1980, 3201, Disabled, P0\n" +
            "1, NVIDIA H200, GPU-5678, 143771, 580.65.06, 700.00, 1980, 3201, Disabled, P0\n",
            EnvironmentCapture.GPU_QUERY.split(","));
        assertEquals(2, gpus.size());
        assertEquals("NVIDIA H200", gpus.get(0).get("name"));
        assertEquals("143771", gpus.get(1).get("memory.total"));
        assertEquals("700.00", gpus.get(0).get("power.limit"));
    }

    @Test
    void shouldKillACommandThatOutlivesItsBoundAndReturnNothing() throws Exception
    {
        assumeTrue(Files.isExecutable(SH), "a POSIX shell to fake a hung nvidia-smi with");
        final Path pidFile = dir.resolve("pid");
        // The fake command holds its output open for a minute, as a hung driver call would: the bound must not wait.
        final String output = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> EnvironmentCapture.boundedOutput(
            List.of(SH.toString(), "-c", "echo $$ > '" + pidFile + "'; exec sleep 60"), 2_000));

        assertNull(output);
        final long pid = Long.parseLong(Files.readString(pidFile).trim());
        final Optional<ProcessHandle> sleeper = ProcessHandle.of(pid);
        if (sleeper.isPresent())
        {
            sleeper.get().onExit().get(20, TimeUnit.SECONDS);
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the command was killed");
    }

    @Test
    void shouldReturnTheOutputOfACommandThatExitsWithinItsBound()
    {
        assumeTrue(Files.isExecutable(SH), "a POSIX shell to fake nvidia-smi with");
        final String line = "0, NVIDIA H200, GPU-1234, 143771, 580.65.06, 700.00, 1980, 3201, Disabled, P0";

        final String output = EnvironmentCapture.boundedOutput(List.of(SH.toString(), "-c", "echo '" + line + "'"),
            20_000);

        assertEquals(line + "\n", output);
        assertEquals("GPU-1234", EnvironmentCapture.parseGpuCsv(output, EnvironmentCapture.GPU_QUERY.split(","))
            .get(0).get("uuid"));
    }

    @Test
    void shouldTakeMoreOutputThanAPipeHolds()
    {
        assumeTrue(Files.isExecutable(SH), "a POSIX shell to fake a talkative command with");

        final String output = EnvironmentCapture.boundedOutput(
            List.of(SH.toString(), "-c", "i=0; while [ $i -lt 20000 ]; do echo 0123456789; i=$((i + 1)); done"),
            20_000);

        assertEquals(220_000, output.length(), "20,000 lines of 11 bytes, over three times a 64 KiB pipe");
    }

    @Test
    void shouldReturnNothingForACommandThatFailsOrDoesNotExist()
    {
        assumeTrue(Files.isExecutable(SH), "a POSIX shell to fake a failing command with");

        assertNull(EnvironmentCapture.boundedOutput(List.of(SH.toString(), "-c", "echo partial; exit 3"), 20_000));
        assertNull(EnvironmentCapture.boundedOutput(List.of(dir.resolve("no-such-command").toString()), 20_000));
    }

    @Test
    void shouldMeasureConnectRoundTripsToALoopbackListener() throws IOException
    {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress()))
        {
            final Map<String, Object> rtt = EnvironmentCapture.connectRtt("127.0.0.1", listener.getLocalPort(), 5);
            assertEquals(5, rtt.get("probes"));
            assertTrue((double)rtt.get("min_ms") > 0 && (double)rtt.get("min_ms") <= (double)rtt.get("p50_ms"));
            assertTrue((double)rtt.get("p50_ms") <= (double)rtt.get("max_ms"));
        }
    }

    @Test
    void shouldSayWhyWhenNothingListens()
    {
        final Map<String, Object> rtt = EnvironmentCapture.connectRtt("127.0.0.1", 1, 3);
        assertEquals(0, rtt.get("probes"));
        assertTrue(String.valueOf(rtt.get("error")).contains("Connect"), rtt.toString());
    }

    @Test
    void shouldReadTheClientHostFromTheMachine()
    {
        final Map<String, Object> client = EnvironmentCapture.client();
        assertEquals(Runtime.getRuntime().availableProcessors(), client.get("logical_cpus"));
        assertTrue(((String)client.get("jvm")).contains(System.getProperty("java.runtime.version")));
    }
}
