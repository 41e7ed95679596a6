package io.tokenclock.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tokenclock.metrics.Counter;

/** A run's counts, keyed by {@link Counter}. */
final class CountsTest
{
    @Test
    void shouldCountACounterNotGivenAsZero()
    {
        final RunResult.Counts c = new RunResult.Counts(Map.of(Counter.OK, 5L, Counter.CANCELLED, 2L), Map.of());
        assertEquals(5, c.ok());
        assertEquals(0, c.errors());
        assertEquals(0, c.get(Counter.RETRIES_429));
        assertEquals(7, c.total(), "ok, failed and cancelled");
        assertEquals(Counter.values().length, c.values().size(), "every counter has a value");
    }

    @Test
    void shouldKeepItsValuesWhenTheCallersMapChangesAfterwards()
    {
        final Map<Counter, Long> given = new HashMap<>(Map.of(Counter.CHUNKS, 10L));
        final RunResult.Counts c = new RunResult.Counts(given, Map.of("timeout", 1L));
        given.put(Counter.CHUNKS, 99L);
        assertEquals(10, c.get(Counter.CHUNKS));
        assertThrows(UnsupportedOperationException.class, () -> c.values().put(Counter.OK, 1L));
        assertThrows(UnsupportedOperationException.class, () -> c.errorsByClass().put("timeout", 2L));
    }
}
