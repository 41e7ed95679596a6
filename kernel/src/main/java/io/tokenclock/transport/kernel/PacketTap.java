package io.tokenclock.transport.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.locks.LockSupport;

/**
 * A packet tap that stamps every TCP segment the server sends, so that each read's stamp is its own last segment's,
 * even where a stall merged the segments in the socket.
 * <p>
 * <b>Why.</b> While the stamping thread stalls, queued segments are merged in the TCP receive queue and keep only the
 * newest stamp (docs/ACCURACY.md, "What a stall costs the stamps"). An {@code AF_PACKET} socket on the interface
 * gets its own copy of each segment, stamped by the kernel as it arrives ({@code SO_TIMESTAMPING}, the same software
 * receive stamp and clock as the TCP socket's), and the copy waits in the tap's own queue with that stamp, however
 * late anyone reads it. {@link TapFlows} then maps each stamp to the bytes of the connection it carried, so a read
 * cut at an event's end gets the arrival of the segment that held its last byte.
 * <p>
 * <b>What it sees.</b> A classic BPF filter keeps only IPv4/IPv6 TCP segments (not fragments) from the server's port
 * that the host receives ({@code PACKET_HOST}: on loopback each segment passes twice, out and in; the incoming copy
 * is the arrival), and only their first 128 bytes (the headers). Bound to one interface with {@code ETH_P_ALL}. On a
 * real NIC the tap sees packets after GRO, so segments the NIC or GRO merged share one stamp, as they do on the TCP
 * socket.
 * <p>
 * <b>Cost.</b> Needs {@code CAP_NET_RAW}. A reader that asks for a stamp not yet drained drains the queue at once
 * ({@code recvmmsg}, in batches); one thread ({@code tokenclock-tap}, in the idle scheduling class, so that it never
 * delays the stamping thread) also drains it every 10 ms, so that it cannot fill while nothing reads. The
 * stamps do not depend on when the drain runs, only the queue's size does: it is forced to 8 MiB, and the kernel's
 * drop count is recorded ({@link #drops()}). The probe behind it (results/kernel-stamps/tap-probe-2026-12-02/)
 * measured 2.5-5 µs of CPU per packet.
 * <p>
 * Thread-safe: every call takes the tap's lock.
 */
public final class PacketTap implements AutoCloseable
{
    /** Bytes captured per packet: IPv6 (40) and the longest TCP header (60) fit. */
    static final int SNAP_BYTES = 128;
    /** The tap's receive queue, forced past {@code rmem_max}: a 50 ms stall of the drain at 100 connections fits. */
    static final int QUEUE_BYTES = 8 << 20;
    private static final int BATCH = 64;
    private static final int CONTROL_BYTES = 128;
    private static final int MAX_BATCHES_PER_DRAIN = 64;
    /**
     * How often the drain thread empties the queue. Why not at each packet: the stamps do not need it (each was taken
     * as its packet arrived), and every wake-up of a thread on the client's core is CPU the run pays for; readers that
     * need a stamp sooner drain at once. 10 ms is at most 100 wake-ups a second, and holds 2,000 packets at 200,000 a
     * second, well inside {@link #QUEUE_BYTES}.
     */
    static final long DRAIN_EVERY_NS = 10_000_000;
    private static final int SOCKADDR_LL_BYTES = 20;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment errno = LinuxNet.newErrno(arena);
    private final MemorySegment scratch = arena.allocate(16, 8);
    private final MemorySegment messages = arena.allocate(LinuxNet.MMSGHDR_BYTES * BATCH, 8);
    private final MemorySegment buffers = arena.allocate((long)SNAP_BYTES * BATCH, 8);
    private final MemorySegment controls = arena.allocate((long)CONTROL_BYTES * BATCH, 8);
    private final TapFlows flows = new TapFlows();
    private final String interfaceName;
    /** Each message's header, control buffer and packet buffer, sliced once: a reader's drain allocates nothing. */
    private final MemorySegment[] messageAt = new MemorySegment[BATCH];
    private final MemorySegment[] controlAt = new MemorySegment[BATCH];
    private final MemorySegment[] bufferAt = new MemorySegment[BATCH];
    private final int fd;
    private final Thread drainer;
    private volatile boolean closed;
    private volatile boolean idleClass;
    private long packets;
    private long drops;

