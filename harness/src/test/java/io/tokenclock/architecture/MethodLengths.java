package io.tokenclock.architecture;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measures the methods of one Java source file: for each method or constructor body, the lines from its name to its
 * closing brace. Comments, strings, character literals and text blocks are skipped, so braces inside them do not
 * count. Bodies of anonymous and local classes and of lambdas count towards the method that holds them.
 */
final class MethodLengths
{
    private static final Pattern TYPE = Pattern.compile("\\b(class|interface|enum|record)\\s+\\w+");
    private static final Pattern ANNOTATION = Pattern.compile("@\\w+(\\([^)]*\\))?");
    private static final Pattern NAME = Pattern.compile("(\\w+)\\s*\\($");

    private MethodLengths()
    {
    }

    /** @return method name (with its line, {@code name:line}) to its length in lines, in source order. */
    static Map<String, Integer> of(final String source)
    {
        final Map<String, Integer> lengths = new LinkedHashMap<>();
        final Deque<Block> blocks = new ArrayDeque<>();
        final StringBuilder header = new StringBuilder();
        int headerLine = 1;
        int line = 1;
        int i = 0;
        while (i < source.length())
        {
            final char c = source.charAt(i);
            final int skipped = skip(source, i);
            if (skipped > i)
            {
                line += count(source, i, skipped);
                i = skipped;
                continue;
            }
            if (c == '\n')
            {
                line++;
            }
            if (c == '{')
            {
                blocks.push(open(header.toString(), headerLine, blocks.peek()));
                header.setLength(0);
            }
            else if (c == '}')
            {
                final Block closed = blocks.pop();
                if (closed.kind == Kind.METHOD)
                {
                    lengths.put(closed.name + ":" + closed.line, line - closed.line + 1);
                }
                header.setLength(0);
            }
            else if (c == ';')
            {
                header.setLength(0);
            }
            else
            {
                if (!Character.isWhitespace(c) && header.toString().isBlank())
                {
                    headerLine = line;
                }
                header.append(c);
            }
            i++;
        }
        return lengths;
    }

    private enum Kind
    {
        TYPE, METHOD, BLOCK
    }

    private record Block(Kind kind, String name, int line)
    {
    }

    private static Block open(final String header, final int headerLine, final Block outer)
    {
        if (outer == null)
        {
            return new Block(Kind.TYPE, "", headerLine);
        }
        if (outer.kind != Kind.TYPE)
        {
            return new Block(Kind.BLOCK, "", headerLine);
        }
        final String h = ANNOTATION.matcher(header).replaceAll(" ").strip();
        if (TYPE.matcher(h).find())
        {
            return new Block(Kind.TYPE, "", headerLine);
        }
        final int paren = h.indexOf('(');
        final int assign = h.indexOf('=');
        if (assign >= 0 && (paren < 0 || assign < paren))
        {
            return new Block(Kind.BLOCK, "", headerLine); // a field's initializer
        }
        final Matcher m = NAME.matcher(paren < 0 ? "" : h.substring(0, paren + 1));
        return new Block(Kind.METHOD, paren < 0 ? "<initializer>" : m.find() ? m.group(1) : "?", headerLine);
    }

    /** @return the index after a comment or literal starting at {@code i}, or {@code i} when none starts there. */
    private static int skip(final String s, final int i)
    {
        if (s.startsWith("//", i))
        {
            final int end = s.indexOf('\n', i);
            return end < 0 ? s.length() : end;
        }
        if (s.startsWith("/*", i))
        {
            return s.indexOf("*/", i + 2) + 2;
        }
        if (s.startsWith("\"\"\"", i))
        {
            return s.indexOf("\"\"\"", i + 3) + 3;
        }
        if (s.charAt(i) == '"' || s.charAt(i) == '\'')
        {
            final char quote = s.charAt(i);
            int j = i + 1;
            while (s.charAt(j) != quote)
            {
                j += s.charAt(j) == '\\' ? 2 : 1;
            }
            return j + 1;
        }
        return i;
    }

    private static int count(final String s, final int from, final int to)
    {
        int n = 0;
        for (int k = from; k < to; k++)
        {
            if (s.charAt(k) == '\n')
            {
                n++;
            }
        }
        return n;
    }
}
