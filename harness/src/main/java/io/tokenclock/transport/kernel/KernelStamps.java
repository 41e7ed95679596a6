package io.tokenclock.transport.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Whether this process can have kernel receive stamps, checked once: the calls link, and a socket takes the option. */
public final class KernelStamps
{
    private static final String REASON = probe();

    private KernelStamps()
    {
    }

    /** @return null when kernel stamps can be had; else why not, in a few words. */
    public static String unavailableReason()
    {
        return REASON;
    }

    /** @return the two clocks of this machine: {@code CLOCK_REALTIME} through FFM, monotonic as System.nanoTime(). */
    public static ClockBridge.Clocks systemClocks()
    {
        final MemorySegment ts = Arena.ofAuto().allocate(16, 8);
        return new ClockBridge.Clocks()
        {
            @Override
            public long realtimeNs()
            {
                return LinuxNet.realtimeNs(ts);
            }

            @Override
            public long monotonicNs()
            {
                return System.nanoTime();
            }
        };
    }

    private static String probe()
    {
        try
        {
            if (!LinuxNet.available())
            {
                return "not Linux on x86-64 (" + System.getProperty("os.name") + ", " + System.getProperty("os.arch") +
                    ")";
            }
            try (Arena arena = Arena.ofConfined())
            {
                final MemorySegment errno = LinuxNet.newErrno(arena);
                final int fd = LinuxNet.socket(errno, LinuxNet.AF_INET);
                if (fd < 0)
                {
                    return "socket() failed, errno " + LinuxNet.errno(errno);
                }
                final int r = LinuxNet.enableRxTimestamps(errno, fd, arena.allocate(4, 4));
                final int e = LinuxNet.errno(errno);
                LinuxNet.close(errno, fd);
                return r == 0 ? null : "the kernel refused SO_TIMESTAMPING, errno " + e;
            }
        }
        catch (final RuntimeException | LinkageError e)
        {
            return "the foreign-function calls failed: " + e.getMessage();
        }
    }
}
