package io.tokenclock.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * The safepoint counters move when the JVM stops its threads: a full GC is a safepoint operation, so after
 * {@code System.gc()} the count has risen and the stopped time has grown.
 */
final class SafepointCountersTest
{
    @Test
    void shouldCountTheSafepointOfAFullCollection()
    {
        assumeTrue(Files.isDirectory(Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"))),
            "the JVM keeps its performance data in /tmp (HotSpot on Linux, UsePerfData on)");
        final SafepointCounters counters = SafepointCounters.open();
        assertNotNull(counters, "found sun.rt.safepoints, safepointTime, safepointSyncTime and the tick frequency");
        final SafepointCounters.Reading before = counters.now();
        System.gc();
        final SafepointCounters.Reading spent = counters.now().since(before);
        assertTrue(spent.safepoints() >= 1, "a full GC stops the world: " + spent);
        assertTrue(spent.totalNs() > 0 && spent.totalNs() < 60_000_000_000L, spent.toString());
    }

    @Test
    void shouldSubtractAnEarlierReadingFieldByField()
    {
        assertEquals(new SafepointCounters.Reading(3, 4_000, 250),
            new SafepointCounters.Reading(10, 9_000, 400).since(new SafepointCounters.Reading(7, 5_000, 150)));
    }
}
