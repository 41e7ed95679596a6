package io.tokenclock.telemetry;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * One scrape in common terms ({@link EngineNames#map}): the engine, each scalar field it exported and the name it
 * came from, and its latency histograms. A field the engine does not export is absent (NaN from {@link #value}).
 * Immutable and thread-safe.
 *
 * @param engine           vllm, sglang, llama.cpp, tgi or unknown.
 * @param values           each exported field's value, label sets combined.
 * @param sources          the sample name each value came from.
 * @param latencies        each exported latency histogram, label sets summed, in seconds.
 * @param latencySources   the family name each histogram came from.
 */
public record CommonFields(String engine, Map<EngineNames.Field, Double> values,
    Map<EngineNames.Field, String> sources, Map<EngineNames.Latency, BucketHistogram> latencies,
    Map<EngineNames.Latency, String> latencySources)
{
    public CommonFields
    {
        values = Collections.unmodifiableMap(copy(values, EngineNames.Field.class));
        sources = Collections.unmodifiableMap(copy(sources, EngineNames.Field.class));
        latencies = Collections.unmodifiableMap(copy(latencies, EngineNames.Latency.class));
        latencySources = Collections.unmodifiableMap(copy(latencySources, EngineNames.Latency.class));
    }

    /** @return the field's value, or NaN when the scrape does not export it. */
    public double value(final EngineNames.Field field)
    {
        final Double v = values.get(field);
        return v == null ? Double.NaN : v;
    }

    private static <K extends Enum<K>, V> EnumMap<K, V> copy(final Map<K, V> map, final Class<K> type)
    {
        final EnumMap<K, V> copy = new EnumMap<>(type);
        copy.putAll(map);
        return copy;
    }
}
