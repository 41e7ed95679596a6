package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/** A JSON section as rows of (dotted path, value): objects opened, arrays of values kept on one line. */
final class Flat
{
    private static final int MAX_ROWS = 400;

    private Flat()
    {
    }

    static List<List<String>> rows(final JsonNode n, final String prefix)
    {
        final List<List<String>> rows = new ArrayList<>();
        add(rows, n, prefix);
        return rows;
    }

    private static void add(final List<List<String>> rows, final JsonNode n, final String path)
    {
        if (rows.size() >= MAX_ROWS || n == null || n.isMissingNode())
        {
            return;
        }
        if (!n.isObject())
        {
            rows.add(List.of(path, Html.value(n)));
            return;
        }
        final Iterator<Map.Entry<String, JsonNode>> it = n.properties().iterator();
        while (it.hasNext())
        {
            final Map.Entry<String, JsonNode> e = it.next();
            add(rows, e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey());
        }
    }
}
