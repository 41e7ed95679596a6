package io.tokenclock.results.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.metrics.Counter;

/** The record's counter sections: each {@link Counter} under its key, in the enum's order, read back by entry. */
final class CounterJsonTest
{
    private static Map<Counter, Long> numbered()
    {
        final Map<Counter, Long> v = new EnumMap<>(Counter.class);
        for (final Counter c : Counter.values())
        {
            v.put(c, 100L + c.ordinal());
        }
        return v;
    }

    private static List<String> keys(final JsonNode n)
    {
        final List<String> keys = new ArrayList<>();
        n.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void shouldWriteEachCountsCounterUnderItsKeyInTheEnumsOrderBetweenMeasuredAndThe429Rate() throws IOException
    {
        final JsonNode n = RecordJson.tree(new ReportSection.Counts(7, numbered(), 0.5));
        final List<String> expected = new ArrayList<>(List.of("measured"));
        for (final Counter c : Counter.values())
        {
            if (c.section() == Counter.Section.COUNTS)
            {
                expected.add(c.key());
                assertEquals(100L + c.ordinal(), n.path(c.key()).asLong(), c.key());
            }
        }
        expected.add("http_429_per_s");
        assertEquals(expected, keys(n));
        assertEquals(new ReportSection.Counts(7, numbered(), 0.5),
            RecordJson.JSON.treeToValue(n, ReportSection.Counts.class), "read back into the same values");
    }

    @Test
    void shouldWriteTheHarnessCountersAloneInTheHarnessSection() throws IOException
    {
        final JsonNode n = RecordJson.tree(new ReportSection.Harness(numbered()));
        assertEquals(List.of(Counter.RING_FULL_WAITS.key(), Counter.CLAMPED_VALUES.key()), keys(n));
        assertEquals(100L + Counter.CLAMPED_VALUES.ordinal(),
            RecordJson.JSON.treeToValue(n, ReportSection.Harness.class).get(Counter.CLAMPED_VALUES));
    }

    @Test
    void shouldReadACounterThatAnOlderRecordLacksAsZero() throws IOException
    {
        final ReportSection.Counts c = RecordJson.JSON.readValue("{\"measured\": 3, \"ok\": 2, \"error\": 1}",
            ReportSection.Counts.class);
        assertEquals(3, c.measured());
        assertEquals(2, c.get(Counter.OK));
        assertEquals(1, c.get(Counter.ERRORS));
        assertEquals(0, c.get(Counter.RETRIES_429));
        assertEquals(0.0, c.http429PerS());
    }

    @Test
    void shouldGiveEveryCounterItsOwnKey()
    {
        final HashSet<String> keys = new HashSet<>();
        for (final Counter c : Counter.values())
        {
            assertTrue(keys.add(c.key()), "the key " + c.key() + " is declared once");
        }
    }
}
