package io.tokenclock.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The JVM flags every JVM of the project takes are written once, in {@code jvm.flags} at the repository root, and
 * read from there by the launcher (and the distribution's, deploy/dist/tokenclock), the scripts
 * (scripts/lib/java.sh), surefire and failsafe (the parent pom's argLine), the tests that start a JVM (the
 * {@code tokenclock.jvmFlags} property) and JMH's forks (Bench). A flag written into any other source, script, pom
 * or doc fails this test: that copy would drift from the file.
 */
final class JvmFlagsTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path FLAGS = ROOT.resolve("jvm.flags");
    /** Recorded output (JMH's JSON and logs name the flags the runs had) and build output, not sources. */
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of(".git", "target", "results", ".mvn", "node_modules");
    /** Files that use a flag as data, not to start a JVM. */
    private static final Set<String> DATA = Set.of(
        // a JVM option shown in a record, to check redaction leaves harmless ones alone
        "harness/src/test/java/io/tokenclock/secrets/RedactionTest.java");

    @Test
    void shouldReadFlagsFromTheFileAsTheJavaLauncherDoes() throws IOException
    {
        final List<String> flags = flags(Files.readString(FLAGS, StandardCharsets.UTF_8));
        assertTrue(flags.contains("--add-exports"), "Agrona's export: " + flags);
        assertEquals(List.of("-a", "b", "-c=d"), flags("# heading\n-a b # why\n\n  -c=d\n"));
    }

    @Test
    void shouldFindEachFlagOnlyInJvmFlags() throws IOException
    {
        final List<String> needles = needles(flags(Files.readString(FLAGS, StandardCharsets.UTF_8)));
        assertFalse(needles.isEmpty(), "flags to look for");
        final Set<String> copies = new TreeSet<>();
        try (Stream<Path> files = Files.walk(ROOT))
        {
            for (final Path file : (Iterable<Path>)files.filter(JvmFlagsTest::scanned)::iterator)
            {
                final String text = text(file);
                for (final String needle : needles)
                {
                    if (text.contains(needle))
                    {
                        copies.add(ROOT.relativize(file) + ": " + needle);
                    }
                }
            }
        }
        assertEquals(Set.of(), copies, "read jvm.flags there instead (see its header for how each place does)");
    }

    @Test
    void shouldHaveEveryLauncherReadTheFile() throws IOException
    {
        assertTrue(read("tokenclock").contains("\"$tokenclock_jvm_flags\""), "./tokenclock");
        assertTrue(read("scripts/lib/java.sh").contains("tokenclock_jvm_flags=\"@"), "scripts/lib/java.sh");
        assertTrue(read("pom.xml").contains("<argLine>@${tokenclock.jvm.flags}</argLine>"), "surefire, failsafe");
        assertTrue(read("jmh/pom.xml").contains("<mainClass>io.tokenclock.jmh.Bench</mainClass>"), "JMH forks");
        assertTrue(read("deploy/dist/tokenclock").contains("\"@$home/jvm.flags\""), "the distribution's launcher");
        assertTrue(read("scripts/dist").contains("cp \"$root/jvm.flags\" \"$stage/jvm.flags\""),
            "the distribution ships the file");
        assertTrue(System.getProperty("tokenclock.jvmFlags", "").endsWith("jvm.flags"), "tests' own JVMs");
    }

    /** The flags of an @argfile of the kind jvm.flags is: {@code #} to the end of a line is a comment. */
    static List<String> flags(final String text)
    {
        final List<String> flags = new ArrayList<>();
        for (final String line : text.split("\n"))
        {
            final String kept = line.replaceFirst("#.*", "").strip();
            if (!kept.isEmpty())
            {
                flags.addAll(Arrays.asList(kept.split("\\s+")));
            }
        }
        return flags;
    }

    /**
     * What gives a flag away: every flag except a bare option name whose value follows as the next word
     * ({@code --add-exports X}), which is looked for as its value instead.
     */
    private static List<String> needles(final List<String> flags)
    {
        final List<String> needles = new ArrayList<>();
        for (int i = 0; i < flags.size(); i++)
        {
            final String flag = flags.get(i);
            final boolean takesNext = flag.startsWith("--") && !flag.contains("=") && i + 1 < flags.size() &&
                !flags.get(i + 1).startsWith("-");
            if (!takesNext)
            {
                needles.add(flag);
            }
        }
        return needles;
    }

    private static boolean scanned(final Path file)
    {
        final Path relative = ROOT.relativize(file);
        for (final Path part : relative)
        {
            if (SKIPPED_DIRECTORIES.contains(part.toString()))
            {
                return false;
            }
        }
        return Files.isRegularFile(file) && !file.equals(FLAGS) && !DATA.contains(relative.toString()) &&
            Files.isReadable(file);
    }

    private static String text(final Path file) throws IOException
    {
        try
        {
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final MalformedInputException binary)
        {
            return "";
        }
    }

    private static String read(final String relative) throws IOException
    {
        return Files.readString(ROOT.resolve(relative), StandardCharsets.UTF_8);
    }
}
