package io.tokenclock.transport.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Finds the software receive (or, on the error queue, transmit) stamp in the control messages {@code recvmsg}
 * returned: the {@code SCM_TIMESTAMPING} message ({@code SOL_SOCKET}, type 37, or 65 for {@code _NEW}), whose data
 * is three {@code struct timespec}; the software stamp is the first. A transmit stamp also comes with an extended
 * error whose key says which byte it stamped ({@link #sendKey}). x86-64 layout: {@code cmsghdr} is {@code size_t
 * len, int level, int type} (16 bytes), data 8-aligned, each message {@code CMSG_ALIGN(len)} long.
 * <p>
 * Never throws on what the kernel (or a fuzzer) put in the buffer: every outcome is a stamp (>= 0) or one of the
 * negative codes below. Allocation-free.
 */
public final class ControlMessages
{
    /** No timestamping message in the buffer (the socket option is off, or the read carried none). */
    public static final long MISSING = -1;
    /** The buffer was cut ({@code MSG_CTRUNC}, or a message runs past the buffer's end). */
    public static final long TRUNCATED = -2;
    /** A message header that cannot be (length shorter than the header, a stamp out of range). */
    public static final long MALFORMED = -3;
    /** A timestamping message whose software stamp is all zero (the kernel filled only other slots). */
    public static final long ZERO = -4;
    /** An extended error that is not a send stamp: another origin (ICMP), or another kind of stamp. */
    public static final long NOT_A_SEND_STAMP = -5;

    private static final int STAMP = 0;
    private static final int EXTENDED_ERROR = 1;
    static final int EXTENDED_ERROR_BYTES = 16;

    static final int HEADER_BYTES = 16;
    private static final int TIMESPEC_BYTES = 16;
    private static final long NS_PER_S = 1_000_000_000L;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private ControlMessages()
    {
    }

    /** @return a code's name, for the one line a fallback prints. */
    public static String describe(final long code)
    {
        if (code == MISSING)
        {
            return "no SCM_TIMESTAMPING control message";
        }
        if (code == TRUNCATED)
        {
            return "control messages truncated";
        }
        if (code == ZERO)
        {
            return "a zero software stamp";
        }
        if (code == NOT_A_SEND_STAMP)
        {
            return "an extended error that is not a send stamp";
        }
        return code == MALFORMED ? "a malformed control message" : "a stamp";
    }

    /**
     * @param control  the control buffer {@code recvmsg} filled.
     * @param length   {@code msg_controllen} as it returned (the bytes used).
     * @param msgFlags {@code msg_flags} as it returned.
     * @return the software receive stamp, {@code CLOCK_REALTIME} ns since the epoch, or a negative code. From the
     * error queue ({@code MSG_ERRQUEUE}), the same message is a transmit stamp ({@link #sendKey} says of what).
     */
    public static long softwareStampNs(final MemorySegment control, final long length, final int msgFlags)
    {
        final long at = find(control, length, msgFlags, STAMP);
        if (at < 0)
        {
            return at;
        }
        return control.get(LONG, at) < HEADER_BYTES + TIMESPEC_BYTES ? TRUNCATED : stamp(control, at + HEADER_BYTES);
    }

    /**
     * The key of a transmit stamp read from the error queue: the {@code sock_extended_err} ({@code IP_RECVERR} or
     * {@code IPV6_RECVERR}) beside the {@code SCM_TIMESTAMPING} message, whose {@code ee_data} is, with
     * {@code SOF_TIMESTAMPING_OPT_ID} on TCP, the offset of the stamped send's last byte from the first byte sent
     * after the option was set, modulo 2^32. x86-64 layout: u32 ee_errno, u8 ee_origin, ee_type, ee_code, ee_pad,
     * u32 ee_info, u32 ee_data (16 bytes), then the offender's address.
     *
     * @return the key (0 to 2^32 - 1), or a negative code: {@link #NOT_A_SEND_STAMP} for an error of another origin
     * (an ICMP error) or a stamp of another kind (scheduled, acknowledged).
     */
    public static long sendKey(final MemorySegment control, final long length, final int msgFlags)
    {
        final long at = find(control, length, msgFlags, EXTENDED_ERROR);
        if (at < 0)
        {
            return at;
        }
        if (control.get(LONG, at) < HEADER_BYTES + EXTENDED_ERROR_BYTES)
        {
            return TRUNCATED;
        }
        final long e = at + HEADER_BYTES;
        final int errno = control.get(INT, e);
        final int origin = control.get(ValueLayout.JAVA_BYTE, e + 4) & 0xFF;
        final int info = control.get(INT, e + 8);
        if (errno != LinuxNet.ENOMSG || origin != LinuxNet.SO_EE_ORIGIN_TIMESTAMPING || info != LinuxNet.SCM_TSTAMP_SND)
        {
            return NOT_A_SEND_STAMP;
        }
        return control.get(INT, e + 12) & 0xFFFF_FFFFL;
    }

    /**
     * Walks the messages to the first of {@code kind}.
     *
     * @return the offset of its header, or a negative code (a message shorter than its header, one running past
     * the buffer, or none of that kind).
     */
    private static long find(final MemorySegment control, final long length, final int msgFlags, final int kind)
    {
        if ((msgFlags & LinuxNet.MSG_CTRUNC) != 0)
        {
            return TRUNCATED;
        }
        if (length < 0 || length > control.byteSize())
        {
            return MALFORMED;
        }
        long at = 0;
        while (length - at >= HEADER_BYTES)
        {
            final long len = control.get(LONG, at);
            if (len < HEADER_BYTES)
            {
                return MALFORMED;
            }
            if (len > length - at)
            {
                return TRUNCATED;
            }
            if (is(kind, control.get(INT, at + 8), control.get(INT, at + 12)))
            {
                return at;
            }
            at += align(len);
        }
        return MISSING;
    }

    private static boolean is(final int kind, final int level, final int type)
    {
        if (kind == STAMP)
        {
            return level == LinuxNet.SOL_SOCKET &&
                (type == LinuxNet.SO_TIMESTAMPING || type == LinuxNet.SO_TIMESTAMPING_NEW);
        }
        return level == LinuxNet.SOL_IP && type == LinuxNet.IP_RECVERR ||
            level == LinuxNet.SOL_IPV6 && type == LinuxNet.IPV6_RECVERR;
    }

    private static long stamp(final MemorySegment control, final long at)
    {
        final long s = control.get(LONG, at);
        final long ns = control.get(LONG, at + 8);
        if (s == 0 && ns == 0)
        {
            return ZERO;
        }
        if (s < 0 || ns < 0 || ns >= NS_PER_S || s > Long.MAX_VALUE / NS_PER_S - 1)
        {
            return MALFORMED;
        }
        return s * NS_PER_S + ns;
    }

    private static long align(final long len)
    {
        return len + 7 & ~7L;
    }
}
