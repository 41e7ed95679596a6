package io.tokenclock.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * results/ holds figures and the READMEs that say how they were made, not the scripts that made them (issue 39): a
 * script that made a committed figure lives in scripts/, documented and, where cheap, rerun by a test
 * ({@code results.ResultScriptsTest}); its figure's README gives the command. A script is a file named as source
 * ({@code .py}, {@code .sh}, {@code .java}, ...), one that starts with {@code #!}, or one marked executable.
 */
final class ResultsHoldNoScriptsTest
{
    private static final Path RESULTS = Path.of("..").toAbsolutePath().normalize().resolve("results");
    private static final Pattern SOURCE = Pattern.compile(".*\\.(py|sh|bash|java|js|mjs|ts|rb|pl|r|R|go|c|cc|cpp)$");

    @Test
    void shouldFindNoScriptUnderResults() throws IOException
    {
        final Set<String> scripts = new TreeSet<>();
        final List<Path> files;
        try (Stream<Path> walk = Files.walk(RESULTS))
        {
            files = walk.filter(Files::isRegularFile).toList();
        }
        assertTrue(files.size() > 100, "files under results/: " + files.size());
        for (final Path f : files)
        {
            final String why = SOURCE.matcher(f.getFileName().toString()).matches() ? "named as source" :
                startsWithShebang(f) ? "starts with #!" : Files.isExecutable(f) ? "executable" : null;
            if (why != null)
            {
                scripts.add(RESULTS.getParent().relativize(f) + " (" + why + ")");
            }
        }
        assertEquals(Set.of(), scripts, "scripts under results/: move each to scripts/ (documented; its figure's " +
            "README gives the command) or delete it");
    }

    @Test
    void shouldTellAScriptByItsNameOrItsFirstLine()
    {
        assertTrue(SOURCE.matcher("beside.py").matches());
        assertTrue(SOURCE.matcher("GenModel.java").matches());
        assertTrue(!SOURCE.matcher("record.json").matches() && !SOURCE.matcher("e2e.hlog").matches());
    }

    private static boolean startsWithShebang(final Path file) throws IOException
    {
        try (InputStream in = Files.newInputStream(file))
        {
            return in.read() == '#' && in.read() == '!';
        }
    }
}
