package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's choice of AOT cache (scripts/lib/aot.sh, sourced by ./tokenclock): the cache of this jar, JDK and
 * jvm.flags, never another's. Drives the shell functions with a stand-in jar and JDK home; starts no JVM.
 */
final class AotLauncherTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void shouldPassNoCacheFlagsWhenNoneWasTrained() throws Exception
    {
        final Path jar = jar("a.jar", "build one");
        assertEquals("", shell("aot_jvm_flags " + jar, "25.0.3+9-LTS", ""));
    }

    @Test
    void shouldPickTheCacheOfTheMatchingJarAndSilenceTheJvmsAotLines() throws Exception
    {
        final Path jar = jar("a.jar", "build one");
        final Path cache = trained(jar, "25.0.3+9-LTS");
        assertEquals("-XX:AOTCache=" + cache + "\n-Xlog:aot*=off", shell("aot_jvm_flags " + jar, "25.0.3+9-LTS", ""));
    }

    @Test
    void shouldIgnoreACacheOfAnotherBuildOrTimeOrJdk() throws Exception
    {
        final Path jar = jar("a.jar", "build one");
        trained(jar, "25.0.3+9-LTS");
        assertEquals("", shell("aot_jvm_flags " + jar, "25.0.4+7-LTS", ""), "another JDK");
        Files.writeString(jar, "build two", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(jar, FileTime.fromMillis(1_700_000_000_000L));
        assertEquals("", shell("aot_jvm_flags " + jar, "25.0.3+9-LTS", ""), "another build");
        final Path other = jar("b.jar", "build one"); // the same bytes at another time: the JVM would refuse it
        Files.setLastModifiedTime(other, FileTime.fromMillis(1_600_000_000_000L));
        assertNotEquals(shell("aot_cache_file " + jar, "25.0.3+9-LTS", ""),
            shell("aot_cache_file " + other, "25.0.3+9-LTS", ""));
    }

    @Test
    void shouldPassNoCacheFlagsWhenTurnedOff() throws Exception
    {
        final Path jar = jar("a.jar", "build one");
        trained(jar, "25.0.3+9-LTS");
        assertEquals("", shell("aot_jvm_flags " + jar, "25.0.3+9-LTS", "off"));
    }

    private Path jar(final String name, final String content) throws IOException
    {
        final Path jar = dir.resolve(name);
        Files.writeString(jar, content, StandardCharsets.UTF_8);
        Files.setLastModifiedTime(jar, FileTime.fromMillis(1_650_000_000_000L));
        return jar;
    }

    /** @return the cache file the launcher would use for {@code jar}, created as a training run would. */
    private Path trained(final Path jar, final String jdk) throws Exception
    {
        final Path cache = Path.of(shell("aot_cache_file " + jar, jdk, ""));
        assertTrue(cache.startsWith(dir.resolve("cache")), cache.toString());
        Files.writeString(cache, "a cache", StandardCharsets.UTF_8);
        return cache;
    }

    /** Runs {@code call} with scripts/lib's functions, JAVA_HOME a stand-in JDK of version {@code jdk}. */
    private String shell(final String call, final String jdk, final String aot) throws Exception
    {
        final Path home = Files.createDirectories(dir.resolve("jdk-" + jdk));
        Files.writeString(home.resolve("release"), "JAVA_RUNTIME_VERSION=\"" + jdk + "\"\n", StandardCharsets.UTF_8);
        final ProcessBuilder pb = new ProcessBuilder(List.of("bash", "-c",
            "set -euo pipefail; . scripts/lib/java.sh; . scripts/lib/aot.sh; " + call))
            .directory(ROOT.toFile()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", home.toString());
        pb.environment().put("TOKENCLOCK_AOT_DIR", dir.resolve("cache").toString());
        pb.environment().put("TOKENCLOCK_AOT", aot);
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        return out;
    }
}
