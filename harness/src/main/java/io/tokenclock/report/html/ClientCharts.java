package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The client's CPU by thread group as horizontal bars (inline SVG: categories, not an x-y series), with the same
 * figures in a table: where the client's CPU went, per chunk, so that the stamping threads' share is seen at once.
 */
final class ClientCharts
{
    private static final int WIDTH = 900;
    private static final int LABEL = 110;
    private static final int ROW = 20;

    private ClientCharts()
    {
    }

    /** Appends the chart and table of {@code measurement.client_cpu_by_thread}, when the record has it. */
    static void cpuByThread(final Page page, final JsonNode cpu)
    {
        final JsonNode groups = cpu.path("groups");
        if (!groups.isObject() || groups.isEmpty())
        {
            return;
        }
        final List<String> names = new ArrayList<>();
        final List<Double> perChunk = new ArrayList<>();
        final List<List<String>> rows = new ArrayList<>();
        final Iterator<Map.Entry<String, JsonNode>> it = groups.properties().iterator();
        while (it.hasNext())
        {
            final Map.Entry<String, JsonNode> e = it.next();
            final JsonNode g = e.getValue();
            names.add(e.getKey());
            perChunk.add(g.path("us_per_chunk").asDouble(0));
            rows.add(List.of(e.getKey(), Html.num(g.path("cpu_ms")), Html.num(100 * g.path("share").asDouble(0)) +
                "%", Html.num(g.path("us_per_chunk")), Html.value(g.path("threads"))));
        }
        page.svg(bars(names, perChunk), "The client's CPU per chunk by thread group, us (from the start of load to " +
            "the end of the drain; an embedded simulator counts as the simulator group)");
        page.raw(Html.table(List.of("thread group", "CPU ms", "share", "us per chunk", "threads"), rows));
    }

    /** @return horizontal bars of {@code values}, labelled, scaled to the largest. */
    static String bars(final List<String> names, final List<Double> values)
    {
        final double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(1);
        final int plot = WIDTH - LABEL - 80;
        final int height = ROW * names.size() + 8;
        final StringBuilder sb = new StringBuilder("<svg class=\"bars\" role=\"img\" width=\"" + WIDTH +
            "\" height=\"" + height + "\" viewBox=\"0 0 " + WIDTH + " " + height + "\">");
        for (int i = 0; i < names.size(); i++)
        {
            final double v = values.get(i);
            final double w = max > 0 ? plot * v / max : 0;
            final int y = 4 + ROW * i;
            sb.append("<text x=\"").append(LABEL - 6).append("\" y=\"").append(y + 13)
                .append("\" text-anchor=\"end\" fill=\"#222\">").append(Html.text(names.get(i))).append("</text>")
                .append("<rect x=\"").append(LABEL).append("\" y=\"").append(y + 2).append("\" width=\"")
                .append(Forest.f(Math.max(w, 0.5))).append("\" height=\"").append(ROW - 6)
                .append("\" fill=\"#3b6fb6\"/>").append("<text x=\"").append(Forest.f(LABEL + w + 6))
                .append("\" y=\"").append(y + 13).append("\" fill=\"#333\">").append(Html.text(String.format(
                java.util.Locale.ROOT, "%.1f", v))).append("</text>");
        }
        return sb.append("</svg>").toString();
    }
}