    private PacketTap(final String interfaceName, final int fd)
    {
        this.interfaceName = interfaceName;
        this.fd = fd;
        final MemorySegment iovs = arena.allocate(16L * BATCH, 8);
        for (int i = 0; i < BATCH; i++)
        {
            messageAt[i] = messages.asSlice(LinuxNet.MMSGHDR_BYTES * i, LinuxNet.MMSGHDR_BYTES);
            controlAt[i] = controls.asSlice((long)CONTROL_BYTES * i, CONTROL_BYTES);
            bufferAt[i] = buffers.asSlice((long)SNAP_BYTES * i, SNAP_BYTES);
            final MemorySegment iov = iovs.asSlice(16L * i, 16);
            iov.set(ValueLayout.ADDRESS, 0, bufferAt[i]);
            iov.set(ValueLayout.JAVA_LONG, 8, SNAP_BYTES);
            final MemorySegment m = messageAt[i];
            m.fill((byte)0);
            m.set(ValueLayout.ADDRESS, LinuxNet.MSG_IOV, iov);
            m.set(ValueLayout.JAVA_LONG, LinuxNet.MSG_IOVLEN, 1L);
            m.set(ValueLayout.ADDRESS, LinuxNet.MSG_CONTROL, controlAt[i]);
            m.set(ValueLayout.JAVA_LONG, LinuxNet.MSG_CONTROLLEN, CONTROL_BYTES);
        }
        drainer = new Thread(this::drainLoop, "tokenclock-tap");
        drainer.setDaemon(true);
    }

    /**
     * Opens a tap on {@code interfaceName} for the segments sent from {@code serverPort}, and starts its drain.
     *
     * @throws java.io.IOException with one line saying what failed: no such interface, no {@code CAP_NET_RAW}, or
     *                             an option the kernel refused.
     */
    public static PacketTap open(final String interfaceName, final int serverPort) throws java.io.IOException
    {
        if (!LinuxNet.available())
        {
            throw new java.io.IOException("a packet tap needs Linux x86-64");
        }
        final int index = LinuxNet.interfaceIndex(interfaceName);
        if (index <= 0)
        {
            throw new java.io.IOException("no network interface named '" + interfaceName + "'");
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment err = LinuxNet.newErrno(call);
            final MemorySegment one = call.allocate(4, 4);
            final int fd = LinuxNet.packetSocket(err);
            if (fd < 0)
            {
                final int e = LinuxNet.errno(err);
                throw new java.io.IOException(e == LinuxNet.EPERM ? "a packet tap needs CAP_NET_RAW (run as root, " +
                    "or setcap cap_net_raw+ep on the java binary)" : "socket(AF_PACKET) failed, errno " + e);
            }
            final String failed = configure(call, err, fd, one, serverPort, index);
            if (failed != null)
            {
                LinuxNet.close(err, fd);
                throw new java.io.IOException("packet tap on " + interfaceName + ": " + failed);
            }
            final PacketTap tap = new PacketTap(interfaceName, fd);
            tap.drainer.start();
            return tap;
        }
    }

    private static String configure(final Arena call, final MemorySegment err, final int fd, final MemorySegment one,
        final int serverPort, final int index)
    {
        if (LinuxNet.enableRxTimestamps(err, fd, one) != 0)
        {
            return "SO_TIMESTAMPING refused, errno " + LinuxNet.errno(err);
        }
        one.set(ValueLayout.JAVA_INT, 0, QUEUE_BYTES);
        if (LinuxNet.setOption(err, fd, LinuxNet.SOL_SOCKET, LinuxNet.SO_RCVBUFFORCE, one) != 0 &&
            LinuxNet.setOption(err, fd, LinuxNet.SOL_SOCKET, LinuxNet.SO_RCVBUF, one) != 0)
        {
            return "SO_RCVBUF refused, errno " + LinuxNet.errno(err);
        }
        if (LinuxNet.setOption(err, fd, LinuxNet.SOL_SOCKET, LinuxNet.SO_ATTACH_FILTER,
            filterProgram(call, serverPort)) != 0)
        {
            return "SO_ATTACH_FILTER refused, errno " + LinuxNet.errno(err);
        }
        // Outgoing packets are no use to the tap, and each would cost a clone on the send path (dev_queue_xmit_nit)
        // before the filter dropped it. Since Linux 4.20; an older kernel refuses, and the filter drops them anyway.
        one.set(ValueLayout.JAVA_INT, 0, 1);
        LinuxNet.setOption(err, fd, LinuxNet.SOL_PACKET, LinuxNet.PACKET_IGNORE_OUTGOING, one);
        final MemorySegment ll = call.allocate(SOCKADDR_LL_BYTES, 4);
        ll.fill((byte)0);
        ll.set(ValueLayout.JAVA_SHORT, 0, (short)LinuxNet.AF_PACKET);
        ll.set(ValueLayout.JAVA_BYTE, 2, (byte)(LinuxNet.ETH_P_ALL >>> 8));
        ll.set(ValueLayout.JAVA_BYTE, 3, (byte)LinuxNet.ETH_P_ALL);
        ll.set(ValueLayout.JAVA_INT, 4, index);
        if (LinuxNet.bind(err, fd, ll) != 0)
        {
            return "bind failed, errno " + LinuxNet.errno(err);
        }
        return null;
    }

