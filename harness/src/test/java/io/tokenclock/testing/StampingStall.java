package io.tokenclock.testing;

import java.lang.foreign.MemorySegment;

import io.tokenclock.transport.kernel.LinuxNet;

/**
 * The test-only stall of a stamping thread, shared by the tests that read a truth server's stream by hand and stop
 * reading for a while to see queued events keep their own kernel stamps (KernelStampsIT, KernelTlsIT).
 *
 * <p>It stops for 50 ms, and on until about {@link #EVENTS} events of the size given wait in the socket, at most
 * {@link #MAX_MS}. On a quiet machine 50 ms queue about 12 events at 4 ms apart; on a loaded one the truth server, a
 * thread of the test's own JVM, can itself be later than the stall, and a stall that nothing arrived during tests
 * nothing: a CI run at load 10 and more once saw none arrive, and the assertion on them failed with 0.
 */
public final class StampingStall
{
    /** Events to see queued: the assertions need two, and the first may have been cut at a boundary. */
    public static final int EVENTS = 3;
    /** The longest the stall waits for them. */
    public static final long MAX_MS = 3_000;
    private static final long FIXED_MS = 50;

    private StampingStall()
    {
    }

    /**
     * Stalls the calling (stamping) thread.
     *
     * @param fd the socket read by hand.
     * @param errno errno capture state ({@link LinuxNet#newErrno}).
     * @param scratchInt an int-sized segment for {@code FIONREAD}.
     * @param eventBytes the bytes of one event (or TLS record), as the last read saw them.
     * @return the stall's end, on {@code System.nanoTime()}'s clock.
     * @throws InterruptedException when the test is interrupted.
     */
    public static long stall(final int fd, final MemorySegment errno, final MemorySegment scratchInt,
        final int eventBytes) throws InterruptedException
    {
        final long startNs = System.nanoTime();
        Thread.sleep(FIXED_MS);
        while (LinuxNet.queuedBytes(errno, fd, scratchInt) < (long)EVENTS * eventBytes &&
            System.nanoTime() - startNs < MAX_MS * 1_000_000L)
        {
            Thread.sleep(5);
        }
        return System.nanoTime();
    }
}
