package io.tokenclock.transport.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Reads a socket's error queue ({@code recvmsg} with {@code MSG_ERRQUEUE}, never blocking), where the kernel puts the
 * software transmit stamps {@link LinuxNet#enableTxTimestamps} asked for: one per send, for its last byte, keyed by
 * that byte's offset from the first byte sent after the option was set ({@link ControlMessages#sendKey}). Both the
 * kernel-stamped client ({@link StampedSocket}, which owns its socket) and the truth server (whose sockets are
 * Netty's) read their send stamps through it. Allocation-free; its native buffers live in the caller's arena. One
 * thread at a time.
 */
public final class ErrorQueue
{
    private static final int CONTROL_BYTES = 256;

    private final MemorySegment errno;
    /** A send stamp comes with no data ({@code OPT_TSONLY}) and two control messages. */
    private final MemorySegment control;
    private final MemorySegment data;
    private final MemorySegment iov;
    private final MemorySegment msghdr;
    private long lastStampNs = ControlMessages.MISSING;
    private long lastKey = ControlMessages.MISSING;
    private int lastErrno;

    /** Buffers for one socket's error queue, allocated in {@code arena} (which must outlive this reader). */
    public ErrorQueue(final Arena arena)
    {
        errno = LinuxNet.newErrno(arena);
        control = arena.allocate(CONTROL_BYTES, 8);
        data = arena.allocate(64, 8);
        iov = arena.allocate(16, 8);
        msghdr = arena.allocate(LinuxNet.MSGHDR_BYTES, 8);
        msghdr.fill((byte)0);
        msghdr.set(ValueLayout.ADDRESS, LinuxNet.MSG_IOV, iov);
        msghdr.set(ValueLayout.JAVA_LONG, LinuxNet.MSG_IOVLEN, 1L);
        iov.set(ValueLayout.ADDRESS, 0, data);
        iov.set(ValueLayout.JAVA_LONG, 8, data.byteSize());
    }

    /**
     * Reads one message of {@code fd}'s error queue: with send stamps on, a send stamp, then in
     * {@link #lastStampNs()} and its key in {@link #lastKey()}.
     *
     * @return 1 when a message was read (its stamp or key may still be a negative {@link ControlMessages} code), -1
     * when the queue is empty, -2 on another error ({@link #lastErrno()}).
     */
    public int read(final int fd)
    {
        msghdr.set(ValueLayout.ADDRESS, LinuxNet.MSG_CONTROL, control);
        msghdr.set(ValueLayout.JAVA_LONG, LinuxNet.MSG_CONTROLLEN, CONTROL_BYTES);
        msghdr.set(ValueLayout.JAVA_INT, LinuxNet.MSG_FLAGS, 0);
        final long n = LinuxNet.recvmsg(errno, fd, msghdr, LinuxNet.MSG_ERRQUEUE | LinuxNet.MSG_DONTWAIT);
        if (n < 0)
        {
            lastErrno = LinuxNet.errno(errno);
            return lastErrno == LinuxNet.EAGAIN ? -1 : -2;
        }
        final long length = msghdr.get(ValueLayout.JAVA_LONG, LinuxNet.MSG_CONTROLLEN);
        final int flags = msghdr.get(ValueLayout.JAVA_INT, LinuxNet.MSG_FLAGS);
        lastKey = ControlMessages.sendKey(control, length, flags);
        lastStampNs = ControlMessages.softwareStampNs(control, length, flags);
        return 1;
    }

    /** @return the last send stamp read ({@code CLOCK_REALTIME} ns), or a negative {@link ControlMessages} code. */
    public long lastStampNs()
    {
        return lastStampNs;
    }

    /** @return the key of the last send stamp read (the offset of the stamped byte, mod 2^32), or a negative code. */
    public long lastKey()
    {
        return lastKey;
    }

    /** @return the {@code errno} of the last read that failed. */
    public int lastErrno()
    {
        return lastErrno;
    }

    /**
     * @param key      a send stamp's key (mod 2^32).
     * @param lastByte the offset of the last byte a write handed to the socket (not reduced).
     * @return whether the stamp is of that byte or a later one (keys wrap at 2^32): the first such stamp is the
     * write's, since the kernel stamps each send's last byte in order.
     */
    public static boolean covers(final long key, final long lastByte)
    {
        return (int)(key - lastByte) >= 0;
    }
}
