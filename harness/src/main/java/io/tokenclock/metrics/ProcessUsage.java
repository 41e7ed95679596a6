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
    private final java.util.Map<Long, long[]> start;

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
        this.start = perThread();
    }

    /** @return thread id to {user ns, total ns} for every live thread. */
    private java.util.Map<Long, long[]> perThread()
    {
        final java.util.Map<Long, long[]> m = new java.util.HashMap<>();
        if (threads.isThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled())
        {
            for (final long id : threads.getAllThreadIds())
            {
                final long c = threads.getThreadCpuTime(id);
                final long u = threads.getThreadUserTime(id);
                if (c >= 0 && u >= 0)
                {
                    m.put(id, new long[] {u, c});
                }
            }
        }
        return m;
    }

    /**
     * @return {user ns, system ns} spent since construction by the threads alive now: each thread's time minus what
     * it had at the start (0 for threads born since); threads that ended in between are not counted, so the sum can
     * only undercount, never go negative.
     */
    public long[] cpuSinceStart()
    {
        long user = 0;
        long total = 0;
        for (final java.util.Map.Entry<Long, long[]> e : perThread().entrySet())
        {
            final long[] before = start.getOrDefault(e.getKey(), new long[2]);
            user += Math.max(0, e.getValue()[0] - before[0]);
            total += Math.max(0, e.getValue()[1] - before[1]);
        }
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
