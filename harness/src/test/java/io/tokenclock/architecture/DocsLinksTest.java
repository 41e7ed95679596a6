package io.tokenclock.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every relative link of every Markdown file in the repository (docs/, the README, CONTRIBUTING, CHANGELOG, the
 * READMEs under results/ and scripts/) names a file that exists, and, into a Markdown file, a heading that it has. The
 * docs are references and the dated logs live beside their figures in results/ (issue 39): text moves between them,
 * and a link left pointing at where it was fails here, with the file and the link.
 */
final class DocsLinksTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** Build output and other people's files, not ours. */
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of(".git", "target", "node_modules", ".mvn");
    /** {@code [text](target)}: the target, without a title, up to the closing parenthesis. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    @Test
    void shouldResolveEveryRelativeLinkOfEveryMarkdownFile() throws IOException
    {
        final Set<String> broken = new TreeSet<>();
        final List<Path> files = markdownFiles();
        assertTrue(files.size() > 20, "Markdown files found: " + files.size());
        for (final Path file : files)
        {
            final Matcher m = LINK.matcher(Files.readString(file, StandardCharsets.UTF_8));
            while (m.find())
            {
                final String link = m.group(1);
                if (link.matches("^[a-zA-Z][a-zA-Z+.-]*:.*"))
                {
                    continue; // a URL (https:, mailto:), not ours to check offline
                }
                final int hash = link.indexOf('#');
                final String path = hash < 0 ? link : link.substring(0, hash);
                final Path target = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
                if (!Files.exists(target))
                {
                    broken.add(ROOT.relativize(file) + ": " + link + " (no such file)");
                }
                else if (hash >= 0 && target.toString().endsWith(".md") &&
                    !anchors(target).contains(link.substring(hash + 1)))
                {
                    broken.add(ROOT.relativize(file) + ": " + link + " (no such heading)");
                }
            }
        }
        assertEquals(Set.of(), broken, "links that lead nowhere");
    }

    @Test
    void shouldNameHeadingsAsGitHubDoes()
    {
        assertEquals("vllm-benchs-cells", slug("vllm-bench's cells"));
        assertEquals("how-jmh-compare-decides", slug("How `jmh-compare` decides"));
        assertEquals("comparing-two-builds---against", slug("Comparing two builds: `--against`"));
    }

    private static List<Path> markdownFiles() throws IOException
    {
        try (Stream<Path> files = Files.walk(ROOT))
        {
            return files.filter(f -> f.toString().endsWith(".md") && Files.isRegularFile(f) && !skipped(f)).toList();
        }
    }

    private static boolean skipped(final Path file)
    {
        for (final Path part : ROOT.relativize(file))
        {
            if (SKIPPED_DIRECTORIES.contains(part.toString()))
            {
                return true;
            }
        }
        return false;
    }

    private static Set<String> anchors(final Path markdown) throws IOException
    {
        final Set<String> anchors = new HashSet<>();
        boolean fenced = false;
        for (final String line : Files.readAllLines(markdown, StandardCharsets.UTF_8))
        {
            fenced ^= line.startsWith("```");
            final Matcher m = HEADING.matcher(line);
            if (!fenced && m.matches())
            {
                anchors.add(slug(m.group(1)));
            }
        }
        return anchors;
    }

    /** GitHub's anchor of a heading: lower case, punctuation but {@code -} and {@code _} dropped, spaces to dashes. */
    static String slug(final String heading)
    {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
    }
}
