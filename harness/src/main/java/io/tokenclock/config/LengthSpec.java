package io.tokenclock.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.tokenclock.workload.dist.Fixed;
import io.tokenclock.workload.dist.LengthDistribution;

/**
 * A declared length distribution (tokens, turns or milliseconds): the distribution the run samples, and the
 * declaration as the contract or a flag wrote it, which the record echoes so that a reader sees the user's own words
 * rather than a re-rendering. The contract's {@code {dist: fixed, value: 3}} and {@code --turns 3} give equal specs.
 * Immutable and thread-safe: the declaration is copied into unmodifiable maps and lists.
 *
 * @param distribution the distribution sampled; immutable.
 * @param declared     the declaration, e.g. {@code {dist=lognormal, median=512, sigma=0.6}}: maps, lists, strings,
 *                     numbers and booleans only.
 */
public record LengthSpec(LengthDistribution distribution, Map<String, Object> declared)
{
    public LengthSpec
    {
        Objects.requireNonNull(distribution, "distribution");
        declared = frozenMap(Objects.requireNonNull(declared, "declared"));
    }

    /** @return the spec of a fixed value, declared as {@code {dist: fixed, value: N}}. */
    public static LengthSpec fixed(final int value)
    {
        final Map<String, Object> declared = new LinkedHashMap<>();
        declared.put("dist", "fixed");
        declared.put("value", value);
        return new LengthSpec(new Fixed(value), declared);
    }

    private static Map<String, Object> frozenMap(final Map<?, ?> map)
    {
        final Map<String, Object> copy = new LinkedHashMap<>();
        for (final Map.Entry<?, ?> e : map.entrySet())
        {
            copy.put(String.valueOf(e.getKey()), frozen(e.getValue()));
        }
        return Collections.unmodifiableMap(copy);
    }

    private static Object frozen(final Object value)
    {
        if (value instanceof Map<?, ?> map)
        {
            return frozenMap(map);
        }
        if (value instanceof List<?> list)
        {
            final List<Object> copy = new ArrayList<>(list.size());
            for (final Object item : list)
            {
                copy.add(frozen(item));
            }
            return Collections.unmodifiableList(copy);
        }
        return value;
    }
}
