package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run planned for more connections than the open-files limit allows is refused before anything is sent, with one
 * line saying what to raise; a soft limit below the hard one is raised instead. Each case runs {@code tokenclock run}
 * under a shell's {@code ulimit}.
 */
@Timeout(120)
@Tag("slow") // starts JVMs under a shell with lowered limits: skipped by -Pfast
final class DescriptorLimitIT
{
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
        final Process p = new ProcessBuilder(List.of("bash", "-c", command)).redirectErrorStream(true)
            .redirectOutput(console.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "finished");
        return p.exitValue() + "|" + Files.readString(console, StandardCharsets.UTF_8).strip();
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
}
