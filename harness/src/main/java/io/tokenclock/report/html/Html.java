package io.tokenclock.report.html;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

/** HTML escaping and the plain tables of the report; every value that reaches the page passes through here. */
final class Html
{
    private Html()
    {
    }

    /** @return {@code s} escaped for element text. */
    static String text(final String s)
    {
        final StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            switch (c)
            {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** @return {@code s} escaped for a double-quoted attribute (a single quote may stay: CSP sources use them). */
    static String attr(final String s)
    {
        return text(s).replace("&#39;", "'");
    }

    /** @return a table with a header row; cells are text, escaped here. */
    static String table(final List<String> head, final List<List<String>> rows)
    {
        final StringBuilder sb = new StringBuilder("<table><thead><tr>");
        head.forEach(h -> sb.append("<th>").append(text(h)).append("</th>"));
        sb.append("</tr></thead><tbody>\n");
        for (final List<String> row : rows)
        {
            sb.append("<tr>");
            row.forEach(c -> sb.append("<td>").append(text(c)).append("</td>"));
            sb.append("</tr>\n");
        }
        return sb.append("</tbody></table>\n").toString();
    }

    /** @return a table of (label, value[, note]) rows, left-aligned: words, not columns of figures. */
    static String kv(final List<String> head, final List<List<String>> rows)
    {
        return table(head, rows).replaceFirst("<table>", "<table class=\"kv\">");
    }

    /**
     * @return a headline figure to about 4 significant digits, as a card shows it: 1072.806 is "1073", 58.622 is
     * "58.6", 11.175 is "11.18", 0.4312 is "0.431"; "-" for a missing one.
     */
    static String headline(final double v)
    {
        if (!Double.isFinite(v))
        {
            return "-";
        }
        final double a = Math.abs(v);
        final String pattern = a >= 1000 || v == Math.rint(v) ? "%.0f" : a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, pattern, v);
    }

    static String headline(final JsonNode n)
    {
        return n.isNumber() ? headline(n.asDouble()) : "-";
    }

    /** @return a number with 3 decimals, or "-" for a missing or non-finite one. */
    static String num(final JsonNode n)
    {
        return n.isNumber() ? num(n.asDouble()) : n.isTextual() ? n.asText() : "-";
    }

    static String num(final double v)
    {
        if (!Double.isFinite(v))
        {
            return "-";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long)v) :
            String.format(Locale.ROOT, "%.3f", v);
    }

    /** @return an interval [low, high] from a two-element array, "-" for a missing side. */
    static String interval(final JsonNode pair)
    {
        if (!pair.isArray() || pair.size() != 2)
        {
            return "-";
        }
        return "[" + num(pair.get(0)) + ", " + (pair.get(1).isNull() ? "none" : num(pair.get(1))) + "]";
    }

    /** @return a JSON value as one line of text: objects and arrays compact, null as "-". */
    static String value(final JsonNode n)
    {
        if (n == null || n.isNull() || n.isMissingNode())
        {
            return "-";
        }
        return n.isNumber() ? num(n) : n.isValueNode() ? n.asText() : n.toString();
    }
}
