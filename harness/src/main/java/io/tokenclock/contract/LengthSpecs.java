package io.tokenclock.contract;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.workload.dist.Empirical;
import io.tokenclock.workload.dist.Fixed;
import io.tokenclock.workload.dist.LengthDistribution;
import io.tokenclock.workload.dist.LogNormal;
import io.tokenclock.workload.dist.Mixture;
import io.tokenclock.workload.dist.TruncatedNormal;
import io.tokenclock.workload.dist.Uniform;

/**
 * Builds a {@link LengthDistribution} from its contract syntax ({@link DistributionSchema} documents it). Call only
 * on nodes the schema accepted. Truncation bounds default to [1, 1,000,000] tokens when not given.
 */
public final class LengthSpecs
{
    private static final int DEFAULT_MAX = 1_000_000;

    private LengthSpecs()
    {
    }

    /**
     * @param baseDir where relative {@code file} paths are resolved (the contract file's directory).
     */
    public static LengthDistribution parse(final JsonNode node, final Path baseDir)
    {
        final String kind = node.path("dist").asText().toLowerCase(Locale.ROOT);
        final int min = node.path("min").asInt(1);
        final int max = node.path("max").asInt(DEFAULT_MAX);
        return switch (kind)
        {
            case "fixed" -> new Fixed(node.get("value").asInt());
            case "uniform" -> new Uniform(node.get("min").asInt(), node.get("max").asInt());
            case "normal" -> new TruncatedNormal(node.get("mean").asDouble(), node.get("stdev").asDouble(), min, max);
            case "lognormal" -> new LogNormal(node.get("median").asDouble(), node.get("sigma").asDouble(), min, max);
            case "mixture" ->
            {
                final List<Double> weights = new ArrayList<>();
                final List<LengthDistribution> components = new ArrayList<>();
                for (final JsonNode c : node.get("components"))
                {
                    weights.add(c.get("weight").asDouble());
                    components.add(parse(c, baseDir));
                }
                yield new Mixture(weights, components);
            }
            case "empirical" -> empirical(node, baseDir);
            default -> throw new IllegalArgumentException("unknown distribution: " + kind);
        };
    }

    private static LengthDistribution empirical(final JsonNode node, final Path baseDir)
    {
        if (node.has("file"))
        {
            final Path file = baseDir == null ? Path.of(node.get("file").asText()) :
                baseDir.resolve(node.get("file").asText());
            return Empirical.fromFile(file);
        }
        if (node.has("values"))
        {
            final int[] values = new int[node.get("values").size()];
            for (int i = 0; i < values.length; i++)
            {
                values[i] = node.get("values").get(i).asInt();
            }
            return Empirical.ofValues(values);
        }
        final JsonNode histogram = node.get("histogram");
        final int[] lengths = new int[histogram.size()];
        final long[] counts = new long[histogram.size()];
        for (int i = 0; i < lengths.length; i++)
        {
            lengths[i] = histogram.get(i).get(0).asInt();
            counts[i] = histogram.get(i).get(1).asLong();
        }
        return Empirical.ofHistogram(lengths, counts);
    }
}
