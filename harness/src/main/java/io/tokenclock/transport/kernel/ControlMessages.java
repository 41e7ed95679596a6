package io.tokenclock.transport.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Finds the software receive stamp in the control messages {@code recvmsg} returned: the
 * {@code SCM_TIMESTAMPING} message ({@code SOL_SOCKET}, type 37, or 65 for {@code _NEW}), whose data is three
 * {@code struct timespec}; the software stamp is the first. x86-64 layout: {@code cmsghdr} is {@code size_t len,
 * int level, int type} (16 bytes), data 8-aligned, each message {@code CMSG_ALIGN(len)} long.
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
        return code == MALFORMED ? "a malformed control message" : "a stamp";
    }

    /**
     * @param control  the control buffer {@code recvmsg} filled.
     * @param length   {@code msg_controllen} as it returned (the bytes used).
     * @param msgFlags {@code msg_flags} as it returned.
     * @return the software receive stamp, {@code CLOCK_REALTIME} ns since the epoch, or a negative code.
     */
    public static long softwareStampNs(final MemorySegment control, final long length, final int msgFlags)
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
            final int level = control.get(INT, at + 8);
            final int type = control.get(INT, at + 12);
            if (level == LinuxNet.SOL_SOCKET &&
                (type == LinuxNet.SO_TIMESTAMPING || type == LinuxNet.SO_TIMESTAMPING_NEW))
            {
                return len < HEADER_BYTES + TIMESPEC_BYTES ? TRUNCATED : stamp(control, at + HEADER_BYTES);
            }
            at += align(len);
        }
        return MISSING;
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
