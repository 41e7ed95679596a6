package io.tokenclock.report.html;

import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One chart as the page's script draws it with uPlot: a shared x array, series of y values aligned with it (null
 * where a series has no value), optional log axes, and vertical marks (window edges, knees). The page draws every
 * chart the same way, so every chart is data only.
 */
final class Chart
{
    private final ObjectNode node = JsonNodeFactory.instance.objectNode();
    private final ArrayNode series;
    private final ArrayNode marks;
    private boolean anyValue;

    private Chart(final String id, final String title, final String xLabel, final String yLabel)
    {
        node.put("id", id).put("title", title).put("xlabel", xLabel).put("ylabel", yLabel);
        node.putArray("x");
        series = node.putArray("series");
        marks = node.putArray("marks");
    }

    static Chart of(final String id, final String title, final String xLabel, final String yLabel)
    {
        return new Chart(id, title, xLabel, yLabel);
    }

    /** An x axis of 1/(1-p) on a log scale, labelled as percentiles (HdrHistogram's percentile plot). */
    Chart percentileAxis()
    {
        node.put("pct", true).put("xlog", true);
        return this;
    }

    Chart logY()
    {
        node.put("ylog", true);
        return this;
    }

    /** An x axis of whole numbers (repetitions, concurrencies): ticks only at integers. */
    Chart xInt()
    {
        node.put("xint", true);
        return this;
    }

    /**
     * Colour the series light to dark in order, on one hue ramp (viridis), for series that are one variable at
     * increasing values (a sweep's loads), so that the colour says where each lies.
     */
    Chart sequential()
    {
        node.put("sequential", true);
        return this;
    }

    /** Adds a series drawn as points only, no line (a scatter, e.g. every point of a Pareto plot). */
    Chart scatter(final String label, final List<Double> y)
    {
        series(label, y);
        ((ObjectNode)series.get(series.size() - 1)).put("points_only", true);
        return this;
    }

    /** Draw each point (few points, e.g. a sweep or repetitions) as well as the line. */
    Chart points()
    {
        node.put("points", true);
        return this;
    }

    Chart x(final double[] x)
    {
        final ArrayNode a = node.putArray("x");
        for (final double v : x)
        {
            a.add(v);
        }
        return this;
    }

    /** Adds a series; a null or non-finite value is a gap. */
    Chart series(final String label, final List<Double> y)
    {
        final ObjectNode s = series.addObject().put("label", label);
        final ArrayNode a = s.putArray("y");
        for (final Double v : y)
        {
            if (v == null || !Double.isFinite(v))
            {
                a.addNull();
            }
            else
            {
                a.add(Math.round(v * 1e4) / 1e4);
                anyValue = true;
            }
        }
        return this;
    }

    /** Adds a vertical mark at {@code x}, labelled; a null x is left out. */
    Chart mark(final Double x, final String label)
    {
        if (x != null && Double.isFinite(x))
        {
            marks.addObject().put("x", x).put("label", label);
        }
        return this;
    }

    boolean isEmpty()
    {
        return !anyValue || node.path("x").isEmpty();
    }

    String id()
    {
        return node.path("id").asText();
    }

    ObjectNode json()
    {
        return node;
    }
}
