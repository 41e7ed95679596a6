package io.tokenclock.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The client machine as read before the window: its inventory (CPU, memory, OS, JVM and its redacted arguments,
 * container limits), in the order it was read, with null for what could not be read, and the local GPUs as
 * {@code nvidia-smi} listed them. Captured once by the runner, so that writing the record runs nothing; the record
 * writes it as {@code hardware.client} and {@code hardware.client_gpus}. Immutable.
 *
 * @param machine the host's facts, JSON-ready; values may be null.
 * @param gpus    one map per local GPU; empty without {@code nvidia-smi} (the usual case on a client).
 */
public record ClientHost(Map<String, Object> machine, List<Map<String, String>> gpus)
{
    /** Nothing read: for results built without a machine (tests, tools that rebuild one). */
    public static final ClientHost NONE = new ClientHost(Map.of(), List.of());

    public ClientHost
    {
        // Map.copyOf refuses the null values that stand for "could not be read", and forgets the order.
        machine = Collections.unmodifiableMap(new LinkedHashMap<>(machine));
        final List<Map<String, String>> copies = new ArrayList<>(gpus.size());
        for (final Map<String, String> gpu : gpus)
        {
            copies.add(Collections.unmodifiableMap(new LinkedHashMap<>(gpu)));
        }
        gpus = Collections.unmodifiableList(copies);
    }
}
