package io.tokenclock.transport.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.util.concurrent.locks.LockSupport;

/**
 * A packet tap that stamps every TCP segment the server sends, so that each read's stamp is its own last segment's,
 * even where a stall merged the segments in the socket.
 * <p>
 * <b>Why.</b> While the stamping thread stalls, queued segments are merged in the TCP receive queue and keep only the
 * newest stamp (docs/ACCURACY.md, "What a stall costs the stamps"). An {@code AF_PACKET} socket on the interface
 * gets its own copy of each segment's headers, stamped by the kernel as it arrives (the software receive stamp, the
 * same clock as the TCP socket's), and the copy waits in the tap's ring with that stamp, however late anyone reads
 * it. {@link TapFlows} then maps each stamp to the bytes of the connection it carried, so a read cut at an event's
 * end gets the arrival of the segment that held its last byte.
 * <p>
 * <b>What it sees.</b> A classic BPF filter ({@link TapFilter}) keeps only TCP segments (not fragments) from the
 * server's address and port that the host receives ({@code PACKET_HOST}), and only their first 128 bytes (the
 * headers); {@code PACKET_IGNORE_OUTGOING} keeps the send path from even offering it the host's own packets. Bound
 * to one interface with {@code ETH_P_ALL}. On a real NIC the tap sees packets after GRO, so segments the NIC or GRO
 * merged share one stamp, as they do on the TCP socket.
 * <p>
 * <b>The ring.</b> The kernel copies each kept packet's headers and stamp straight into a memory-mapped ring
 * ({@code PACKET_RX_RING}, {@code TPACKET_V2}: 65,536 frames of 256 bytes, 16 MiB), and the tap reads the frames from
 * memory: no system call per packet, no socket buffer per packet. Why {@code TPACKET_V2} and not {@code V3}: a
 * {@code V3} ring hands frames over a block at a time, when the block fills or its timer (1 ms at the least)
 * retires it, so a read that asks for the stamp of a segment that has just arrived would find it still in the
 * kernel's block and wait or go without; {@code V2} hands each frame over as it is written (libpcap's immediate mode
 * uses {@code V2} for the same reason). The frames are consumed in order under the tap's lock: by a reader that asks
 * for a stamp not yet read ({@link #stampOf}), and by the tap's thread ({@code tokenclock-tap}), so that the ring
 * cannot fill while nothing reads. A full ring makes the kernel drop the packet ({@link #drops()}); its bytes then have
 * no tap stamp ({@link TapFlows#LOST}) and the read keeps the socket's own.
 * <p>
 * <b>The thread.</b> On its own core when the process may run on more CPUs than the client has stamping threads (it
 * is then pinned to the last such CPU and drains every millisecond), else beside them, draining every 10 ms while
 * packets come and less often, down to every 100 ms, while the readers keep the ring drained ({@link #nextDrainNs}).
 * Always at normal priority: a reader waits on the lock while the thread drains, and a thread in the idle scheduling
 * class preempted with the lock held would keep the reader waiting as long as anything else wanted the core.
 * <p>
 * Thread-safe: every call takes the tap's lock.
 */
