package io.tokenclock.transport.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * One non-blocking TCP socket whose reads the kernel stamps. Each read is a {@code recvmsg} that returns the bytes
 * and the {@code SCM_TIMESTAMPING} control message; {@link #lastStampNs()} is then the kernel's receive time of the
 * last segment the read consumed ({@code CLOCK_REALTIME}), or a negative {@link ControlMessages} code.
 * <p>
 * <b>A backlog keeps its own stamps.</b> TCP gives a read the stamp of the last segment it consumed, so one large
 * read after a stall would give every queued event the last one's time. {@link #readEvent} therefore peeks at what is
 * queued ({@code MSG_PEEK}) and, while more than one event is there, reads exactly to the end of the first (an SSE
 * event ends at a blank line): with servers that write one event per segment (loopback, {@code TCP_NODELAY}), each
 * event gets its own arrival. It costs one more system call per read (the peek), measured in JMH.
 * <p>
 * <b>Send stamps.</b> Once connected, {@link #enableTxStamps} adds keyed software transmit stamps: the kernel
 * queues one per send, for its last byte, on the socket's error queue ({@link #readSendStamp}, through {@link ErrorQueue}); the key is that
 * byte's offset in {@link #sentBytes()}, so a request's stamp is the one whose key reaches its last byte.
 * <p>
 * <b>TLS.</b> Ciphertext hides the event boundary; {@link #readRecord} reads to the end of the first whole TLS record
 * instead ({@link TlsRecords}), so that each record, and the plaintext it decrypts to, carries the stamp of the read
 * that completed it.
 * <p>
 * Native memory is owned by a shared arena closed by {@link #close}. Used by one thread at a time.
 */
public final class StampedSocket implements AutoCloseable
{
    /** The most bytes one read takes. */
    public static final int READ_BYTES = 16 * 1024;
    private static final int CONTROL_BYTES = 256;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment errno = LinuxNet.newErrno(arena);
    private final MemorySegment scratch = arena.allocate(16, 8);
    private final MemorySegment data = arena.allocate(READ_BYTES, 8);
    private final MemorySegment control = arena.allocate(CONTROL_BYTES, 8);
    private final MemorySegment iov = arena.allocate(16, 8);
    private final MemorySegment msghdr = arena.allocate(LinuxNet.MSGHDR_BYTES, 8);
    /** The error queue's own message and its reader (send stamps). */
    private final ErrorQueue errors = new ErrorQueue(arena);
    private final int fd;
    private final boolean timestamps;
    /** The port bound before connecting, for a packet tap; -1 when none was. */
    private final int localPort;
    /** Bytes read (not peeked) so far: where the last read ended in the connection's byte stream. */
    private long receivedBytes;
    private final TlsRecords records = new TlsRecords();
    private long lastStampNs = ControlMessages.MISSING;
    private int lastErrno;
    private long backlogReads;
    private boolean lastReadWasBacklog;
    private boolean closed;
    /** Send stamps on: the kernel took {@link #enableTxStamps}. */
    private boolean txStamps;
    /** Bytes sent since send stamps were turned on: the next byte's key. */
    private long sentBytes;

    private StampedSocket(final int fd, final boolean timestamps, final int localPort)
    {
        this.fd = fd;
        this.timestamps = timestamps;
        this.localPort = localPort;
        msghdr.fill((byte)0);
        msghdr.set(ValueLayout.ADDRESS, LinuxNet.MSG_IOV, iov);
        msghdr.set(ValueLayout.JAVA_LONG, LinuxNet.MSG_IOVLEN, 1L);
        iov.set(ValueLayout.ADDRESS, 0, data);
    }

    /**
     * Opens a non-blocking socket and starts connecting it to {@code address}:{@code port}; the connect completes
     * when the socket becomes writable ({@link #finishConnect}).
     *
     * @param stamps ask the kernel for receive stamps ({@code false}: a socket without them, as a fallback test uses).
     * @throws java.io.IOException when the socket cannot be created or the connect fails at once.
     */
    public static StampedSocket connect(final InetAddress address, final int port, final boolean stamps)
        throws java.io.IOException
    {
        return connect(address, port, stamps, null);
    }

    /**
     * As {@link #connect(InetAddress, int, boolean)}, and with a packet tap: the socket is bound to an ephemeral port
     * first, so that {@code tap} follows the connection from its SYN-ACK on ({@link PacketTap#follow}); the caller
     * {@link PacketTap#forget}s {@link #localPort()} when done.
     *
     * @param tap the tap, or {@code null} for none.
     */
    public static StampedSocket connect(final InetAddress address, final int port, final boolean stamps,
        final PacketTap tap) throws java.io.IOException
    {
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment err = LinuxNet.newErrno(call);
            final MemorySegment one = call.allocate(4, 4);
            final boolean v6 = address instanceof Inet6Address;
            final int fd = LinuxNet.socket(err, v6 ? LinuxNet.AF_INET6 : LinuxNet.AF_INET);
            if (fd < 0)
            {
                throw new java.io.IOException("Unable to create Channel: socket() failed, errno " +
                    LinuxNet.errno(err));
            }
            LinuxNet.setNoDelay(err, fd, one);
            LinuxNet.setKeepAlive(err, fd, one);
            final boolean timestamps = stamps && LinuxNet.enableRxTimestamps(err, fd, one) == 0;
            final int localPort = tap == null ? -1 : bindEphemeral(call, err, fd, address, tap);
            final int r = LinuxNet.connect(err, fd, sockaddr(call, address, port));
            if (r != 0 && LinuxNet.errno(err) != LinuxNet.EINPROGRESS)
            {
                final int e = LinuxNet.errno(err);
                LinuxNet.close(err, fd);
                if (tap != null)
                {
                    tap.forget(localPort);
                }
                throw new java.net.ConnectException("connect to " + address.getHostAddress() + ":" + port +
                    " failed, errno " + e);
            }
            return new StampedSocket(fd, timestamps, localPort);
        }
    }

    /** Binds {@code fd} to port 0 of its family's wildcard address and has {@code tap} follow the port it got. */
    private static int bindEphemeral(final Arena call, final MemorySegment err, final int fd,
        final InetAddress address, final PacketTap tap) throws java.io.IOException
    {
        final MemorySegment any = sockaddr(call, address, 0);
        any.asSlice(address instanceof Inet4Address ? 4 : 8, address instanceof Inet4Address ? 4 : 16)
            .fill((byte)0);
        final int localPort = LinuxNet.bind(err, fd, any) == 0 ?
            LinuxNet.localPort(err, fd, call.allocate(28, 4), call.allocate(4, 4)) : -1;
        if (localPort <= 0)
        {
            final int e = LinuxNet.errno(err);
            LinuxNet.close(err, fd);
            throw new java.io.IOException("bind before connect (for the packet tap) failed, errno " + e);
        }
        tap.follow(localPort);
        return localPort;
    }

    private static MemorySegment sockaddr(final Arena arena, final InetAddress address, final int port)
    {
        final byte[] ip = address.getAddress();
        final MemorySegment sa;
        if (address instanceof Inet4Address)
        {
            sa = arena.allocate(16, 4);
            sa.fill((byte)0);
            sa.set(ValueLayout.JAVA_SHORT, 0, (short)LinuxNet.AF_INET);
            MemorySegment.copy(ip, 0, sa, ValueLayout.JAVA_BYTE, 4, 4);
        }
        else
        {
            sa = arena.allocate(28, 4);
            sa.fill((byte)0);
            sa.set(ValueLayout.JAVA_SHORT, 0, (short)LinuxNet.AF_INET6);
            MemorySegment.copy(ip, 0, sa, ValueLayout.JAVA_BYTE, 8, 16);
        }
        sa.set(ValueLayout.JAVA_BYTE, 2, (byte)(port >>> 8));
        sa.set(ValueLayout.JAVA_BYTE, 3, (byte)port);
        return sa;
    }

    /** @return 0 when the connect completed, else the socket's error ({@code errno} value). */
    public int finishConnect()
    {
        return LinuxNet.socketError(errno, fd, scratch);
    }

    /** @return the file descriptor (for epoll). */
    public int fd()
    {
        return fd;
    }

    /** @return the local port bound for a packet tap, or -1 when the socket was connected without one. */
    public int localPort()
    {
        return localPort;
    }

    /** @return bytes read so far: the offset, in the connection's byte stream, where the last read ended. */
    public long receivedBytes()
    {
        return receivedBytes;
    }

    /** @return whether the kernel accepted {@code SO_TIMESTAMPING} on this socket. */
    public boolean timestamps()
    {
        return timestamps;
    }

    /** @return the native buffer the last read filled (its first {@code n} bytes). */
    public MemorySegment data()
    {
        return data;
    }

    /** @return the last read's kernel stamp ({@code CLOCK_REALTIME} ns), or a negative {@link ControlMessages} code. */
    public long lastStampNs()
    {
        return lastStampNs;
    }

    /** @return the {@code errno} of the last call that failed. */
    public int lastErrno()
    {
        return lastErrno;
    }

    /** @return whether the last {@link #readEvent} stopped at an event's end with more queued behind it. */
    public boolean lastReadWasBacklog()
    {
        return lastReadWasBacklog;
    }

    /** @return reads cut at an event's end because more was queued behind it. */
    public long backlogReads()
    {
        return backlogReads;
    }

    /**
     * Reads what is queued, at most one whole event while more than one is queued, into {@link #data()}.
     *
     * @return bytes read; 0 at the end of the stream; -1 when nothing is queued ({@code EAGAIN}); -2 on another
     * error ({@link #lastErrno()}).
     */
    public int readEvent()
    {
        final long peeked = recv(READ_BYTES, LinuxNet.MSG_PEEK | LinuxNet.MSG_DONTWAIT);
        if (peeked <= 0)
        {
            return result(peeked);
        }
        final int end = EventBoundary.firstEnd(data, (int)peeked);
        lastReadWasBacklog = end > 0 && end < peeked;
        if (lastReadWasBacklog)
        {
            backlogReads++;
        }
        return result(recv(end > 0 ? end : (int)peeked, LinuxNet.MSG_DONTWAIT));
    }

    /**
     * Reads every event queued, each with its own kernel stamp, in two system calls: one peek ({@code MSG_PEEK})
     * shows what is queued and where each event ends ({@link EventBoundary#pieces}); one {@code recvmmsg} then takes
     * each event in a message of its own, exactly its length, so that each gets the stamp of the last segment that
     * held it, as a read per event would (a single event, the usual case, is one plain {@code recvmsg}). A last piece
     * that ends inside an event is read too (the event completes in a later read, whose stamp it then takes). At most
     * {@link ReadBatch#MAX_MESSAGES} pieces per call; the rest stays queued ({@link ReadBatch#moreQueued()}).
     *
     * @param batch where the pieces' ends and stamps go; the bytes are in {@link #data()}.
     * @return the pieces read (at least 1); 0 at the end of the stream; -1 when nothing is queued; -2 on another
     * error ({@link #lastErrno()}).
     */
    public int readEvents(final ReadBatch batch)
    {
        final long peeked = recv(READ_BYTES, LinuxNet.MSG_PEEK | LinuxNet.MSG_DONTWAIT);
        if (peeked <= 0)
        {
            return result(peeked);
        }
        final int[] ends = batch.ends;
        final int pieces = EventBoundary.pieces(data, (int)peeked, ends, ReadBatch.MAX_MESSAGES);
        batch.moreQueued = ends[pieces - 1] < peeked || peeked == READ_BYTES;
        if (pieces == 1)
        {
            final int n = result(recv(ends[0], LinuxNet.MSG_DONTWAIT));
            batch.pieces = n > 0 ? 1 : 0;
            ends[0] = Math.max(n, 0);
            batch.stamps[0] = lastStampNs;
            lastReadWasBacklog = batch.moreQueued && n > 0;
            backlogReads += lastReadWasBacklog ? 1 : 0;
            return n > 0 ? 1 : n;
        }
        return readPieces(batch, pieces);
    }

    /** The {@code recvmmsg} of {@link #readEvents}: one message per piece, each into its place in {@link #data()}. */
    private int readPieces(final ReadBatch batch, final int pieces)
    {
        final int[] ends = batch.ends;
        for (int i = 0; i < pieces; i++)
        {
            final int from = i == 0 ? 0 : ends[i - 1];
            batch.prepare(i, data, from, ends[i] - from);
        }
        final int got = LinuxNet.recvmmsg(errno, fd, batch.messages, pieces);
        if (got <= 0)
        {
            lastErrno = LinuxNet.errno(errno);
            return got == 0 ? 0 : lastErrno == LinuxNet.EAGAIN ? -1 : -2;
        }
        int at = 0;
        int count = 0;
        for (int i = 0; i < got; i++)
        {
            final int from = i == 0 ? 0 : ends[i - 1];
            final int n = batch.received(i);
            if (n <= 0)
            {
                break;
            }
            if (at != from)
            {
                MemorySegment.copy(data, from, data, at, n); // a short message before: keep the bytes contiguous
            }
            at += n;
            batch.stamps[count] = batch.stampOf(i);
            ends[count++] = at;
        }
        batch.pieces = count;
        batch.moreQueued |= count < pieces;
        receivedBytes += at;
        lastStampNs = count > 0 ? batch.stamps[count - 1] : ControlMessages.MISSING;
        backlogReads += count - (batch.moreQueued ? 0 : 1);
        lastReadWasBacklog = batch.moreQueued;
        return count > 0 ? count : 0;
    }

    /**
     * Reads what is queued (up to {@link #READ_BYTES}) in one {@code recvmsg}, without a peek, and cuts it at every
     * event's end: for a client whose packet tap stamps each piece by the segment of its last byte
     * ({@link PacketTap#stampOf}), so that no read needs to stop at an event. Every piece carries the read's own
     * kernel stamp in {@code batch}, the socket's fallback when the tap has none.
     *
     * @return as {@link #readEvents}.
     */
    public int readSplit(final ReadBatch batch)
    {
        final int n = result(recv(READ_BYTES, LinuxNet.MSG_DONTWAIT));
        if (n <= 0)
        {
            return n;
        }
        final int pieces = EventBoundary.pieces(data, n, batch.ends, ReadBatch.MAX_PIECES);
        batch.pieces = pieces;
        batch.moreQueued = n == READ_BYTES;
        for (int i = 0; i < Math.min(pieces, ReadBatch.MAX_MESSAGES); i++)
        {
            batch.stamps[i] = lastStampNs;
        }
        backlogReads += pieces - (batch.moreQueued ? 0 : 1);
        lastReadWasBacklog = pieces > 1 || batch.moreQueued;
        return pieces;
    }

    /**
     * Reads TLS ciphertext into {@link #data()}: while a whole record and more are queued, exactly to that record's
     * end, so that each record keeps the stamp of its own last segment; otherwise what is queued (a record that has
     * not all arrived is taken as far as it goes, and the read that completes it later gives its stamp).
     *
     * @return as {@link #readEvent}.
     */
    public int readRecord()
    {
        final long peeked = recv(READ_BYTES, LinuxNet.MSG_PEEK | LinuxNet.MSG_DONTWAIT);
        if (peeked <= 0)
        {
            return result(peeked);
        }
        final int end = records.firstEnd(data, (int)peeked);
        lastReadWasBacklog = end > 0 && end < peeked;
        if (lastReadWasBacklog)
        {
            backlogReads++;
        }
        final int n = result(recv(end > 0 ? end : (int)peeked, LinuxNet.MSG_DONTWAIT));
        if (n > 0)
        {
            records.advance(data, n);
        }
        return n;
    }

    /** @return whether every TLS record {@link #readRecord} has read so far is whole (the last read ended one). */
    public boolean atRecordBoundary()
    {
        return records.atBoundary();
    }

    /** Reads what is queued (up to {@link #READ_BYTES}) in one {@code recvmsg}, as a plain read would. */
    public int readAll()
    {
        return result(recv(READ_BYTES, LinuxNet.MSG_DONTWAIT));
    }

    private int result(final long n)
    {
        if (n >= 0)
        {
            return (int)n;
        }
        return lastErrno == LinuxNet.EAGAIN ? -1 : -2;
    }

    private long recv(final int length, final int flags)
    {
        iov.set(ValueLayout.JAVA_LONG, 8, length);
        msghdr.set(ValueLayout.ADDRESS, LinuxNet.MSG_CONTROL, control);
        msghdr.set(ValueLayout.JAVA_LONG, LinuxNet.MSG_CONTROLLEN, CONTROL_BYTES);
        msghdr.set(ValueLayout.JAVA_INT, LinuxNet.MSG_FLAGS, 0);
        final long n = LinuxNet.recvmsg(errno, fd, msghdr, flags);
        if (n < 0)
        {
            lastErrno = LinuxNet.errno(errno);
            return n;
        }
        if ((flags & LinuxNet.MSG_PEEK) == 0)
        {
            receivedBytes += n;
            lastStampNs = n == 0 ? ControlMessages.MISSING : ControlMessages.softwareStampNs(control,
                msghdr.get(ValueLayout.JAVA_LONG, LinuxNet.MSG_CONTROLLEN), msghdr.get(ValueLayout.JAVA_INT,
                LinuxNet.MSG_FLAGS));
        }
        return n;
    }

    /**
     * Turns send stamps on ({@link LinuxNet#enableTxTimestamps}), once connected and before the first byte is sent:
     * from here each send's last byte gets a stamp on the error queue, keyed by its offset in {@link #sentBytes()}.
     *
     * @param flags {@link LinuxNet#TX_STAMP_FLAGS}, or more for a test that wants the kernel to refuse.
     * @return whether the kernel took it (if not, receive stamps stay as they were; {@link #lastErrno()} says why).
     */
    public boolean enableTxStamps(final int flags)
    {
        if (!timestamps || txStamps)
        {
            return txStamps;
        }
        if (LinuxNet.enableTxTimestamps(errno, fd, flags, scratch) != 0)
        {
            lastErrno = LinuxNet.errno(errno);
            return false;
        }
        txStamps = true;
        sentBytes = 0;
        return true;
    }

    /** @return whether send stamps are on. */
    public boolean txStamps()
    {
        return txStamps;
    }

    /** @return bytes sent since send stamps were turned on: the key of the next byte to be sent. */
    public long sentBytes()
    {
        return sentBytes;
    }

    /**
     * Reads one message of the error queue ({@code MSG_ERRQUEUE}, never blocking): with send stamps on, a send
     * stamp, then in {@link #lastSendStampNs()} and its key in {@link #lastSendKey()}.
     *
     * @return 1 when a message was read (its stamp or key may still be a negative {@link ControlMessages} code), -1
     * when the queue is empty, -2 on another error.
     */
    public int readSendStamp()
    {
        final int r = errors.read(fd);
        if (r < 0)
        {
            lastErrno = errors.lastErrno();
        }
        return r;
    }

    /** @return the last send stamp read ({@code CLOCK_REALTIME} ns), or a negative {@link ControlMessages} code. */
    public long lastSendStampNs()
    {
        return errors.lastStampNs();
    }

    /** @return the key of the last send stamp read (the offset of the stamped byte, mod 2^32), or a negative code. */
    public long lastSendKey()
    {
        return errors.lastKey();
    }

    /**
     * Writes {@code length} bytes of {@code bytes} without blocking.
     *
     * @return bytes written (maybe fewer), -1 when the socket's buffer is full, -2 on an error.
     */
    public long send(final MemorySegment bytes, final long length)
    {
        final long n = LinuxNet.send(errno, fd, bytes, length);
        if (n < 0)
        {
            lastErrno = LinuxNet.errno(errno);
            return lastErrno == LinuxNet.EAGAIN ? -1 : -2;
        }
        if (txStamps)
        {
            sentBytes += n;
        }
        return n;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            LinuxNet.close(errno, fd);
            arena.close();
        }
    }
}
