package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.testing.SimServerExtension;

/**
 * A run under an AOT cache, as ./tokenclock starts it ({@code -XX:AOTCache=FILE -Xlog:aot*=off}, scripts/lib/aot.sh):
 * the record says whether the JVM used the cache, and a cache it refuses costs one line, never the run.
 */
@Tag("slow") // starts JVMs and trains a cache (a child JVM assembles it)
final class AotCacheIT
{
    @RegisterExtension
    final SimServerExtension sim = new SimServerExtension();

    @TempDir
    Path dir;

    @Test
    void shouldRunAndSayItInOneLineWhenTheJvmRefusesTheCache() throws Exception
    {
        final Path stale = dir.resolve("stale.aot");
        Files.write(stale, new byte[4096]); // not a cache: the JVM refuses it as it refuses another build's
        final Path run = dir.resolve("run");
        final Result r = tokenclock(List.of("-XX:AOTCache=" + stale, "-Xlog:aot*=off"), runArgs(run));
        assertEquals(0, r.status(), r.output());
        assertEquals(List.of(), r.output().lines().filter(l -> l.startsWith("[")).toList(), "the JVM's own lines");
        assertEquals(1, r.output().lines().filter(l -> l.startsWith("tokenclock: the JVM refused the AOT cache " +
            stale + " ")).count(), r.output());
        assertTrue(r.output().contains("(AOT cache refused)"), "the summary's readiness line: " + r.output());
        assertEquals("refused", aotCache(run));
    }

    @Test
    void shouldSayNoneWithoutACacheAndUsedWithATrainedOne() throws Exception
    {
        final Path none = dir.resolve("none");
        final Result without = tokenclock(List.of(), runArgs(none));
        assertEquals(0, without.status(), without.output());
        assertEquals("none", aotCache(none));

        final Path cache = dir.resolve("trained.aot");
        final Result training = tokenclock(List.of("-XX:AOTCacheOutput=" + cache), List.of("--version"));
        assertEquals(0, training.status(), training.output());
        assertTrue(Files.size(cache) > 0, training.output());
        final Path used = dir.resolve("used");
        final Result with = tokenclock(List.of("-XX:AOTCache=" + cache, "-Xlog:aot*=off"), runArgs(used));
        assertEquals(0, with.status(), with.output());
        assertEquals("used", aotCache(used));
    }

    private List<String> runArgs(final Path run)
    {
        final SimServer server = sim.start(new SimConfig().port(0).prefillBaseMs(1).decodeBaseMs(1));
        return List.of("run", "--url", server.baseUrl(), "--model", "m", "--concurrency", "1", "--requests", "2",
            "--max-tokens", "4", "--no-progress", "--verbose", "--output-dir", run.toString());
    }

    private static String aotCache(final Path run) throws IOException
    {
        final JsonNode record = new ObjectMapper().readTree(run.resolve("record.json").toFile());
        return record.path("measurement").path("readiness").path("aot_cache").asText();
    }

    private record Result(int status, String output)
    {
    }

    private Result tokenclock(final List<String> jvmArgs, final List<String> args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), System.getProperty("tokenclock.jvmFlags")));
        command.addAll(jvmArgs);
        command.addAll(List.of("-Dtokenclock.tty=0", "-Dtokenclock.selfWarmup=false", "-jar",
            Path.of("target", "tokenclock.jar").toString()));
        command.addAll(args);
        final Path out = Files.createTempFile(dir, "console", ".txt");
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        final int status = p.waitFor();
        return new Result(status, Files.readString(out, StandardCharsets.UTF_8));
    }
}