public final class PacketTap implements AutoCloseable
{
    /** Bytes captured per packet: IPv6 (40) and the longest TCP header (60) fit. */
    static final int SNAP_BYTES = TapFilter.SNAP_BYTES;
    /**
     * One ring frame: the {@code tpacket2_hdr} and {@code sockaddr_ll} (64 bytes aligned), 16 reserved, then the
     * network header at 80; 208 bytes used of 256.
     */
    static final int FRAME_BYTES = 256;
    /** One block of the ring (frames never cross a block): 256 frames. */
    static final int BLOCK_BYTES = 64 << 10;
    /** The smallest ring: one page. */
    static final int SMALLEST_RING_FRAMES = 4096 / 256;
    /** The ring's frames: 16 MiB, 650 ms of 100,000 packets a second while nothing reads. */
    static final int RING_FRAMES = 65_536;
    /** How often the thread drains the ring when it shares its core with the stamping threads, while packets come. */
    static final long DRAIN_EVERY_NS = 10_000_000;
    /**
     * The longest wait between drains on a shared core, reached by doubling {@link #DRAIN_EVERY_NS} while each drain
     * finds under {@link #QUIET_FRAMES} frames. Why: at low load the readers drain the ring themselves as they look up
     * their stamps, and a thread waking a hundred times a second to find nothing was 1-8% of a 1-stream client's CPU
     * samples (perf, issue 41). Why this bound: a burst after a quiet spell waits at most this long before the
     * thread drains it, and at 500,000 packets a second that is 50,000 frames, inside the ring's 65,536.
     */
    static final long QUIET_DRAIN_EVERY_NS = 100_000_000;
    /** A drain that reads fewer frames than this (1/64 of the ring) lets the next one wait twice as long. */
    static final int QUIET_FRAMES = RING_FRAMES / 64;
    /** How often it drains on a core of its own. */
    static final long OWN_CORE_DRAIN_EVERY_NS = 1_000_000;
    private static final int TP_STATUS_USER = 1;
    private static final int TP_STATUS_KERNEL = 0;
    private static final int TP_STATUS_TS_SOFTWARE = 1 << 29;
    private static final long FRAME_SNAPLEN = 8;
    private static final long FRAME_NET = 14;
    private static final long FRAME_SEC = 16;
    private static final long FRAME_NSEC = 20;
    private static final int SOCKADDR_LL_BYTES = 20;
    private static final VarHandle STATUS = ValueLayout.JAVA_INT.varHandle();

    private final Arena arena = Arena.ofShared();
    private final MemorySegment errno = LinuxNet.newErrno(arena);
    private final MemorySegment scratch = arena.allocate(16, 8);
    private final TapFlows flows = new TapFlows();
    private final String interfaceName;
    private final int fd;
    private final MemorySegment ring;
    private final long ringAddress;
    private final int frames;
    /** A CPU no stamping thread needs, for the tap's thread; -1 when there is none. */
    private final int freeCpu;
    private final Thread drainer;
    private volatile boolean closed;
    private volatile int ownCpu = -1;
    /** The next frame to read. */
    private int next;
    private long packets;
    private long stampedAtCapture;
    private long drops;

    private PacketTap(final String interfaceName, final int fd, final long ringAddress, final int frames,
        final int freeCpu)
    {
        this.interfaceName = interfaceName;
        this.fd = fd;
        this.ringAddress = ringAddress;
        this.frames = frames;
        this.freeCpu = freeCpu;
        this.ring = mapped(ringAddress, (long)frames * FRAME_BYTES, arena);
        drainer = new Thread(this::drainLoop, "tokenclock-tap");
        drainer.setDaemon(true);
    }

    // The ring is memory the kernel mapped for this socket: a segment of its size, in the tap's arena, is the one way
    // FFM reads it; it is unmapped in close(), after the arena that bounds every access is closed.
    @SuppressWarnings("restricted")
    private static MemorySegment mapped(final long address, final long bytes, final Arena arena)
    {
        return MemorySegment.ofAddress(address).reinterpret(bytes, arena, null);
    }

    /** Opens a tap on {@code interfaceName} for the segments sent from {@code serverPort}, from any address. */
    public static PacketTap open(final String interfaceName, final int serverPort) throws java.io.IOException
    {
        return open(interfaceName, null, serverPort, Integer.MAX_VALUE);
    }

    /**
     * Opens a tap on {@code interfaceName} for the segments {@code server}:{@code serverPort} sends, and starts its
     * thread.
     *
     * @param server          the server's address, or null for any.
     * @param stampingThreads the client's stamping threads: the tap's thread takes a core of its own only when the
     *                        process may run on more CPUs than these.
     * @throws java.io.IOException with one line saying what failed: no such interface, no {@code CAP_NET_RAW}, or
     *                             an option the kernel refused.
     */
    public static PacketTap open(final String interfaceName, final InetAddress server, final int serverPort,
        final int stampingThreads) throws java.io.IOException
    {
        return open(interfaceName, server, serverPort, stampingThreads, RING_FRAMES);
    }

