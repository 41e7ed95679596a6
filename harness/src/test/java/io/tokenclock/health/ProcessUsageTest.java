package io.tokenclock.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

final class ProcessUsageTest
{
    @Test
    void shouldCountTheCpuOfAThreadThatEndedBeforeTheSecondReading() throws Exception
    {
        final ProcessUsage.CpuTimes before = ProcessUsage.cpuNow();
        final AtomicLong burnedNs = new AtomicLong();
        final Thread worker = new Thread(() ->
        {
            // the thread's own CPU clock is the outside measurement: what the process figure must include
            final var mx = ManagementFactory.getThreadMXBean();
            final long start = mx.getCurrentThreadCpuTime();
            long x = 0;
            while (mx.getCurrentThreadCpuTime() - start < 300_000_000L)
            {
                for (int i = 0; i < 10_000; i++)
                {
                    x += i * 31L ^ x;
                }
            }
            burnedNs.set(mx.getCurrentThreadCpuTime() - start + (x == 42 ? 1 : 0));
        }, "cpu-burner");
        worker.start();
        worker.join(30_000);
        final ProcessUsage.CpuTimes spent = ProcessUsage.cpuNow().since(before);
        // a sum over the threads alive at the end would miss the ended thread altogether; 20 ms is two ticks
        assertTrue(spent.totalNs() >= burnedNs.get() - 20_000_000L,
            "process CPU " + spent.totalNs() / 1e6 + " ms, ended thread alone " + burnedNs.get() / 1e6 + " ms");
        assertTrue(spent.userNs() > 0, "the burner ran in user mode: " + spent);
    }

    @Test
    void shouldSubtractAnEarlierReadingFieldByField()
    {
        final ProcessUsage.CpuTimes spent =
            new ProcessUsage.CpuTimes(900, 350, true).since(new ProcessUsage.CpuTimes(200, 100, true));

        assertEquals(new ProcessUsage.CpuTimes(700, 250, true), spent);
        assertEquals(950, spent.totalNs());
        assertFalse(new ProcessUsage.CpuTimes(9, 3, true).since(new ProcessUsage.CpuTimes(1, 1, false)).split(),
            "split only when both readings were");
    }
}
