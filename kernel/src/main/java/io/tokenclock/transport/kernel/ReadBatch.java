package io.tokenclock.transport.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What one batched read of a {@link StampedSocket} found: the queued bytes cut at every event's end, each piece with
 * its own kernel stamp ({@link StampedSocket#readEvents}) or for the packet tap to stamp
 * ({@link StampedSocket#readSplit}). One per stamping thread, lent to each socket it reads in turn: the
 * {@code recvmmsg} messages and their control buffers are 64 x 200 bytes, which 10,000 sockets need not each hold.
 * <p>
 * <b>Why batched.</b> A read that keeps each queued event's own stamp had to peek and then read, per event: two
 * system calls per event while a backlog waited. One peek shows every event queued, and one {@code recvmmsg} with one
 * message per event, each exactly that event's length, takes them all, each message with its own
 * {@code SCM_TIMESTAMPING}: two system calls for the whole backlog, and the stamps are those the per-event reads got
 * (each message consumes exactly to its event's end, as each read did). With the packet tap the stamps come from the
 * tap instead, and one plain read of everything queued is enough.
 * <p>
 * Its stamping thread only.
 */
public final class ReadBatch
{
    /** Messages in one {@code recvmmsg}: a read takes at most this many events, and the rest waits for the next. */
    public static final int MAX_MESSAGES = 64;
    /** Pieces one read of {@link StampedSocket#READ_BYTES} can be cut into (an event is at least 2 bytes). */
    static final int MAX_PIECES = StampedSocket.READ_BYTES / 2 + 1;
    private static final int CONTROL_BYTES = 128;

    private final Arena arena = Arena.ofAuto();
    final MemorySegment messages = arena.allocate(LinuxNet.MMSGHDR_BYTES * MAX_MESSAGES, 8);
    private final MemorySegment iovs = arena.allocate(16L * MAX_MESSAGES, 8);
    private final MemorySegment controls = arena.allocate((long)CONTROL_BYTES * MAX_MESSAGES, 8);
    private final MemorySegment[] messageAt = new MemorySegment[MAX_MESSAGES];
    private final MemorySegment[] iovAt = new MemorySegment[MAX_MESSAGES];
    private final MemorySegment[] controlAt = new MemorySegment[MAX_MESSAGES];
    final int[] ends = new int[MAX_PIECES];
    final long[] stamps = new long[MAX_MESSAGES];
    int pieces;
    boolean moreQueued;

    /** A batch with its messages laid out once: a read fills in only each message's buffer and length. */
    public ReadBatch()
    {
        for (int i = 0; i < MAX_MESSAGES; i++)
        {
            messageAt[i] = messages.asSlice(LinuxNet.MMSGHDR_BYTES * i, LinuxNet.MMSGHDR_BYTES);
            iovAt[i] = iovs.asSlice(16L * i, 16);
            controlAt[i] = controls.asSlice((long)CONTROL_BYTES * i, CONTROL_BYTES);
            final MemorySegment m = messageAt[i];
            m.fill((byte)0);
            m.set(ValueLayout.ADDRESS, LinuxNet.MSG_IOV, iovAt[i]);
            m.set(ValueLayout.JAVA_LONG, LinuxNet.MSG_IOVLEN, 1L);
            m.set(ValueLayout.ADDRESS, LinuxNet.MSG_CONTROL, controlAt[i]);
        }
    }

    /** @return the pieces the last read cut. */
    public int pieces()
    {
        return pieces;
    }

    /** @return where piece {@code i} ends in the socket's {@link StampedSocket#data()} (exclusive). */
    public int end(final int i)
    {
        return ends[i];
    }

    /**
     * @return piece {@code i}'s kernel stamp ({@code CLOCK_REALTIME} ns, or a negative {@link ControlMessages} code);
     * after {@link StampedSocket#readSplit}, every piece has the whole read's.
     */
    public long stamp(final int i)
    {
        return stamps[Math.min(i, MAX_MESSAGES - 1)];
    }

    /** @return whether more bytes were queued than the read took (the next read finds them at once). */
    public boolean moreQueued()
    {
        return moreQueued;
    }

    /** Points message {@code i} at {@code length} bytes of {@code data} from {@code offset}. */
    void prepare(final int i, final MemorySegment data, final int offset, final int length)
    {
        iovAt[i].set(ValueLayout.JAVA_LONG, 0, data.address() + offset); // the pointer, without a slice per read
        iovAt[i].set(ValueLayout.JAVA_LONG, 8, length);
        messageAt[i].set(ValueLayout.JAVA_LONG, LinuxNet.MSG_CONTROLLEN, CONTROL_BYTES);
        messageAt[i].set(ValueLayout.JAVA_INT, LinuxNet.MSG_FLAGS, 0);
    }

    /** @return the bytes message {@code i} received. */
    int received(final int i)
    {
        return messageAt[i].get(ValueLayout.JAVA_INT, LinuxNet.MMSG_LEN);
    }

    /** @return message {@code i}'s kernel stamp. */
    long stampOf(final int i)
    {
        final MemorySegment m = messageAt[i];
        return ControlMessages.softwareStampNs(controlAt[i], m.get(ValueLayout.JAVA_LONG, LinuxNet.MSG_CONTROLLEN),
            m.get(ValueLayout.JAVA_INT, LinuxNet.MSG_FLAGS));
    }
}
