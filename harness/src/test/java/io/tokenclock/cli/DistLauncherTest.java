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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution's launcher (deploy/dist/tokenclock): which Java it runs, with which flags, from wherever it is
 * called. Drives it with stand-in {@code java} scripts that print their arguments, so no JVM starts; scripts/dist-check
 * runs the real distribution.
 */
final class DistLauncherTest
{
    private static final Path LAUNCHER = Path.of("..", "deploy", "dist", "tokenclock").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    /** @return a distribution's tree at {@code home}: the launcher, and a bundled stand-in runtime when asked. */
    private Path home(final boolean runtime) throws IOException
    {
        final Path home = Files.createDirectories(dir.resolve("tokenclock-1.0"));
        Files.copy(LAUNCHER, home.resolve("tokenclock"));
        Files.createDirectories(home.resolve("lib"));
        Files.writeString(home.resolve("jvm.flags"), "-Xss1m\n");
        if (runtime)
        {
            java(home.resolve("runtime"), "bundled");
        }
        return home.toRealPath(); // as the launcher resolves it
    }

    /** A stand-in {@code HOME/bin/java} that prints its name and its arguments, one a line. */
    private static void java(final Path javaHome, final String name) throws IOException
    {
        final Path java = Files.createDirectories(javaHome.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho " + name + "\nfor a in \"$@\"; do echo \"$a\"; done\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** @return what {@code launcher ARGS} printed (stdout and stderr), its exit status last. */
    private List<String> launch(final Path launcher, final Map<String, String> env, final String... args)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().put("PATH", "/usr/bin:/bin");
        pb.environment().putAll(env);
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the launcher ended");
        final List<String> lines = new ArrayList<>(out.lines().toList());
        lines.add("exit " + p.exitValue());
        return lines;
    }

    @Test
    void shouldRunTheJarOnTheBundledRuntimeWithTheFlagsFileFromALinkElsewhere() throws Exception
    {
        final Path home = home(true);
        final Path link = Files.createDirectories(dir.resolve("bin")).resolve("tokenclock");
        Files.createSymbolicLink(link, home.resolve("tokenclock"));
        java(dir.resolve("jdk"), "jdk");
        final List<String> out = launch(link, Map.of("JAVA_HOME", dir.resolve("jdk").toString()), "demo",
            "--duration", "5");
        assertEquals(List.of("bundled", "@" + home + "/jvm.flags", "-Dtokenclock.tty=0", "-Dtokenclock.home=" + home,
            "-jar", home + "/lib/tokenclock.jar", "demo", "--duration", "5", "exit 0"), out);
    }

    @Test
    void shouldStartFromTheShippedAotCacheUnlessTurnedOff() throws Exception
    {
        final Path home = home(true);
        Files.writeString(home.resolve("lib").resolve("tokenclock.aot"), "cache");
        final List<String> out = launch(home.resolve("tokenclock"), Map.of(), "--version");
        assertEquals(List.of("bundled", "@" + home + "/jvm.flags", "-XX:AOTCache=" + home + "/lib/tokenclock.aot",
            "-Xlog:aot*=off"), out.subList(0, 4));
        assertFalse(launch(home.resolve("tokenclock"), Map.of("TOKENCLOCK_AOT", "off"), "--version").stream()
            .anyMatch(a -> a.startsWith("-XX:AOTCache")));
    }

    @Test
    void shouldTakeJavaHomeWithoutABundledRuntimeAndNeverItsCache() throws Exception
    {
        final Path home = home(false);
        Files.writeString(home.resolve("lib").resolve("tokenclock.aot"), "another runtime's cache");
        java(dir.resolve("jdk"), "jdk");
        final List<String> out = launch(home.resolve("tokenclock"), Map.of("JAVA_HOME",
            dir.resolve("jdk").toString(), "TOKENCLOCK_JAVA_OPTS", "-Xmx1g -Dx=y"), "--version");
        assertEquals(List.of("jdk", "@" + home + "/jvm.flags", "-Dtokenclock.tty=0", "-Dtokenclock.home=" + home,
            "-Xmx1g", "-Dx=y", "-jar", home + "/lib/tokenclock.jar", "--version", "exit 0"), out);
    }

    @Test
    void shouldSayInOneLineThatThereIsNoJavaAtAll() throws Exception
    {
        final Path home = home(false);
        final Path bin = Files.createDirectories(dir.resolve("nojava"));
        for (final String tool : List.of("readlink", "dirname"))
        {
            final Path usrBin = Path.of("/usr/bin", tool);
            Files.createSymbolicLink(bin.resolve(tool), Files.exists(usrBin) ? usrBin : Path.of("/bin", tool));
        }
        final List<String> out = launch(home.resolve("tokenclock"), Map.of("PATH", bin.toString()), "demo");
        assertEquals(List.of("tokenclock: no Java runtime: " + home + "/runtime is missing, and there is no " +
            "JAVA_HOME or java on the PATH", "exit 1"), out);
    }
}
