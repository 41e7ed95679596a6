package io.tokenclock.transport.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What a packet tap learned about each followed connection: the kernel's arrival stamp of every TCP segment, keyed by
 * where its bytes sit in the connection's byte stream. Why: the TCP socket's own receive stamp is the stamp of the
 * last buffer a read consumed, and TCP merges segments that wait in the receive queue ({@code tcp_try_coalesce},
 * keeping the newest stamp), so after a stall of the reading thread every queued event shares the last one's time.
 * A tap ({@link PacketTap}) sees each segment before TCP merges it, each with its own stamp.
 * <p>
 * <b>Offsets.</b> A connection's first byte from the server is offset 0: its sequence number is the SYN-ACK's plus
 * one. A segment carrying sequence numbers [s, s + n) covers offsets [s - base, s - base + n), in 32-bit serial
 * arithmetic, so wrap is harmless for streams under 2 GiB between lookups. The first copy of each byte wins: a
 * retransmission repeats bytes already stamped and adds only what is new.
 * <p>
 * <b>Worked example.</b> SYN-ACK seq 1,000 (base 1,001). Segments seq 1,001 len 120 at t1 (the response head), seq
 * 1,121 len 60 at t2, seq 1,181 len 60 at t3. The read that ends at offset 180 (received bytes 180, its last byte
 * 179) is stamped t2; the one ending at 240 is stamped t3; one ending at 241 is {@link #PENDING} until the tap has
 * read the next segment; one whose byte is older than the {@link #SEGMENTS} kept is {@link #LOST}.
 * <p>
 * Not thread-safe: {@link PacketTap} guards it with its lock. Allocates only in {@link #follow}.
 */
public final class TapFlows
{
    /** The byte's segment, or the connection's SYN-ACK, has not been read from the tap yet (drain, ask again). */
    public static final long PENDING = -10;
    /** The byte's segment is older than the ring keeps, or the tap never saw it (dropped). */
    public static final long LOST = -11;
    /** The connection is not followed. */
    public static final long UNKNOWN = -12;
    /** Segments kept per connection: a stall of 50 ms at one event per 1 ms needs 50. */
    static final int SEGMENTS = 512;
    private static final int MASK = SEGMENTS - 1;
    private static final int PORTS = 65_536;
    private static final int TCP = 6;
    private static final int SYN = 0x02;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(
        java.nio.ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(
        java.nio.ByteOrder.BIG_ENDIAN);

    private final Flow[] byPort = new Flow[PORTS];
    private long segments;
    private long ignored;

    /** One connection's segments: a ring of offset ranges and their stamps. */
    private static final class Flow
    {
        final int[] start = new int[SEGMENTS];
        final int[] end = new int[SEGMENTS];
        final long[] stampNs = new long[SEGMENTS];
        boolean based;
        int base;
        /** Offset after the newest byte stamped so far. */
        int highest;
        long count;
    }

    /** Follows the connection whose local (client) port is {@code port}, from its SYN-ACK on; forgets any before. */
    public void follow(final int port)
    {
        byPort[port & 0xffff] = new Flow();
    }

    /** Stops following {@code port}. */
    public void forget(final int port)
    {
        byPort[port & 0xffff] = null;
    }

    /** @return data segments stamped into a followed connection. */
    public long segments()
    {
        return segments;
    }

    /** @return packets that were not a TCP segment of a followed connection (or could not be parsed). */
    public long ignored()
    {
        return ignored;
    }

    /**
     * Takes one packet as the tap received it: from the IP header on (IPv4 or IPv6 without extension headers), at
     * least as far as the TCP header's flags.
     *
     * @param packet  the captured bytes.
     * @param length  how many of them were captured.
     * @param stampNs the kernel's stamp of the packet (negative: none; the packet is ignored).
     */
    public void accept(final MemorySegment packet, final int length, final long stampNs)
    {
        accept(packet, 0, length, stampNs);
    }

    /**
     * As {@link #accept(MemorySegment, int, long)}, for a packet at {@code at} in {@code memory} (a frame of the
     * tap's ring, read in place: no slice per packet).
     */
    public void accept(final MemorySegment memory, final long at, final int length, final long stampNs)
    {
        final int tcp = stampNs < 0 ? -1 : tcpHeaderAt(memory, at, length);
        final Flow flow = tcp < 0 ? null : byPort[Short.toUnsignedInt(memory.get(SHORT, at + tcp + 2))];
        final int header = tcp < 0 ? 0 :
            (Byte.toUnsignedInt(memory.get(ValueLayout.JAVA_BYTE, at + tcp + 12)) >>> 4) * 4;
        final int payload = tcp < 0 ? -1 : ipPayloadBytes(memory, at, tcp) - header;
        if (flow == null || header < 20 || payload < 0)
        {
            ignored++;
            return;
        }
        final int seq = memory.get(INT, at + tcp + 4);
        if ((memory.get(ValueLayout.JAVA_BYTE, at + tcp + 13) & SYN) != 0)
        {
            flow.based = true;
            flow.base = seq + 1;
            flow.highest = 0;
            flow.count = 0;
            return;
        }
        if (flow.based && payload > 0)
        {
            add(flow, seq - flow.base, payload, stampNs);
        }
    }

    /** @return where the TCP header starts (IPv4, or IPv6 without extension headers), or -1: not TCP, or cut short. */
    private static int tcpHeaderAt(final MemorySegment packet, final long at, final int length)
    {
        if (length < 20)
        {
            return -1;
        }
        final int first = Byte.toUnsignedInt(packet.get(ValueLayout.JAVA_BYTE, at));
        final int tcp;
        if (first >>> 4 == 4)
        {
            tcp = (first & 0xf) * 4;
            if (packet.get(ValueLayout.JAVA_BYTE, at + 9) != TCP)
            {
                return -1;
            }
        }
        else if (first >>> 4 == 6 && length >= 40)
        {
            tcp = 40;
            if (packet.get(ValueLayout.JAVA_BYTE, at + 6) != TCP)
            {
                return -1;
            }
        }
        else
        {
            return -1;
        }
        return tcp < 20 || length < tcp + 14 ? -1 : tcp;
    }

    /** @return the IP payload's length (TCP header and data) by the IP header, whatever was captured. */
    private static int ipPayloadBytes(final MemorySegment packet, final long at, final int tcp)
    {
        return tcp == 40 && Byte.toUnsignedInt(packet.get(ValueLayout.JAVA_BYTE, at)) >>> 4 == 6 ?
            Short.toUnsignedInt(packet.get(SHORT, at + 4)) : Short.toUnsignedInt(packet.get(SHORT, at + 2)) - tcp;
    }

    private void add(final Flow flow, final int from, final int bytes, final long stampNs)
    {
        final int to = from + bytes;
        if (to - flow.highest <= 0)
        {
            return; // all of it stamped before: a retransmission
        }
        final int start = from - flow.highest < 0 ? flow.highest : from;
        final int i = (int)(flow.count & MASK);
        flow.start[i] = start;
        flow.end[i] = to;
        flow.stampNs[i] = stampNs;
        flow.count++;
        flow.highest = to;
        segments++;
    }

    /**
     * @param port        the connection's local port.
     * @param endOffset   bytes the connection has received so far (the read of interest ends there).
     * @return the stamp of the segment that carried byte {@code endOffset - 1}, or {@link #PENDING}, {@link #LOST},
     * {@link #UNKNOWN}.
     */
    public long stampOf(final int port, final long endOffset)
    {
        final Flow flow = byPort[port & 0xffff];
        if (flow == null || endOffset <= 0)
        {
            return UNKNOWN;
        }
        if (!flow.based)
        {
            return PENDING;
        }
        final int at = (int)(endOffset - 1);
        if (at - flow.highest >= 0)
        {
            return PENDING;
        }
        final long oldest = Math.max(0, flow.count - SEGMENTS);
        for (long k = flow.count - 1; k >= oldest; k--)
        {
            final int i = (int)(k & MASK);
            if (at - flow.start[i] >= 0)
            {
                return at - flow.end[i] < 0 ? flow.stampNs[i] : LOST;
            }
        }
        return LOST;
    }

    /** @return a code's name, for a test's message. */
    public static String describe(final long code)
    {
        return code == PENDING ? "pending" : code == LOST ? "lost" : code == UNKNOWN ? "unknown" :
            Long.toString(code);
    }
}
