package io.tokenclock.jcstress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the module's jcstress tests ({@code target/jcstress.jar}) in jcstress's sanity mode, in one JVM mode (the
 * flags of jvm.flags, tiered C2 as users run it): a budget small enough for {@code ./tokenclock test} (about a
 * minute on two cores). A forbidden outcome seen, or a test that errs, fails the build: jcstress then exits 1 (seen
 * with a planted forbidden outcome), and its summary line counts it; the per-test reports show that every test ran.
 * <p>
 * The thorough run, every JVM mode jcstress knows (interpreter, C1, C2, and their stress options) and more time per
 * test, is for a developer who changes the concurrency: {@code java @jvm.flags -jar jcstress/target/jcstress.jar -m
 * quick -jvmArgsPrepend @$PWD/jvm.flags} (CONTRIBUTING.md; about 3 minutes in sanity mode, longer in quick).
 */
final class JcstressIT
{
    /** The tests of this module; every one must have run. */
    private static final List<String> TESTS = List.of(
        "SlotPoolEndStampStress", "RingSlotVisibilityStress", "RequestStageOfferStress", "RequestStageWakeStress");

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void shouldSeeNoForbiddenOutcomeInAnyTest() throws Exception
    {
        final String flags = System.getProperty("tokenclock.jvmFlags");
        // Run in target/: jcstress also leaves its binary results file in its working directory.
        final Path target = Path.of("target");
        final Path out = target.resolve("jcstress-results");
        final Path console = target.resolve("jcstress-console.txt");
        final Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            flags, "-jar", "jcstress.jar", "-m", "sanity", "-t", "io\\.tokenclock\\.", "-jvmArgs", flags,
            "-r", "jcstress-results")
            .directory(target.toFile()).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        assertTrue(p.waitFor(9, TimeUnit.MINUTES), "jcstress finished");
        final String text = Files.readString(console, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), tail(text));
        final Matcher last = lastSummary(text);
        assertTrue(Integer.parseInt(last.group(1)) >= TESTS.size(), "results planned: " + last.group());
        assertEquals(last.group(1), last.group(2), "every result passed: " + last.group() + "\n" + tail(text));
        assertEquals("0 failed, 0 soft errs, 0 hard errs", last.group(3), tail(text));
        for (final String test : TESTS)
        {
            assertTrue(Files.exists(out.resolve("io.tokenclock.recording." + test + ".html")), test + " ran");
        }
        assertFalse(text.contains("FORBIDDEN"), tail(text));
    }

    /** jcstress's last progress line: {@code (Results: 3 planned; 3 passed, 0 failed, 0 soft errs, 0 hard errs)}. */
    private static Matcher lastSummary(final String text)
    {
        final Pattern summary = Pattern.compile(
            "\\(Results: (\\d+) planned; (\\d+) passed, (\\d+ failed, \\d+ soft errs, \\d+ hard errs)\\)");
        final Matcher all = summary.matcher(text);
        String last = null;
        while (all.find())
        {
            last = all.group();
        }
        assertTrue(last != null, "jcstress printed its results: " + tail(text));
        final Matcher m = summary.matcher(last);
        assertTrue(m.matches());
        return m;
    }

    private static String tail(final String text)
    {
        return text.substring(Math.max(0, text.length() - 4_000));
    }
}