    /**
     * As {@link #open(String, InetAddress, int, int)}, with a ring of {@code ringFrames}: a multiple of 256, or for a
     * test's small ring, which fills on purpose, of 16 up to 256 (one block of a page or more).
     */
    public static PacketTap open(final String interfaceName, final InetAddress server, final int serverPort,
        final int stampingThreads, final int ringFrames) throws java.io.IOException
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
            final int fd = openSocket(err);
            final String failed = configure(call, err, fd, server, serverPort, ringFrames);
            final long address = failed == null ? LinuxNet.mmapShared(err, fd, (long)ringFrames * FRAME_BYTES) :
                LinuxNet.MAP_FAILED;
            final String bindFailed = address == LinuxNet.MAP_FAILED ? null : bind(call, err, fd, index);
            if (failed != null || address == LinuxNet.MAP_FAILED || bindFailed != null)
            {
                final String why = failed != null ? failed : bindFailed != null ? bindFailed :
                    "mmap of the ring failed, errno " + LinuxNet.errno(err);
                if (address != LinuxNet.MAP_FAILED)
                {
                    LinuxNet.munmap(address, (long)ringFrames * FRAME_BYTES);
                }
                LinuxNet.close(err, fd);
                throw new java.io.IOException("packet tap on " + interfaceName + ": " + why);
            }
            final PacketTap tap = new PacketTap(interfaceName, fd, address, ringFrames, freeCpu(stampingThreads));
            tap.drainer.start();
            return tap;
        }
    }

    /** @return a packet socket, or an exception that says why there is none (most often: no CAP_NET_RAW). */
    private static int openSocket(final MemorySegment err) throws java.io.IOException
    {
        final int fd = LinuxNet.packetSocket(err);
        if (fd < 0)
        {
            final int e = LinuxNet.errno(err);
            throw new java.io.IOException(e == LinuxNet.EPERM ? NO_CAP_NET_RAW : "socket(AF_PACKET) failed, errno " +
                e);
        }
        return fd;
    }

    /** What a process without the capability is told. */
    static final String NO_CAP_NET_RAW = "a packet tap needs CAP_NET_RAW (run as root, or setcap cap_net_raw+ep on " +
        "the java binary)";

    /**
     * @return why this process cannot open a packet socket (no {@code CAP_NET_RAW}: probed, by opening one and
     * closing it at once, not guessed from the user id), or null when it can.
     */
    public static String privilegeReason()
    {
        if (!LinuxNet.available())
        {
            return "a packet tap needs Linux x86-64";
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment err = LinuxNet.newErrno(call);
            LinuxNet.close(err, openSocket(err));
            return null;
        }
        catch (final java.io.IOException e)
        {
            return e.getMessage();
        }
    }

    /** @return the last CPU of the process's set when it has more than {@code stampingThreads}, else -1. */
    private static int freeCpu(final int stampingThreads)
    {
        final int[] cpus = LinuxNet.allowedCpus();
        return cpus.length > stampingThreads ? cpus[cpus.length - 1] : -1;
    }

    private static String configure(final Arena call, final MemorySegment err, final int fd,
        final InetAddress server, final int serverPort, final int ringFrames)
    {
        final MemorySegment one = call.allocate(4, 4);
        if (LinuxNet.enableRxTimestamps(err, fd, one) != 0)
        {
            return "SO_TIMESTAMPING refused, errno " + LinuxNet.errno(err);
        }
        if (LinuxNet.setOption(err, fd, LinuxNet.SOL_SOCKET, LinuxNet.SO_ATTACH_FILTER,
            TapFilter.program(call, server, serverPort)) != 0)
        {
            return "SO_ATTACH_FILTER refused, errno " + LinuxNet.errno(err);
        }
        // Outgoing packets are no use to the tap, and each would cost a clone on the send path (dev_queue_xmit_nit)
        // before the filter dropped it. Since Linux 4.20; an older kernel refuses, and the filter drops them anyway.
        LinuxNet.setIntOption(err, fd, LinuxNet.SOL_PACKET, LinuxNet.PACKET_IGNORE_OUTGOING, 1, one);
        if (LinuxNet.setIntOption(err, fd, LinuxNet.SOL_PACKET, LinuxNet.PACKET_VERSION, LinuxNet.TPACKET_V2,
            one) != 0)
        {
            return "PACKET_VERSION TPACKET_V2 refused, errno " + LinuxNet.errno(err);
        }
        // The ring's frames carry the same software receive stamp as the TCP socket's reads (skb->tstamp).
        LinuxNet.setIntOption(err, fd, LinuxNet.SOL_PACKET, LinuxNet.PACKET_TIMESTAMP,
            LinuxNet.SOF_TIMESTAMPING_SOFTWARE, one);
        final MemorySegment request = call.allocate(16, 4);
        final int blockBytes = Math.min(BLOCK_BYTES, ringFrames * FRAME_BYTES);
        request.set(ValueLayout.JAVA_INT, 0, blockBytes);
        request.set(ValueLayout.JAVA_INT, 4, ringFrames / (blockBytes / FRAME_BYTES));
        request.set(ValueLayout.JAVA_INT, 8, FRAME_BYTES);
        request.set(ValueLayout.JAVA_INT, 12, ringFrames);
        if (LinuxNet.setOption(err, fd, LinuxNet.SOL_PACKET, LinuxNet.PACKET_RX_RING, request) != 0)
        {
            return "PACKET_RX_RING of " + ringFrames + " frames refused, errno " + LinuxNet.errno(err);
        }
        return null;
    }

    private static String bind(final Arena call, final MemorySegment err, final int fd, final int index)
    {
        final MemorySegment ll = call.allocate(SOCKADDR_LL_BYTES, 4);
        ll.fill((byte)0);
        ll.set(ValueLayout.JAVA_SHORT, 0, (short)LinuxNet.AF_PACKET);
        ll.set(ValueLayout.JAVA_BYTE, 2, (byte)(LinuxNet.ETH_P_ALL >>> 8));
        ll.set(ValueLayout.JAVA_BYTE, 3, (byte)LinuxNet.ETH_P_ALL);
        ll.set(ValueLayout.JAVA_INT, 4, index);
        return LinuxNet.bind(err, fd, ll) == 0 ? null : "bind failed, errno " + LinuxNet.errno(err);
    }

    /**
     * @return why a tap cannot be opened on {@code interfaceName} here (not Linux x86-64, no such interface, no
     * {@code CAP_NET_RAW}), or null when it can: opens one (with a small ring) and closes it.
     */
    public static String unavailableReason(final String interfaceName)
    {
        try (PacketTap tap = open(interfaceName, null, 1, Integer.MAX_VALUE, SMALLEST_RING_FRAMES))
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

    /** @return the ring's frames: the packets it holds while nothing reads. */
    public int ringFrames()
    {
        return frames;
    }

    /** @return the CPU the tap's thread is pinned to, or -1 when it shares the stamping threads' cores. */
    public int ownCpu()
    {
        return ownCpu;
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
     * of the connection on {@code port}, reading the ring first if the tap has not read that far (or not yet the
     * connection's SYN-ACK); or a negative {@link TapFlows} code: {@link TapFlows#LOST} when even the ring did not
     * have it.
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

    /** Reads what the ring holds. @return the packets read. */
    public synchronized int drain()
    {
        return drainLocked();
    }

    /**
     * Reads the frames the kernel has handed over, in order, each once: its stamp and headers into {@link TapFlows},
     * then the frame back to the kernel. At most one lap of the ring, so that a reader's wait is bounded.
     */
    private int drainLocked()
    {
        if (closed)
        {
            return 0;
        }
        final MemorySegment r = ring;
        final int n = frames;
        int at = next;
        int read = 0;
        while (read < n)
        {
            final long base = (long)at * FRAME_BYTES;
            final int status = (int)STATUS.getAcquire(r, base);
            if ((status & TP_STATUS_USER) == 0)
            {
                break;
            }
            // Every frame has the kernel's stamp: the packet's own software stamp (TP_STATUS_TS_SOFTWARE), or, where
            // the packet carried a departure time instead (TCP over loopback), CLOCK_REALTIME read as it was captured.
            final long stampNs = Integer.toUnsignedLong(r.get(ValueLayout.JAVA_INT, base + FRAME_SEC)) *
                1_000_000_000L + Integer.toUnsignedLong(r.get(ValueLayout.JAVA_INT, base + FRAME_NSEC));
            if ((status & TP_STATUS_TS_SOFTWARE) == 0)
            {
                stampedAtCapture++;
            }
            final int net = Short.toUnsignedInt(r.get(ValueLayout.JAVA_SHORT, base + FRAME_NET));
            final int snap = Math.min(r.get(ValueLayout.JAVA_INT, base + FRAME_SNAPLEN), FRAME_BYTES - net);
            flows.accept(r, base + net, snap, stampNs);
            STATUS.setRelease(r, base, TP_STATUS_KERNEL);
            at = at + 1 == n ? 0 : at + 1;
            read++;
        }
        next = at;
        packets += read;
        return read;
    }

    private void drainLoop()
    {
        // The stamps are the kernel's, taken as each packet arrived: a late drain costs ring space, never accuracy.
        final boolean pinned = freeCpu >= 0 && LinuxNet.pinCurrentThread(freeCpu);
        ownCpu = pinned ? freeCpu : -1;
        long everyNs = pinned ? OWN_CORE_DRAIN_EVERY_NS : DRAIN_EVERY_NS;
        final int quietFrames = Math.min(QUIET_FRAMES, frames / 64); // a test's small ring: 0, never quiet
        while (!closed)
        {
            final int read = drain();
            if (!pinned)
            {
                everyNs = nextDrainNs(everyNs, read, quietFrames);
            }
            LockSupport.parkNanos(everyNs);
        }
    }

    /**
     * The wait before the next drain on a shared core: twice the last, up to {@link #QUIET_DRAIN_EVERY_NS}, when the
     * last drain read fewer than {@code quietFrames} frames (the readers keep the ring drained, or nothing comes);
     * back to {@link #DRAIN_EVERY_NS} as soon as one reads more. Worked example: a 1-stream run's drains find a
     * frame or two each, so the waits run 10, 20, 40, 80, 100, 100 ms...: 10 wakes a second instead of 100; a stall of
     * the stamping thread at 100,000 packets a second leaves 1,000 frames within 10 ms, and the next drain is again
     * 10 ms later.
     */
    static long nextDrainNs(final long lastNs, final int framesRead, final int quietFrames)
    {
        return framesRead >= quietFrames ? DRAIN_EVERY_NS : Math.min(QUIET_DRAIN_EVERY_NS, 2 * lastNs);
    }

    /** @return packets read from the ring. */
    public synchronized long packets()
    {
        return packets;
    }

    /**
     * @return packets whose stamp the kernel read as it captured them, rather than the packet's own software stamp:
     * those that carried a departure time instead (on loopback, TCP's; the socket-queue tap read the same clock at
     * the same point, in {@code skb_clear_delivery_time}).
     */
    public synchronized long stampedAtCapture()
    {
        return stampedAtCapture;
    }

    /** @return segments stamped into a followed connection. */
    public synchronized long segments()
    {
        return flows.segments();
    }

    /** @return packets the kernel dropped because the ring was full (each a segment with no stamp). */
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
            arena.close();
            LinuxNet.munmap(ringAddress, (long)frames * FRAME_BYTES);
            LinuxNet.close(LinuxNet.newErrno(Arena.ofAuto()), fd);
        }
    }
}
