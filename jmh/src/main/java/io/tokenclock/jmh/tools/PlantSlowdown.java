package io.tokenclock.jmh.tools;

import java.io.IOException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Writes a copy of a JMH JSON result file in which one benchmark is made {@code FACTOR} times slower: its score,
 * error, confidence interval, percentiles and raw iteration data are all multiplied. Used to build the planted
 * regression that {@code scripts/jmh-compare --self-test} must catch ({@code results/jmh/compare-selftest/}).
 * <p>
 * Usage: {@code PlantSlowdown IN.json OUT.json BENCHMARK [FACTOR]} (FACTOR defaults to 2; BENCHMARK is the full
 * name or its suffix, e.g. {@code PerChunkBenchmark.perChunk}). Exit 0, or 2 if the benchmark is not in the file.
 */
public final class PlantSlowdown
{
    private PlantSlowdown()
    {
    }

    /** {@code PlantSlowdown IN.json OUT.json BENCHMARK [FACTOR]}: see the class javadoc. */
    public static void main(final String[] args) throws IOException
    {
        if (args.length < 3 || args.length > 4)
        {
            System.err.println("usage: PlantSlowdown IN.json OUT.json BENCHMARK [FACTOR]");
            System.exit(2);
        }
        final double factor = args.length == 4 ? Double.parseDouble(args[3]) : 2.0;
        final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        final JsonNode root = mapper.readTree(Path.of(args[0]).toFile());
        int planted = 0;
        for (final JsonNode b : root)
        {
            final String name = b.path("benchmark").asText();
            if (name.equals(args[2]) || name.endsWith("." + args[2]))
            {
                scale((ObjectNode)b.get("primaryMetric"), factor);
                planted++;
            }
        }
        if (planted == 0)
        {
            System.err.println("PlantSlowdown: no benchmark named " + args[2] + " in " + args[0]);
            System.exit(2);
        }
        mapper.writeValue(Path.of(args[1]).toFile(), root);
        System.out.println("planted a " + factor + "x slowdown in " + planted + " entr" + (planted == 1 ? "y" : "ies") +
            " of " + args[2] + ": " + args[1]);
    }

    private static void scale(final ObjectNode metric, final double factor)
    {
        for (final String field : new String[] {"score", "scoreError"})
        {
            final JsonNode v = metric.get(field);
            if (v != null && v.isNumber())
            {
                metric.put(field, v.doubleValue() * factor);
            }
        }
        scaleAll(metric.get("scoreConfidence"), factor);
        final JsonNode percentiles = metric.get("scorePercentiles");
        if (percentiles instanceof ObjectNode p)
        {
            p.properties().forEach(e ->
            {
                if (e.getValue().isNumber())
                {
                    e.setValue(DoubleNode.valueOf(e.getValue().doubleValue() * factor));
                }
            });
        }
        final JsonNode raw = metric.get("rawData");
        if (raw instanceof ArrayNode forks)
        {
            for (final JsonNode fork : forks)
            {
                scaleAll(fork, factor);
            }
        }
    }

    private static void scaleAll(final JsonNode array, final double factor)
    {
        if (array instanceof ArrayNode a)
        {
            for (int i = 0; i < a.size(); i++)
            {
                if (a.get(i).isNumber())
                {
                    a.set(i, DoubleNode.valueOf(a.get(i).doubleValue() * factor));
                }
            }
        }
    }
}