    /**
     * The filter, a {@code struct sock_fprog} pointing at 18 {@code struct sock_filter} (u16 code, u8 jt, u8 jf, u32
     * k). With {@code SOCK_DGRAM} offset 0 is the network header; ancillary loads read the ethertype and packet type.
     */
    static MemorySegment filterProgram(final Arena arena, final int serverPort)
    {
        final int ldhAbs = 0x28;
        final int ldbAbs = 0x30;
        final int ldwAbs = 0x20;
        final int jeq = 0x15;
        final int jset = 0x45;
        final int ja = 0x05;
        final int ret = 0x06;
        final int adProtocol = 0xfffff000;
        final int adPacketType = 0xfffff004;
        final int[][] program = {
            {ldhAbs, 0, 0, adProtocol},       // 0: ethertype
            {jeq, 0, 7, 0x0800},              // 1: IPv4, else 9
            {ldbAbs, 0, 0, 9},                // 2: protocol
            {jeq, 0, 13, 6},                  // 3: TCP, else drop
            {ldhAbs, 0, 0, 6},                // 4: flags and fragment offset
            {jset, 11, 0, 0x1fff},            // 5: a fragment: drop
            {0xb1, 0, 0, 0},                  // 6: x = IPv4 header length
            {0x48, 0, 0, 0},                  // 7: TCP source port
            {ja, 0, 0, 4},                    // 8: to 13
            {jeq, 0, 7, 0x86dd},              // 9: IPv6, else drop
            {ldbAbs, 0, 0, 6},                // 10: next header
            {jeq, 0, 5, 6},                   // 11: TCP, else drop
            {ldhAbs, 0, 0, 40},               // 12: TCP source port
            {jeq, 0, 3, serverPort & 0xffff}, // 13: the server's, else drop
            {ldwAbs, 0, 0, adPacketType},     // 14: packet type
            {jeq, 0, 1, 0},                   // 15: PACKET_HOST, else drop
            {ret, 0, 0, SNAP_BYTES},          // 16: keep the headers
            {ret, 0, 0, 0},                   // 17: drop
        };
        final MemorySegment code = arena.allocate(8L * program.length, 8);
        for (int i = 0; i < program.length; i++)
        {
            code.set(ValueLayout.JAVA_SHORT, 8L * i, (short)program[i][0]);
            code.set(ValueLayout.JAVA_BYTE, 8L * i + 2, (byte)program[i][1]);
            code.set(ValueLayout.JAVA_BYTE, 8L * i + 3, (byte)program[i][2]);
            code.set(ValueLayout.JAVA_INT, 8L * i + 4, program[i][3]);
        }
        final MemorySegment fprog = arena.allocate(16, 8);
        fprog.fill((byte)0);
        fprog.set(ValueLayout.JAVA_SHORT, 0, (short)program.length);
        fprog.set(ValueLayout.ADDRESS, 8, code);
        return fprog;
    }

    /**
     * @return why a tap cannot be opened on {@code interfaceName} here (not Linux x86-64, no such interface, no
     * {@code CAP_NET_RAW}), or null when it can: opens one and closes it.
     */
    public static String unavailableReason(final String interfaceName)
    {
        try (PacketTap tap = open(interfaceName, 1))
        {
            return tap.fd < 0 ? "no tap" : null;
        }
        catch (final java.io.IOException e)
        {
            return e.getMessage();
        }
    }

