package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.List;

/**
 * The record block ({@code report.RecordBlock}, what {@code tokenclock record} prints) as a readable table: one
 * heading row per section (MODEL, RUNTIME ... GRADE), one row per line with its label and value, the value wrapped
 * rather than scrolled sideways, and what is missing for a comparison-grade record as a list. Read from the block's
 * text, so the report and the terminal say the same thing in the same words.
 */
final class RecordTable
{
    /** The block's labels are indented two spaces and padded to this width ({@code RecordBlock.line}). */
    private static final int LABEL_END = 23;

    private RecordTable()
    {
    }

    /** @return the table of {@code block}, every value escaped. */
    static String html(final String block)
    {
        final StringBuilder sb = new StringBuilder("<table class=\"record\"><tbody>\n");
        final List<String> missing = new ArrayList<>();
        String grade = null;
        for (final String line : block.split("\n"))
        {
            if (line.isBlank())
            {
                continue;
            }
            if (line.startsWith("GRADE: "))
            {
                grade = line.substring("GRADE: ".length());
            }
            else if (line.startsWith("  missing: "))
            {
                missing.add(line.substring("  missing: ".length()));
            }
            else if (!line.startsWith(" "))
            {
                sb.append("<tr class=\"section\"><th colspan=\"2\">").append(Html.text(line)).append("</th></tr>\n");
            }
            else
            {
                final String label = line.length() > LABEL_END ? line.substring(0, LABEL_END).strip() : line.strip();
                final String value = line.length() > LABEL_END ? line.substring(LABEL_END).strip() : "";
                sb.append("<tr><td>").append(Html.text(label)).append("</td><td class=\"wrap\">")
                    .append(Html.text(value)).append("</td></tr>\n");
            }
        }
        if (grade != null)
        {
            sb.append("<tr class=\"section\"><th colspan=\"2\">GRADE: ").append(Html.text(grade))
                .append("</th></tr>\n");
            for (final String m : missing)
            {
                sb.append("<tr><td>missing</td><td class=\"wrap\">").append(Html.text(m)).append("</td></tr>\n");
            }
        }
        return sb.append("</tbody></table>\n").toString();
    }

    /** @return the rows of one section of {@code block} (e.g. SERVER) as (label, value) pairs; empty when absent. */
    static List<List<String>> section(final String block, final String name)
    {
        final List<List<String>> rows = new ArrayList<>();
        boolean in = false;
        for (final String line : block.split("\n"))
        {
            if (!line.startsWith(" "))
            {
                in = line.equals(name);
                continue;
            }
            if (in && line.length() > LABEL_END)
            {
                rows.add(List.of(line.substring(0, LABEL_END).strip(), line.substring(LABEL_END).strip()));
            }
        }
        return rows;
    }
}
