package io.tokenclock.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * An exemption from checkstyle's method length rule lasts only as long as its reason: every method that
 * {@code config/checkstyle/suppressions.xml} exempts by name must still be longer than the limit
 * {@code config/checkstyle/checkstyle.xml} sets for main sources, counted as checkstyle counts it (the opening brace's
 * line to the closing brace's, both included). A method split or trimmed to fit fails this test until its line in
 * suppressions.xml goes, so the list cannot outlive what it lists; so does an exemption that names no method, and
 * one that exempts whole main-source files rather than one method.
 */
final class MethodLengthExemptionsTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path CHECKSTYLE = ROOT.resolve("config/checkstyle/checkstyle.xml");
    private static final Path SUPPRESSIONS = ROOT.resolve("config/checkstyle/suppressions.xml");
    private static final String RULE = "MethodLengthMain";
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of(".git", "target", "results", ".mvn", "node_modules");
    /** The one query shape an exemption takes: a class by name, then one of its methods by name. */
    private static final Pattern QUERY = Pattern.compile(
        "^//CLASS_DEF\\[\\./IDENT\\[@text='(\\w+)']](?:/OBJBLOCK/|//)METHOD_DEF\\[\\./IDENT\\[@text='(\\w+)']]$");

    /** One suppression of the rule: the files it applies to and, for an exemption, its class and method. */
    private record Exemption(String files, String query)
    {
    }

    @Test
    void shouldExemptOnlyMethodsThatStillExceedTheLimit() throws Exception
    {
        final int limit = limit();
        final List<Path> mainSources = mainSources();
        final List<String> stale = new ArrayList<>();
        final List<Exemption> exemptions = exemptions();
        for (final Exemption e : exemptions)
        {
            final Pattern files = Pattern.compile(e.files());
            final List<Path> matched = mainSources.stream()
                .filter(p -> files.matcher(p.toString()).find()).toList(); // as checkstyle: the absolute path
            if (e.query() == null)
            {
                assertEquals(List.of(), matched, "a suppression of " + RULE + " without a query exempts whole " +
                    "main-source files; name the one method instead (files=\"" + e.files() + "\")");
                continue;
            }
            final Matcher q = QUERY.matcher(e.query());
            assertTrue(q.matches(), "not an exemption of one named method: " + e.query());
            assertFalse(matched.isEmpty(), "files=\"" + e.files() + "\" matches no main source");
            int longest = -1;
            for (final Path source : matched)
            {
                for (final int length : methodLengths(Files.readString(source), q.group(1), q.group(2)))
                {
                    longest = Math.max(longest, length);
                }
            }
            if (longest < 0)
            {
                stale.add(q.group(1) + "." + q.group(2) + ": no such method in " + matched);
            }
            else if (longest <= limit)
            {
                stale.add(q.group(1) + "." + q.group(2) + ": " + longest + " lines, within the limit of " + limit);
            }
        }
        assertEquals(List.of(), stale, "exemptions in suppressions.xml that no longer hold; remove their lines");
        // Not vacuous: StreamRecorder.onEvent's exemption (results/jmh/onevent-split) is there to be checked.
        assertTrue(exemptions.stream().anyMatch(e -> e.query() != null), "no method exemption read from " +
            SUPPRESSIONS + "; if the list is empty on purpose, this line goes too");
    }

    @Test
    void shouldCountLinesFromOpeningBraceToClosingBraceIgnoringBracesInTextAndComments()
    {
        final String source = String.join("\n",
            "final class Outer",                        // 1
            "{",                                        // 2
            "    void run(final String s)",             // 3
            "    {",                                    // 4 opening brace
            "        final String a = \"{ \\\" {\";",   // 5 braces in a string, an escaped quote
            "        final char c = '}';",              // 6
            "        // }}} in a comment",              // 7
            "        /* { */ run(\"}\");",              // 8 a call is not a declaration
            "        final String t = \"\"\"",          // 9 a text block
            "            }}\"\"\";",                    // 10
            "        new Runnable()",                   // 11
            "        {",                                // 12
            "            public void run()",            // 13 a nested method of the same name
            "            {",                            // 14
            "            }",                            // 15
            "        };",                               // 16
            "    }",                                    // 17 closing brace: 4..17 is 14 lines
            "    abstract void run(int n);",            // 18 no body
            "}",
            "final class Other",
            "{",
            "    void run()",
            "    {",
            "    }",
            "}");
        assertEquals(List.of(14, 2), methodLengths(source, "Outer", "run"));
        assertEquals(List.of(2), methodLengths(source, "Other", "run"));
        assertEquals(List.of(), methodLengths(source, "Outer", "absent"));
    }

    /** @return the max of the main-source MethodLength module in checkstyle.xml. */
    private static int limit() throws Exception
    {
        final NodeList modules = parse(CHECKSTYLE).getElementsByTagName("module");
        for (int i = 0; i < modules.getLength(); i++)
        {
            final Element module = (Element)modules.item(i);
            if ("MethodLength".equals(module.getAttribute("name")) && RULE.equals(property(module, "id")))
            {
                return Integer.parseInt(property(module, "max"));
            }
        }
        return fail("no MethodLength module with id " + RULE + " in " + CHECKSTYLE);
    }

    private static String property(final Element module, final String name)
    {
        final NodeList properties = module.getElementsByTagName("property");
        for (int i = 0; i < properties.getLength(); i++)
        {
            final Element p = (Element)properties.item(i);
            if (name.equals(p.getAttribute("name")))
            {
                return p.getAttribute("value");
            }
        }
        return null;
    }

    /** @return every suppression of the main-source rule, by its id or by its check's name. */
    private static List<Exemption> exemptions() throws Exception
    {
        final Document doc = parse(SUPPRESSIONS);
        final List<Exemption> out = new ArrayList<>();
        for (final String tag : List.of("suppress", "suppress-xpath"))
        {
            final NodeList nodes = doc.getElementsByTagName(tag);
            for (int i = 0; i < nodes.getLength(); i++)
            {
                final Element s = (Element)nodes.item(i);
                if (RULE.equals(s.getAttribute("id")) || s.getAttribute("checks").contains("MethodLength"))
                {
                    out.add(new Exemption(s.getAttribute("files"), s.hasAttribute("query") ?
                        s.getAttribute("query") : null));
                }
            }
        }
        return out;
    }

    private static Document parse(final Path file) throws Exception
    {
        final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        // The DOCTYPEs name checkstyle.org's DTDs; the build is offline and needs none of them.
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return factory.newDocumentBuilder().parse(file.toFile());
    }

    private static List<Path> mainSources() throws IOException
    {
        try (Stream<Path> files = Files.walk(ROOT))
        {
            return files
                .filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
                .filter(p -> Stream.of(ROOT.relativize(p).toString().split("/"))
                    .noneMatch(SKIPPED_DIRECTORIES::contains))
                .sorted()
                .toList();
        }
    }

    /**
     * @return the length in lines of each method named {@code method} with a body inside the type named
     *         {@code type} (nested types' included), in source order.
     */
    static List<Integer> methodLengths(final String source, final String type, final String method)
    {
        final String code = blankTextAndComments(source);
        final List<Integer> out = new ArrayList<>();
        final Matcher t = Pattern.compile("\\b(?:class|record|enum|interface)\\s+" + type + "\\b").matcher(code);
        while (t.find())
        {
            final int open = code.indexOf('{', t.end());
            final int close = closing(code, open, '{', '}');
            final Matcher m = Pattern.compile("(?<!\\bnew\\s{0,20})\\b" + method + "\\s*\\(")
                .matcher(code).region(open, close);
            while (m.find())
            {
                final int afterParams = closing(code, m.end() - 1, '(', ')') + 1;
                final Matcher body = Pattern.compile("\\G\\s*(?:throws\\s+[\\w.,\\s]+?)?\\s*\\{")
                    .matcher(code).region(afterParams, close);
                if (body.find())
                {
                    final int brace = body.end() - 1;
                    out.add(line(code, closing(code, brace, '{', '}')) - line(code, brace) + 1);
                }
            }
        }
        return out;
    }

    /** @return the index of the bracket that closes the one at {@code open}. */
    private static int closing(final String code, final int open, final char opening, final char closing)
    {
        int depth = 0;
        for (int i = open; i < code.length(); i++)
        {
            final char c = code.charAt(i);
            if (c == opening)
            {
                depth++;
            }
            else if (c == closing && --depth == 0)
            {
                return i;
            }
        }
        throw new IllegalStateException("unbalanced " + opening + " at " + open);
    }

    private static int line(final String code, final int index)
    {
        int line = 1;
        for (int i = 0; i < index; i++)
        {
            if (code.charAt(i) == '\n')
            {
                line++;
            }
        }
        return line;
    }

    /** The source with string, char and text-block contents and comments blanked; line breaks kept. */
    private static String blankTextAndComments(final String source)
    {
        final StringBuilder sb = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length())
        {
            final String end;
            if (source.startsWith("//", i))
            {
                end = "\n";
            }
            else if (source.startsWith("/*", i))
            {
                end = "*/";
            }
            else if (source.startsWith("\"\"\"", i))
            {
                end = "\"\"\"";
            }
            else if (source.charAt(i) == '"' || source.charAt(i) == '\'')
            {
                end = String.valueOf(source.charAt(i));
            }
            else
            {
                sb.append(source.charAt(i++));
                continue;
            }
            int j = i + (end.equals("\n") || end.equals("*/") ? 2 : end.length());
            while (j < source.length() && !source.startsWith(end, j))
            {
                j += source.charAt(j) == '\\' && !end.equals("\n") && !end.equals("*/") ? 2 : 1;
            }
            j = Math.min(source.length(), end.equals("\n") ? j : j + end.length());
            for (int k = i; k < j; k++)
            {
                sb.append(source.charAt(k) == '\n' ? '\n' : ' ');
            }
            i = j;
        }
        return sb.toString();
    }
}
