package io.tokenclock.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client-health monitors observe what they claim to: wake-up lateness on a 1 ms grid, and GC notifications. */
@Timeout(30)
final class ClientHealthMonitorsTest
{
    private static final long MS = 1_000_000L;

    @Test
    void shouldRecordEachWakeUpsLatenessAgainstItsGridPoint()
    {
        try (HiccupMonitor monitor = new HiccupMonitor(MS))
        {
            long next = 10 * MS;
            next = monitor.onWake(10 * MS, next);
            assertEquals(11 * MS, next, "on time: the next grid point");
            next = monitor.onWake(11 * MS + 300_000, next);
            assertEquals(12 * MS, next, "a little late: still the next grid point");
            next = monitor.onWake(12 * MS - 100_000, next);
            assertEquals(12 * MS, next, "woke early: nothing due yet, nothing recorded");
            next = monitor.onWake(19 * MS + 500_000, next);
            assertEquals(20 * MS + 500_000, next, "the grid points a stall swallowed are skipped, not replayed");

            final Histogram h = monitor.snapshot();
            assertEquals(3, h.getTotalCount());
            assertEquals(1, h.getCountAtValue(0));
            assertEquals(1, h.getCountAtValue(300_000));
            assertTrue(h.valuesAreEquivalent(7 * MS + 500_000, h.getMaxValue()), "the stall, once, at full length");
        }
    }

    @Test
    void shouldNeverRecordMoreSamplesThanGridPointsNorMoreLatenessThanTimeElapsed()
    {
        // Wake-ups as a scheduler gives them: mostly on time, some early, some late by up to 30 intervals.
        final Random random = new Random(42);
        try (HiccupMonitor monitor = new HiccupMonitor(MS))
        {
            final long firstDueNs = 5 * MS;
            long next = firstDueNs;
            long now = firstDueNs - MS / 2;
            for (int i = 0; i < 2_000; i++)
            {
                final long step = random.nextInt(10) == 0 ? random.nextLong(30 * MS) : random.nextLong(MS + MS / 2);
                now += step;
                final long due = next;
                next = monitor.onWake(now, next);
                assertTrue(now < due ? next == due : next >= due + MS, "the grid moves on only once a point is due");
            }
            final Histogram h = monitor.snapshot();
            assertTrue(h.getTotalCount() > 0, "late wake-ups were recorded");
            assertTrue(h.getTotalCount() <= (now - firstDueNs) / MS + 1,
                "never more samples than grid points: " + h.getTotalCount());
            assertTrue(h.getMaxValue() <= now - firstDueNs, "lateness cannot exceed the time elapsed");
        }
    }

    @Test
    void shouldSampleOnItsOwnThreadOnceStarted() throws InterruptedException
    {
        try (HiccupMonitor monitor = new HiccupMonitor(MS).start())
        {
            // Bounded wait for the first sample: what is asserted is that the thread samples, not how fast.
            long count = 0;
            for (int i = 0; i < 500 && count == 0; i++)
            {
                Thread.sleep(10);
                count = monitor.snapshot().getTotalCount();
            }
            assertTrue(count > 0, "the monitor thread records its wake-ups");
        }
    }

    @Test
    void shouldCountSumAndTakeTheLongestOfTheCollectionsItIsTold()
    {
        try (GcPauseMonitor gc = new GcPauseMonitor(List.of()))
        {
            gc.onCollection(3);
            gc.onCollection(7);
            gc.onCollection(2);

            assertEquals(3, gc.count());
            assertEquals(12, gc.totalMs());
            assertEquals(7, gc.maxMs());
        }
    }

    @Test
    void shouldKeepConcurrentCyclesOutOfThePauses()
    {
        try (GcPauseMonitor gc = new GcPauseMonitor(List.of()))
        {
            gc.onCollection(2_056, GcPauseMonitor.concurrent("ZGC Major Cycles"));
            gc.onCollection(1, GcPauseMonitor.concurrent("ZGC Major Pauses"));
            gc.onCollection(340, GcPauseMonitor.concurrent("G1 Concurrent GC"));
            gc.onCollection(9, GcPauseMonitor.concurrent("PS Scavenge"));

            assertEquals(2, gc.count(), "ZGC's pause and ParallelGC's young collection");
            assertEquals(10, gc.totalMs());
            assertEquals(9, gc.maxMs(), "not the 2 s cycle, which stopped nothing");
            assertEquals(2, gc.concurrentCycles());
            assertEquals(2_396, gc.concurrentMs());
        }
    }

    @Test
    void shouldTellEveryHotSpotCollectorsBeansApart()
    {
        for (final String pause : List.of("PS Scavenge", "PS MarkSweep", "G1 Young Generation", "G1 Old Generation",
            "Copy", "MarkSweepCompact", "ZGC Minor Pauses", "ZGC Major Pauses", "Shenandoah Pauses"))
        {
            assertFalse(GcPauseMonitor.concurrent(pause), pause);
        }
        for (final String cycle : List.of("ZGC Minor Cycles", "ZGC Major Cycles", "Shenandoah Cycles",
            "G1 Concurrent GC"))
        {
            assertTrue(GcPauseMonitor.concurrent(cycle), cycle);
        }
    }

    @Test
    void shouldSeeAnExplicitCollection() throws InterruptedException
    {
        try (GcPauseMonitor gc = new GcPauseMonitor())
        {
            System.gc();
            final long deadline = System.nanoTime() + 5_000_000_000L;
            while (gc.count() == 0 && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            assertTrue(gc.count() >= 1, "System.gc() is notified");
            assertTrue(gc.totalMs() >= gc.maxMs());
            assertFalse(gc.collectors().isEmpty());
        }
    }
}