    /** @return the interface tapped. */
    public String interfaceName()
    {
        return interfaceName;
    }

    /** Follows the connection whose local port is {@code port}; call before it connects, so its SYN-ACK is seen. */
    public synchronized void follow(final int port)
    {
        flows.follow(port);
    }

    /** Stops following {@code port}. */
    public synchronized void forget(final int port)
    {
        flows.forget(port);
    }

    /**
     * @return the arrival stamp ({@code CLOCK_REALTIME} ns) of the segment that carried byte {@code endOffset - 1}
     * of the connection on {@code port}, draining the tap first if it has not read that far (or not yet the
     * connection's SYN-ACK); or a negative {@link TapFlows} code: {@link TapFlows#LOST} when even the drain did not
     * bring it.
     */
    public synchronized long stampOf(final int port, final long endOffset)
    {
        final long stamp = flows.stampOf(port, endOffset);
        if (stamp != TapFlows.PENDING)
        {
            return stamp;
        }
        drainLocked();
        final long again = flows.stampOf(port, endOffset);
        return again == TapFlows.PENDING ? TapFlows.LOST : again;
    }

    /** Reads what the tap has queued. @return the packets read. */
    public synchronized int drain()
    {
        return drainLocked();
    }

    private int drainLocked()
    {
        if (closed)
        {
            return 0;
        }
        int read = 0;
        for (int batch = 0; batch < MAX_BATCHES_PER_DRAIN; batch++)
        {
            final int n = LinuxNet.recvmmsg(errno, fd, messages, BATCH);
            if (n <= 0)
            {
                break;
            }
            for (int i = 0; i < n; i++)
            {
                final MemorySegment m = messageAt[i];
                final long stamp = ControlMessages.softwareStampNs(controlAt[i], m.get(ValueLayout.JAVA_LONG,
                    LinuxNet.MSG_CONTROLLEN), m.get(ValueLayout.JAVA_INT, LinuxNet.MSG_FLAGS));
                final int length = Math.min(SNAP_BYTES, m.get(ValueLayout.JAVA_INT, LinuxNet.MMSG_LEN));
                flows.accept(bufferAt[i], length, stamp);
                // the kernel wrote these two back; only the messages it filled need them again
                m.set(ValueLayout.JAVA_LONG, LinuxNet.MSG_CONTROLLEN, CONTROL_BYTES);
                m.set(ValueLayout.JAVA_INT, LinuxNet.MSG_FLAGS, 0);
            }
            read += n;
            packets += n;
            if (n < BATCH)
            {
                break;
            }
        }
        return read;
    }

    private void drainLoop()
    {
        // The stamps are the kernel's, taken as each packet arrived: a late drain costs queue space, never accuracy.
        // So the drain yields the core to the stamping thread (and readers drain at once when they need a stamp).
        idleClass = LinuxNet.lowerCurrentThreadToIdle();
        while (!closed)
        {
            drain();
            LockSupport.parkNanos(DRAIN_EVERY_NS);
        }
    }

    /** @return whether the drain thread runs in the idle scheduling class ({@code SCHED_IDLE}). */
    public boolean idleClass()
    {
        return idleClass;
    }

    /** @return packets read from the tap. */
    public synchronized long packets()
    {
        return packets;
    }

    /** @return segments stamped into a followed connection. */
    public synchronized long segments()
    {
        return flows.segments();
    }

    /** @return packets the kernel dropped because the tap's queue was full (each a segment with no stamp). */
    public synchronized long drops()
    {
        if (!closed && LinuxNet.getOption(errno, fd, LinuxNet.SOL_PACKET, LinuxNet.PACKET_STATISTICS,
            scratch.asSlice(0, 8), scratch.asSlice(8, 4)) == 0)
        {
            drops += Integer.toUnsignedLong(scratch.get(ValueLayout.JAVA_INT, 4)); // the counters reset on read
        }
        return drops;
    }

    @Override
    public void close()
    {
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            drops();
            closed = true;
        }
        LockSupport.unpark(drainer);
        try
        {
            drainer.join(1_000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        synchronized (this)
        {
            LinuxNet.close(errno, fd);
            arena.close();
        }
    }
}
