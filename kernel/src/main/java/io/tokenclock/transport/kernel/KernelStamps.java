package io.tokenclock.transport.kernel;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.locks.LockSupport;

/**
 * Whether this process can have kernel receive stamps, checked once: the calls link, and a socket takes the option.
 * <p>
 * <b>The machine's switch.</b> Linux takes software receive stamps only while some socket on the machine asks for
 * them: a global switch ({@code netstamp_needed_key}) that the first such socket turns on and the last one's close
 * turns off, both through deferred work. A segment that arrives while it is off carries no stamp, and its read no
 * {@code SCM_TIMESTAMPING}. Measured here: connections opened one after another with none open in between lost the
 * stamps of their first reads, in 6 of 8 runs, and once of a whole 60 ms connection. So the probe's socket is kept
 * open for the life of the process (one file descriptor), and the probe waits, bounded, until a loopback read
 * carries a stamp: the switch is then on before the first connection of a run, and stays on between runs.
 */
public final class KernelStamps
{
    /** How long the probe waits for the machine's stamping switch to come on. */
    private static final long SWITCH_WAIT_NS = 500_000_000L;
    private static final String REASON = probe();

    private KernelStamps()
    {
    }

    /** @return null when kernel stamps can be had; else why not, in a few words. */
    public static String unavailableReason()
    {
        return REASON;
    }

    /**
     * Reads one byte at a time from a loopback connection until a read carries a kernel stamp, for at most
     * {@link #SWITCH_WAIT_NS}: the switch's deferred work has then run. Gives up quietly: reads without a stamp are
     * counted as fallbacks anyway.
     *
     * @return whether a stamped read was seen.
     */
    static boolean awaitStamps()
    {
        final long deadlineNs = System.nanoTime() + SWITCH_WAIT_NS;
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            server.setSoTimeout(1_000);
            try (StampedSocket client = StampedSocket.connect(InetAddress.getLoopbackAddress(), server.getLocalPort(),
                true); Socket peer = server.accept())
            {
                while (System.nanoTime() < deadlineNs)
                {
                    peer.getOutputStream().write('x');
                    int n;
                    while ((n = client.readAll()) == -1 && System.nanoTime() < deadlineNs)
                    {
                        LockSupport.parkNanos(20_000);
                    }
                    if (n > 0 && client.lastStampNs() >= 0)
                    {
                        return true;
                    }
                    LockSupport.parkNanos(1_000_000);
                }
            }
        }
        catch (final IOException e)
        {
            // no loopback to test on: the run's reads will say, counted
        }
        return false;
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
                if (r != 0)
                {
                    LinuxNet.close(errno, fd);
                    return "the kernel refused SO_TIMESTAMPING, errno " + e;
                }
                // Not closed: this socket holds the machine's stamping switch on (see the class comment).
                awaitStamps();
                return null;
            }
        }
        catch (final RuntimeException | LinkageError e)
        {
            return "the foreign-function calls failed: " + e.getMessage();
        }
    }
}
