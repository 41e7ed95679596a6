package io.tokenclock.metrics;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;

/**
 * What the client JVM itself spent during a run: CPU time split into user and system (summed over its live threads,
 * from the JVM's per-thread accounting, in ns) and peak heap. The harness's own cost, measured beside the figures it
 * produced: CPU per chunk is what decides how many streams one client machine can measure. Threads that ended during
 * the run are not counted (the harness's threads live for the whole run). Not thread-safe; one per run.
 */
public final class ProcessUsage
{
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long startUserNs;
    private final long startCpuNs;

    /** Starts measuring: resets the heap pools' peaks and reads the CPU counters. */
    public ProcessUsage()
    {
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            if (pool.getType() == MemoryType.HEAP && pool.isValid())
            {
                pool.resetPeakUsage();
            }
        }
        final long[] now = cpu();
        this.startUserNs = now[0];
        this.startCpuNs = now[1];
    }

    private long[] cpu()
    {
        long user = 0;
        long cpu = 0;
        if (threads.isThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled())
        {
            for (final long id : threads.getAllThreadIds())
            {
                final long c = threads.getThreadCpuTime(id);
                final long u = threads.getThreadUserTime(id);
                if (c > 0 && u >= 0)
                {
                    cpu += c;
                    user += u;
                }
            }
        }
        return new long[] {user, cpu};
    }

    /** @return {user ns, system ns} spent since construction (0s where the JVM cannot tell). */
    public long[] cpuSinceStart()
    {
        final long[] now = cpu();
        final long user = Math.max(0, now[0] - startUserNs);
        final long total = Math.max(0, now[1] - startCpuNs);
        return new long[] {user, Math.max(0, total - user)};
    }

    /** @return the highest heap use of the run, bytes (sum of the heap pools' peaks). */
    public long peakHeapBytes()
    {
        long peak = 0;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            if (pool.getType() == MemoryType.HEAP && pool.isValid() && pool.getPeakUsage() != null)
            {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
