package io.tokenclock.contract;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The schema of a token-length distribution in the contract file:
 * <pre>
 * {dist: fixed, value: 256}
 * {dist: uniform, min: 64, max: 512}
 * {dist: normal, mean: 512, stdev: 128, min: 16, max: 2048}          # truncated to [min, max]
 * {dist: lognormal, median: 512, sigma: 0.8, min: 16, max: 8192}    # truncated to [min, max]
 * {dist: mixture, components: [{weight: 0.8, dist: fixed, value: 128}, {weight: 0.2, dist: fixed, value: 2048}]}
 * {dist: empirical, file: lengths.txt}                               # one length per line
 * {dist: empirical, histogram: [[128, 70], [1024, 30]]}             # (length, count) pairs
 * </pre>
 * Mixture weights are probabilities and must sum to 1.
 */
final class DistributionSchema extends Schema
{
    static final List<String> KINDS = List.of("fixed", "uniform", "normal", "lognormal", "mixture", "empirical");

    private static final Schema LENGTH = integer(1, 10_000_000);
    private static final Schema POSITIVE = number(0, true, 1e12);

    @Override
    public void check(final String path, final JsonNode node, final List<String> errors)
    {
        if (!node.isObject())
        {
            errors.add(path + ": must be a distribution map like {dist: fixed, value: 256}, got " + describe(node));
            return;
        }
        final JsonNode kindNode = node.get("dist");
        if (kindNode == null || !kindNode.isTextual() || !KINDS.contains(kindNode.asText().toLowerCase(Locale.ROOT)))
        {
            errors.add(path + ".dist: must be one of " + String.join(", ", KINDS) +
                (kindNode == null ? " (missing)" : ", got " + describe(kindNode)));
            return;
        }
        final String kind = kindNode.asText().toLowerCase(Locale.ROOT);
        final ObjectSchema params = object().field("dist", anyValue()).field("weight", anyValue());
        switch (kind)
        {
            case "fixed" -> params.requiredField("value", LENGTH);
            case "uniform" -> params.requiredField("min", LENGTH).requiredField("max", LENGTH);
            case "normal" -> params.requiredField("mean", POSITIVE).requiredField("stdev", POSITIVE)
                .field("min", LENGTH).field("max", LENGTH);
            case "lognormal" -> params.requiredField("median", POSITIVE).requiredField("sigma", POSITIVE)
                .field("min", LENGTH).field("max", LENGTH);
            case "mixture" -> params.requiredField("components", listOf(this, 1));
            default -> params.field("file", string()).field("values", listOf(LENGTH, 1))
                .field("histogram", listOf(listOf(integer(0, 10_000_000), 2), 1));
        }
        params.check(path, node, errors);
        crossCheck(path, kind, node, errors);
    }

    private static void crossCheck(final String path, final String kind, final JsonNode node, final List<String> errors)
    {
        if (node.has("min") && node.has("max") && node.get("min").asLong() > node.get("max").asLong())
        {
            errors.add(path + ": min " + node.get("min") + " is above max " + node.get("max"));
        }
        if (kind.equals("mixture") && node.path("components").isArray())
        {
            double sum = 0;
            for (final JsonNode c : node.get("components"))
            {
                if (!c.path("weight").isNumber() || !(c.get("weight").asDouble() > 0))
                {
                    errors.add(path + ".components: every component needs a weight > 0");
                    return;
                }
                sum += c.get("weight").asDouble();
            }
            if (Math.abs(sum - 1.0) > 1e-6)
            {
                errors.add(path + ".components: weights are probabilities and must sum to 1, got " + sum);
            }
        }
        if (kind.equals("empirical"))
        {
            final int sources = (node.has("file") ? 1 : 0) + (node.has("values") ? 1 : 0) +
                (node.has("histogram") ? 1 : 0);
            if (sources != 1)
            {
                errors.add(path + ": empirical needs exactly one of file, values, histogram");
            }
        }
    }

    /** @return the largest length this distribution can produce, or -1 if unknown without reading files. */
    static long maxLength(final JsonNode node)
    {
        final String kind = node.path("dist").asText("").toLowerCase(Locale.ROOT);
        return switch (kind)
        {
            case "fixed" -> node.path("value").asLong(-1);
            case "uniform", "normal", "lognormal" -> node.has("max") ? node.get("max").asLong() : -1;
            case "mixture" ->
            {
                long max = 0;
                for (final JsonNode c : node.path("components"))
                {
                    final long m = maxLength(c);
                    if (m < 0)
                    {
                        yield -1;
                    }
                    max = Math.max(max, m);
                }
                yield max;
            }
            case "empirical" ->
            {
                long max = -1;
                for (final JsonNode v : node.path("values"))
                {
                    max = Math.max(max, v.asLong());
                }
                for (final JsonNode pair : node.path("histogram"))
                {
                    max = Math.max(max, pair.path(0).asLong());
                }
                yield max;
            }
            default -> -1;
        };
    }

    @Override
    public String expected()
    {
        return "a distribution";
    }
}
