package io.tokenclock.health;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.OperatingSystemMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the client JVM itself spent: CPU time of the whole process, user and system apart, between two readings, and
 * peak heap. The harness's own cost, measured beside the figures it produced: CPU per chunk decides how many streams
 * one client machine can measure.
 * <p>
 * CPU is read from the process's own clocks, not summed over threads: on Linux {@code /proc/self/stat} fields 14 and
 * 15 ({@code utime}, {@code stime}), which the kernel keeps for the whole thread group, threads that already ended
 * included. Their unit is {@code USER_HZ}, which the kernel fixes at 100 per second for user space, so each reading
 * is exact to 10 ms; over a run of seconds that is well under 1%. Elsewhere the JVM's process CPU clock gives the
 * total, and user and system are not told apart ({@link CpuTimes#split()} is false).
 * <p>
 * Worked example: readings {@code utime=412, stime=37} at the start of load and {@code 1012, 87} at the end are
 * 6.00 s user and 0.50 s system; over 3,000,000 chunks that is 2.0 µs user and 0.17 µs system per chunk.
 * <p>
 * Not thread-safe; one per run.
 */
public final class ProcessUsage
{
    /** The kernel's user-space tick ({@code USER_HZ}): 100 per second on every Linux architecture. */
    private static final long NS_PER_TICK = 10_000_000L;
    private static final Path STAT = Path.of("/proc/self/stat");

    /**
     * One reading of the process's CPU clocks.
     *
     * @param userNs   user time, ns (when {@code split}; else the total).
     * @param systemNs system time, ns (0 when not {@code split}).
     * @param split    whether user and system were read apart.
     */
    public record CpuTimes(long userNs, long systemNs, boolean split)
    {
        /** @return the CPU spent between {@code earlier} and this reading. */
        public CpuTimes since(final CpuTimes earlier)
        {
            return new CpuTimes(userNs - earlier.userNs, systemNs - earlier.systemNs, split && earlier.split);
        }

        public long totalNs()
        {
            return userNs + systemNs;
        }
    }

    /** Starts measuring: resets the heap pools' peaks. */
    public ProcessUsage()
    {
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            if (pool.getType() == MemoryType.HEAP && pool.isValid())
            {
                pool.resetPeakUsage();
            }
        }
    }

    /** @return the process's CPU time so far (all threads, ended ones included). */
    public static CpuTimes cpuNow()
    {
        try
        {
            final String stat = Files.readString(STAT, StandardCharsets.US_ASCII);
            // the command name (field 2) is in parentheses and may hold spaces: count fields after its ')'
            final String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return new CpuTimes(Long.parseLong(f[11]) * NS_PER_TICK, Long.parseLong(f[12]) * NS_PER_TICK, true);
        }
        catch (final IOException | RuntimeException ex)
        {
            final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
            final long total = os instanceof com.sun.management.OperatingSystemMXBean hotspot ?
                hotspot.getProcessCpuTime() : -1;
            return new CpuTimes(Math.max(0, total), 0, false);
        }
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
