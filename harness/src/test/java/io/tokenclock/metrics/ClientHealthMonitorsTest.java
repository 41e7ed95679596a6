package io.tokenclock.metrics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client-health monitors observe what they claim to: wake-up lateness on a 1 ms grid, and GC notifications. */
@Timeout(30)
final class ClientHealthMonitorsTest
{
    @Test
    void shouldSampleWakeUpLatenessOnItsGrid() throws InterruptedException
    {
        final Histogram h;
        try (HiccupMonitor monitor = new HiccupMonitor(1_000_000).start())
        {
            Thread.sleep(200);
            h = monitor.snapshot();
        }
        assertTrue(h.getTotalCount() >= 20, "a 1 ms grid over 200 ms gives many samples: " + h.getTotalCount());
        assertTrue(h.getTotalCount() <= 210, "never more samples than grid points: " + h.getTotalCount());
        assertTrue(h.getMinValue() >= 0);
    }

    @Test
    void shouldNeverReportMoreLatenessThanTimeElapsed() throws InterruptedException
    {
        final long startNs = System.nanoTime();
        final Histogram h;
        try (HiccupMonitor monitor = new HiccupMonitor(5_000_000).start())
        {
            Thread.sleep(100);
            h = monitor.snapshot();
        }
        assertTrue(h.getMaxValue() <= System.nanoTime() - startNs, "lateness cannot exceed the elapsed time");
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
            assertTrue(gc.maxMs() >= 0 && gc.totalMs() >= gc.maxMs());
            assertTrue(!gc.collectors().isEmpty());
        }
    }
}
