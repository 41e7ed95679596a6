package io.tokenclock.transport.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * The few libc calls the kernel-stamped client makes, as FFM downcalls, each returning the call's result and leaving
 * {@code errno} in a caller-owned segment ({@link #newErrno}). Linux on x86-64 only ({@link #available}): the struct
 * layouts below (msghdr, the packed epoll_event, cmsghdr) are that ABI's.
 * <p>
 * Why FFM and not JNA: a JNA call costs about a microsecond, and this is once per read. The handles are built once.
 */
public final class LinuxNet
{
    public static final int AF_INET = 2;
    public static final int AF_INET6 = 10;
    static final int SOCK_STREAM = 1;
    static final int SOCK_NONBLOCK = 0x800;
    static final int SOCK_CLOEXEC = 0x80000;
    public static final int SOL_SOCKET = 1;
    static final int SO_ERROR = 4;
    static final int SO_KEEPALIVE = 9;
    /** {@code SO_TIMESTAMPING} (the 64-bit "old" value; {@code _NEW} is 65, same layout on 64-bit). */
    public static final int SO_TIMESTAMPING = 37;
    public static final int SO_TIMESTAMPING_NEW = 65;
    public static final int SOF_TIMESTAMPING_RX_SOFTWARE = 1 << 3;
    public static final int SOF_TIMESTAMPING_SOFTWARE = 1 << 4;
    /** A software stamp when a send's last byte is handed to the device, queued on the socket's error queue. */
    public static final int SOF_TIMESTAMPING_TX_SOFTWARE = 1 << 1;
    /** Each transmit stamp carries a key: for TCP, the offset of the send's last byte (sock_extended_err.ee_data). */
    public static final int SOF_TIMESTAMPING_OPT_ID = 1 << 7;
    /** The error queue carries only the stamp and its key, not a copy of the packet. */
    public static final int SOF_TIMESTAMPING_OPT_TSONLY = 1 << 11;
    /** {@code IPPROTO_IP} and its extended-error control message ({@code IP_RECVERR}). */
    public static final int SOL_IP = 0;
    public static final int IP_RECVERR = 11;
    /** {@code IPPROTO_IPV6} and its extended-error control message ({@code IPV6_RECVERR}). */
    public static final int SOL_IPV6 = 41;
    public static final int IPV6_RECVERR = 25;
    /** {@code sock_extended_err.ee_errno} of a timestamp, its origin and the type of a send stamp. */
    public static final int ENOMSG = 42;
    public static final int SO_EE_ORIGIN_TIMESTAMPING = 4;
    public static final int SCM_TSTAMP_SND = 0;
    static final int IPPROTO_TCP = 6;
    static final int TCP_NODELAY = 1;
    public static final int MSG_PEEK = 2;
    public static final int MSG_CTRUNC = 8;
    public static final int MSG_DONTWAIT = 0x40;
    public static final int MSG_ERRQUEUE = 0x2000;
    static final int MSG_NOSIGNAL = 0x4000;
    public static final int EPOLLIN = 1;
    public static final int EPOLLOUT = 4;
    public static final int EPOLLERR = 8;
    public static final int EPOLLHUP = 0x10;
    public static final int EPOLLRDHUP = 0x2000;
    public static final int EPOLL_CTL_ADD = 1;
    public static final int EPOLL_CTL_DEL = 2;
    public static final int EPOLL_CTL_MOD = 3;
    /** The packed {@code struct epoll_event} of x86-64: u32 events, u64 data. */
    public static final int EPOLL_EVENT_BYTES = 12;
    static final int EFD_NONBLOCK = 0x800;
    static final long FIONREAD = 0x541B;
    public static final int EAGAIN = 11;
    public static final int EINTR = 4;
    public static final int EINPROGRESS = 115;
    /** The packet tap's socket: {@code AF_PACKET}, {@code SOCK_DGRAM} (from the network header on), all protocols. */
    static final int AF_PACKET = 17;
    static final int SOCK_DGRAM = 2;
    static final int ETH_P_ALL = 3;
    static final int SO_RCVBUF = 8;
    static final int SO_ATTACH_FILTER = 26;
    static final int SO_RCVBUFFORCE = 33;
    static final int SOL_PACKET = 263;
    static final int PACKET_STATISTICS = 6;
    static final int PACKET_IGNORE_OUTGOING = 23;
    /** The packet tap's ring: {@code PACKET_VERSION} to {@code TPACKET_V2}, then {@code PACKET_RX_RING} and mmap. */
    static final int PACKET_VERSION = 10;
    static final int PACKET_RX_RING = 5;
    static final int PACKET_TIMESTAMP = 17;
    static final int TPACKET_V2 = 1;
    static final int PROT_READ_WRITE = 3;
    static final int MAP_SHARED = 1;
    /** {@code MAP_FAILED}, {@code (void *)-1}. */
    static final long MAP_FAILED = -1L;
    public static final int EPERM = 1;
    /** {@code struct mmsghdr} of x86-64: a msghdr and the received length, padded to 64 bytes. */
    public static final long MMSGHDR_BYTES = 64;
    public static final long MMSG_LEN = 56;
    static final int CLOCK_REALTIME = 0;
    static final int CLOCK_MONOTONIC = 1;
    /** {@code struct msghdr} of x86-64 (56 bytes) and its fields' offsets. */
    public static final long MSGHDR_BYTES = 56;
    public static final long MSG_IOV = 16;
    public static final long MSG_IOVLEN = 24;
    public static final long MSG_CONTROL = 32;
    public static final long MSG_CONTROLLEN = 40;
    public static final long MSG_FLAGS = 48;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    private static final VarHandle ERRNO_HANDLE = Linker.Option.captureStateLayout()
        .varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final boolean AVAILABLE = isLinuxAmd64();
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong J = ValueLayout.JAVA_LONG;
    private static final ValueLayout A = ValueLayout.ADDRESS;

    private static final MethodHandle SOCKET = handle("socket", FunctionDescriptor.of(I, I, I, I));
    private static final MethodHandle CONNECT = handle("connect", FunctionDescriptor.of(I, I, A, I));
    private static final MethodHandle SETSOCKOPT = handle("setsockopt", FunctionDescriptor.of(I, I, I, I, A, I));
    private static final MethodHandle GETSOCKOPT = handle("getsockopt", FunctionDescriptor.of(I, I, I, I, A, A));
    private static final MethodHandle RECVMSG = handle("recvmsg", FunctionDescriptor.of(J, I, A, I));
    private static final MethodHandle SEND = handle("send", FunctionDescriptor.of(J, I, A, J, I));
    private static final MethodHandle CLOSE = handle("close", FunctionDescriptor.of(I, I));
    private static final MethodHandle IOCTL = handle("ioctl", FunctionDescriptor.of(I, I, J, A));
    private static final MethodHandle EPOLL_CREATE1 = handle("epoll_create1", FunctionDescriptor.of(I, I));
    private static final MethodHandle EPOLL_CTL = handle("epoll_ctl", FunctionDescriptor.of(I, I, I, I, A));
    private static final MethodHandle EPOLL_WAIT = handle("epoll_wait", FunctionDescriptor.of(I, I, A, I, I));
    private static final MethodHandle EVENTFD = handle("eventfd", FunctionDescriptor.of(I, I, I));
    private static final MethodHandle WRITE = handle("write", FunctionDescriptor.of(J, I, A, J));
    private static final MethodHandle READ = handle("read", FunctionDescriptor.of(J, I, A, J));
    private static final MethodHandle BIND = handle("bind", FunctionDescriptor.of(I, I, A, I));
    private static final MethodHandle GETSOCKNAME = handle("getsockname", FunctionDescriptor.of(I, I, A, A));
    private static final MethodHandle RECVMMSG = handle("recvmmsg", FunctionDescriptor.of(I, I, A, I, I, A));
    private static final MethodHandle IF_NAMETOINDEX = handle("if_nametoindex", FunctionDescriptor.of(I, A));
    private static final MethodHandle CLOCK_GETTIME = handle("clock_gettime", FunctionDescriptor.of(I, I, A));
    private static final MethodHandle SCHED_SETSCHEDULER = handle("sched_setscheduler",
        FunctionDescriptor.of(I, I, I, A));
    private static final int SCHED_IDLE = 5;
    private static final MethodHandle MMAP = handle("mmap", FunctionDescriptor.of(A, A, J, I, I, I, J));
    private static final MethodHandle MUNMAP = handle("munmap", FunctionDescriptor.of(I, A, J));
    private static final MethodHandle SCHED_SETAFFINITY = handle("sched_setaffinity",
        FunctionDescriptor.of(I, I, J, A));
    private static final MethodHandle SCHED_GETAFFINITY = handle("sched_getaffinity",
        FunctionDescriptor.of(I, I, J, A));
    /** A {@code cpu_set_t} of 1,024 CPUs, as glibc's. */
    private static final int CPU_SET_BYTES = 128;

    private LinuxNet()
    {
    }

    /** @return whether this JVM runs on Linux x86-64 and the calls above linked. */
    public static boolean available()
    {
        return AVAILABLE && SOCKET != null && RECVMSG != null && CLOCK_GETTIME != null;
    }

    /** @return a segment that receives {@code errno} after each call that takes it. */
    public static MemorySegment newErrno(final Arena arena)
    {
        return arena.allocate(Linker.Option.captureStateLayout());
    }

    /** @return the {@code errno} the last call left in {@code state}. */
    public static int errno(final MemorySegment state)
    {
        return (int)ERRNO_HANDLE.get(state, 0L);
    }

    /** @return a new non-blocking, close-on-exec TCP socket of {@code family}, or -1 with {@code errno} set. */
    public static int socket(final MemorySegment errno, final int family)
    {
        try
        {
            return (int)SOCKET.invokeExact(errno, family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        }
        catch (final Throwable t)
        {
            throw failed("socket", t);
        }
    }

    /** Starts connecting {@code fd} to the sockaddr {@code address}: 0, or -1 with {@code errno} (EINPROGRESS). */
    public static int connect(final MemorySegment errno, final int fd, final MemorySegment address)
    {
        try
        {
            return (int)CONNECT.invokeExact(errno, fd, address, (int)address.byteSize());
        }
        catch (final Throwable t)
        {
            throw failed("connect", t);
        }
    }

    /** Sets an int socket option through {@code scratchInt} (no allocation): 0, or -1 with {@code errno} set. */
    public static int setIntOption(final MemorySegment errno, final int fd, final int level, final int name,
        final int value, final MemorySegment scratchInt)
    {
        scratchInt.set(I, 0, value);
        try
        {
            return (int)SETSOCKOPT.invokeExact(errno, fd, level, name, scratchInt, 4);
        }
        catch (final Throwable t)
        {
            throw failed("setsockopt", t);
        }
    }

    /** @return the socket's pending error ({@code SO_ERROR}), or -1 when the call failed. */
    public static int socketError(final MemorySegment errno, final int fd, final MemorySegment scratch8)
    {
        scratch8.set(I, 0, 0);
        scratch8.set(I, 4, 4);
        final int r;
        try
        {
            r = (int)GETSOCKOPT.invokeExact(errno, fd, SOL_SOCKET, SO_ERROR, scratch8, scratch8.asSlice(4));
        }
        catch (final Throwable t)
        {
            throw failed("getsockopt", t);
        }
        return r == 0 ? scratch8.get(I, 0) : -1;
    }

    public static int setNoDelay(final MemorySegment errno, final int fd, final MemorySegment scratchInt)
    {
        return setIntOption(errno, fd, IPPROTO_TCP, TCP_NODELAY, 1, scratchInt);
    }

    public static int setKeepAlive(final MemorySegment errno, final int fd, final MemorySegment scratchInt)
    {
        return setIntOption(errno, fd, SOL_SOCKET, SO_KEEPALIVE, 1, scratchInt);
    }

    /** Asks for software receive stamps on every read of {@code fd}. */
    public static int enableRxTimestamps(final MemorySegment errno, final int fd, final MemorySegment scratchInt)
    {
        return setIntOption(errno, fd, SOL_SOCKET, SO_TIMESTAMPING,
            SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE, scratchInt);
    }

    /** The flags {@link #enableTxTimestamps} sets: receive stamps as before, and keyed send stamps alone. */
    public static final int TX_STAMP_FLAGS = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE |
        SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_OPT_ID | SOF_TIMESTAMPING_OPT_TSONLY;

    /**
     * Asks for software transmit stamps as well as receive stamps on the connected TCP socket {@code fd}: each send's
     * last byte is stamped when handed to the device and the stamp queued, keyed by that byte's offset, on the error
     * queue. The kernel refuses the key ({@code OPT_ID}, EINVAL) on a TCP socket not yet connected, and counts the
     * offsets from the first byte not yet acknowledged when the option is set: so it is set once connected, before
     * anything is sent. {@code flags}: {@link #TX_STAMP_FLAGS} (a test adds a bit the kernel does not know, which
     * it refuses with EINVAL, to take the refused path).
     */
    public static int enableTxTimestamps(final MemorySegment errno, final int fd, final int flags,
        final MemorySegment scratchInt)
    {
        return setIntOption(errno, fd, SOL_SOCKET, SO_TIMESTAMPING, flags, scratchInt);
    }

    /** Binds {@code fd} to the sockaddr {@code address}: 0, or -1 with {@code errno} set. */
    public static int bind(final MemorySegment errno, final int fd, final MemorySegment address)
    {
        try
        {
            return (int)BIND.invokeExact(errno, fd, address, (int)address.byteSize());
        }
        catch (final Throwable t)
        {
            throw failed("bind", t);
        }
    }

    /**
     * @param address a sockaddr buffer of at least 28 bytes.
     * @return the local port of {@code fd} ({@code getsockname}, IPv4 or IPv6), or -1 with {@code errno} set.
     */
    public static int localPort(final MemorySegment errno, final int fd, final MemorySegment address,
        final MemorySegment scratchInt)
    {
        scratchInt.set(I, 0, (int)address.byteSize());
        final int r;
        try
        {
            r = (int)GETSOCKNAME.invokeExact(errno, fd, address, scratchInt);
        }
        catch (final Throwable t)
        {
            throw failed("getsockname", t);
        }
        return r != 0 ? -1 : (Byte.toUnsignedInt(address.get(ValueLayout.JAVA_BYTE, 2)) << 8) |
            Byte.toUnsignedInt(address.get(ValueLayout.JAVA_BYTE, 3));
    }

    /** @return a new close-on-exec, non-blocking {@code AF_PACKET} datagram socket, receiving nothing until bound. */
    static int packetSocket(final MemorySegment errno)
    {
        try
        {
            return (int)SOCKET.invokeExact(errno, AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        }
        catch (final Throwable t)
        {
            throw failed("socket", t);
        }
    }

    /** Sets a socket option whose value is the whole of {@code value}: 0, or -1 with {@code errno} set. */
    static int setOption(final MemorySegment errno, final int fd, final int level, final int name,
        final MemorySegment value)
    {
        try
        {
            return (int)SETSOCKOPT.invokeExact(errno, fd, level, name, value, (int)value.byteSize());
        }
        catch (final Throwable t)
        {
            throw failed("setsockopt", t);
        }
    }

    /** Reads a socket option into {@code value} (its size is the length offered): 0, or -1 with {@code errno}. */
    static int getOption(final MemorySegment errno, final int fd, final int level, final int name,
        final MemorySegment value, final MemorySegment scratchInt)
    {
        scratchInt.set(I, 0, (int)value.byteSize());
        try
        {
            return (int)GETSOCKOPT.invokeExact(errno, fd, level, name, value, scratchInt);
        }
        catch (final Throwable t)
        {
            throw failed("getsockopt", t);
        }
    }

    /** @return the messages {@code recvmmsg} filled of {@code count} (never blocking), or -1 with {@code errno}. */
    static int recvmmsg(final MemorySegment errno, final int fd, final MemorySegment messages, final int count)
    {
        try
        {
            return (int)RECVMMSG.invokeExact(errno, fd, messages, count, MSG_DONTWAIT, MemorySegment.NULL);
        }
        catch (final Throwable t)
        {
            throw failed("recvmmsg", t);
        }
    }

    /**
     * Puts the calling thread in the idle scheduling class ({@code SCHED_IDLE}): it then runs only when nothing else
     * wants the core. An unprivileged thread may do this to itself.
     *
     * @return whether the kernel took it.
     */
    static boolean lowerCurrentThreadToIdle()
    {
        if (SCHED_SETSCHEDULER == null)
        {
            return false;
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment param = call.allocate(4, 4);
            param.set(I, 0, 0);
            return (int)SCHED_SETSCHEDULER.invokeExact(newErrno(call), 0, SCHED_IDLE, param) == 0;
        }
        catch (final Throwable t)
        {
            throw failed("sched_setscheduler", t);
        }
    }

    /**
     * Maps {@code length} bytes of {@code fd} shared, read and write (a packet socket's ring).
     *
     * @return the mapping's address, or {@link #MAP_FAILED} with {@code errno} set.
     */
    static long mmapShared(final MemorySegment errno, final int fd, final long length)
    {
        try
        {
            final MemorySegment at = (MemorySegment)MMAP.invokeExact(errno, MemorySegment.NULL, length,
                PROT_READ_WRITE, MAP_SHARED, fd, 0L);
            return at.address();
        }
        catch (final Throwable t)
        {
            throw failed("mmap", t);
        }
    }

    /** Unmaps what {@link #mmapShared} mapped at {@code address}. */
    static int munmap(final long address, final long length)
    {
        try (Arena call = Arena.ofConfined())
        {
            return (int)MUNMAP.invokeExact(newErrno(call), MemorySegment.ofAddress(address), length);
        }
        catch (final Throwable t)
        {
            throw failed("munmap", t);
        }
    }

    /**
     * @return the CPUs the calling thread may run on ({@code sched_getaffinity}), lowest first; empty when the call
     * failed or is not there.
     */
    static int[] allowedCpus()
    {
        if (SCHED_GETAFFINITY == null)
        {
            return new int[0];
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment set = call.allocate(CPU_SET_BYTES, 8);
            set.fill((byte)0);
            if ((int)SCHED_GETAFFINITY.invokeExact(newErrno(call), 0, (long)CPU_SET_BYTES, set) != 0)
            {
                return new int[0];
            }
            int count = 0;
            final int[] cpus = new int[CPU_SET_BYTES * 8];
            for (int cpu = 0; cpu < cpus.length; cpu++)
            {
                if ((set.get(ValueLayout.JAVA_BYTE, cpu >>> 3) & 1 << (cpu & 7)) != 0)
                {
                    cpus[count++] = cpu;
                }
            }
            return java.util.Arrays.copyOf(cpus, count);
        }
        catch (final Throwable t)
        {
            throw failed("sched_getaffinity", t);
        }
    }

    /**
     * Pins the calling thread to {@code cpu} ({@code sched_setaffinity} of thread 0, the caller; any thread may do
     * this to itself within its process's set).
     *
     * @return whether the kernel took it.
     */
    public static boolean pinCurrentThread(final int cpu)
    {
        if (SCHED_SETAFFINITY == null || cpu < 0 || cpu >= CPU_SET_BYTES * 8)
        {
            return false;
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment set = call.allocate(CPU_SET_BYTES, 8);
            set.fill((byte)0);
            set.set(ValueLayout.JAVA_BYTE, cpu >>> 3, (byte)(1 << (cpu & 7)));
            return (int)SCHED_SETAFFINITY.invokeExact(newErrno(call), 0, (long)CPU_SET_BYTES, set) == 0;
        }
        catch (final Throwable t)
        {
            throw failed("sched_setaffinity", t);
        }
    }

    /** @return the index of the network interface {@code name}, or 0 when there is none. */
    static int interfaceIndex(final String name)
    {
        try (Arena call = Arena.ofConfined())
        {
            return (int)IF_NAMETOINDEX.invokeExact(LinuxNet.newErrno(call), call.allocateFrom(name));
        }
        catch (final Throwable t)
        {
            throw failed("if_nametoindex", t);
        }
    }

    /** @return the bytes read into {@code msghdr}'s buffer (its control data holds the stamp), 0 at EOF, or -1. */
    public static long recvmsg(final MemorySegment errno, final int fd, final MemorySegment msghdr, final int flags)
    {
        try
        {
            return (long)RECVMSG.invokeExact(errno, fd, msghdr, flags);
        }
        catch (final Throwable t)
        {
            throw failed("recvmsg", t);
        }
    }

    /** @return the bytes sent of {@code length}, without blocking and without SIGPIPE, or -1 with {@code errno}. */
    public static long send(final MemorySegment errno, final int fd, final MemorySegment bytes, final long length)
    {
        try
        {
            return (long)SEND.invokeExact(errno, fd, bytes, length, MSG_NOSIGNAL | MSG_DONTWAIT);
        }
        catch (final Throwable t)
        {
            throw failed("send", t);
        }
    }

    /** Closes {@code fd}: 0, or -1 with {@code errno} set. */
    public static int close(final MemorySegment errno, final int fd)
    {
        try
        {
            return (int)CLOSE.invokeExact(errno, fd);
        }
        catch (final Throwable t)
        {
            throw failed("close", t);
        }
    }

    /** @return the bytes queued for reading on {@code fd} ({@code FIONREAD}), or -1. */
    public static int queuedBytes(final MemorySegment errno, final int fd, final MemorySegment scratchInt)
    {
        final int r;
        try
        {
            r = (int)IOCTL.invokeExact(errno, fd, FIONREAD, scratchInt);
        }
        catch (final Throwable t)
        {
            throw failed("ioctl", t);
        }
        return r == 0 ? scratchInt.get(I, 0) : -1;
    }

    /** @return a new close-on-exec epoll descriptor, or -1 with {@code errno} set. */
    public static int epollCreate(final MemorySegment errno)
    {
        try
        {
            return (int)EPOLL_CREATE1.invokeExact(errno, 0x80000);
        }
        catch (final Throwable t)
        {
            throw failed("epoll_create1", t);
        }
    }

    /** Registers, changes or removes {@code fd} in {@code epfd} with {@code events} and {@code data} as its key. */
    public static int epollCtl(final MemorySegment errno, final int epfd, final int op, final int fd,
        final int events, final long data, final MemorySegment event)
    {
        event.set(ValueLayout.JAVA_INT_UNALIGNED, 0, events);
        event.set(ValueLayout.JAVA_LONG_UNALIGNED, 4, data);
        try
        {
            return (int)EPOLL_CTL.invokeExact(errno, epfd, op, fd, event);
        }
        catch (final Throwable t)
        {
            throw failed("epoll_ctl", t);
        }
    }

    /** @return the ready events written to {@code events} (at most {@code max}) within {@code timeoutMs}, or -1. */
    public static int epollWait(final MemorySegment errno, final int epfd, final MemorySegment events,
        final int max, final int timeoutMs)
    {
        try
        {
            return (int)EPOLL_WAIT.invokeExact(errno, epfd, events, max, timeoutMs);
        }
        catch (final Throwable t)
        {
            throw failed("epoll_wait", t);
        }
    }

    /** @return a new non-blocking, close-on-exec eventfd (the loop's wake-up), or -1 with {@code errno} set. */
    public static int eventfd(final MemorySegment errno)
    {
        try
        {
            return (int)EVENTFD.invokeExact(errno, 0, EFD_NONBLOCK | SOCK_CLOEXEC);
        }
        catch (final Throwable t)
        {
            throw failed("eventfd", t);
        }
    }

    /** Adds 1 to an eventfd's counter (a wake-up). */
    public static long eventfdSignal(final MemorySegment errno, final int fd, final MemorySegment scratch8)
    {
        scratch8.set(J, 0, 1L);
        try
        {
            return (long)WRITE.invokeExact(errno, fd, scratch8, 8L);
        }
        catch (final Throwable t)
        {
            throw failed("write", t);
        }
    }

    /** Resets an eventfd's counter. */
    public static long eventfdDrain(final MemorySegment errno, final int fd, final MemorySegment scratch8)
    {
        try
        {
            return (long)READ.invokeExact(errno, fd, scratch8, 8L);
        }
        catch (final Throwable t)
        {
            throw failed("read", t);
        }
    }

    /** @return {@code CLOCK_REALTIME}, ns since the epoch. {@code ts} is a 16-byte scratch segment. */
    public static long realtimeNs(final MemorySegment ts)
    {
        return clock(CLOCK_REALTIME, ts);
    }

    /** @return {@code CLOCK_MONOTONIC}, ns (the clock of {@code System.nanoTime()} on Linux). */
    public static long monotonicNs(final MemorySegment ts)
    {
        return clock(CLOCK_MONOTONIC, ts);
    }

    private static long clock(final int id, final MemorySegment ts)
    {
        try
        {
            final int r = (int)CLOCK_GETTIME.invokeExact(id, ts);
            return r == 0 ? ts.get(J, 0) * 1_000_000_000L + ts.get(J, 8) : Long.MIN_VALUE;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("clock_gettime", t);
        }
    }

    private static IllegalStateException failed(final String call, final Throwable t)
    {
        return new IllegalStateException(call + " failed to run", t);
    }

    // Linker.downcallHandle is restricted: jvm.flags grants it (native access for the unnamed module), and this is the
    // one place the harness makes a downcall handle.
    @SuppressWarnings("restricted")
    private static MethodHandle handle(final String name, final FunctionDescriptor descriptor)
    {
        if (!AVAILABLE)
        {
            return null;
        }
        try
        {
            final MemorySegment symbol = LINKER.defaultLookup().find(name)
                .or(() -> SymbolLookup.loaderLookup().find(name)).orElse(null);
            if (symbol == null)
            {
                return null;
            }
            return "clock_gettime".equals(name) ? LINKER.downcallHandle(symbol, descriptor) :
                LINKER.downcallHandle(symbol, descriptor, ERRNO);
        }
        catch (final RuntimeException | LinkageError unavailable)
        {
            return null;
        }
    }

    private static boolean isLinuxAmd64()
    {
        final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        final String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return os.contains("linux") && (arch.equals("amd64") || arch.equals("x86_64"));
    }
}
