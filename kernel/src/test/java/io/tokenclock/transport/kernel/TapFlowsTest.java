package io.tokenclock.transport.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

/** A packet tap's segments, mapped to the bytes of the connection they carried: known packets, and random ones. */
final class TapFlowsTest
{
    private static final int PORT = 40_000;
    private static final int SYN_ACK = 0x12;
    private static final int ACK = 0x10;

    /** An IPv4 TCP packet to {@code port}: 20 bytes of IP, 20 of TCP, {@code payload} bytes claimed (not captured). */
    static MemorySegment v4(final int port, final int seq, final int flags, final int payload)
    {
        final ByteBuffer b = ByteBuffer.allocate(40);
        b.put(0, (byte)0x45).putShort(2, (short)(40 + payload)).put(9, (byte)6);
        b.putShort(20, (short)8000).putShort(22, (short)port).putInt(24, seq).put(32, (byte)0x50).put(33, (byte)flags);
        return MemorySegment.ofArray(b.array());
    }

    /** The same as IPv6: a 40-byte header whose next header is TCP. */
    static MemorySegment v6(final int port, final int seq, final int flags, final int payload)
    {
        final ByteBuffer b = ByteBuffer.allocate(60);
        b.put(0, (byte)0x60).putShort(4, (short)(20 + payload)).put(6, (byte)6);
        b.putShort(40, (short)8000).putShort(42, (short)port).putInt(44, seq).put(52, (byte)0x50).put(53, (byte)flags);
        return MemorySegment.ofArray(b.array());
    }

    private static void accept(final TapFlows flows, final MemorySegment packet, final long stampNs)
    {
        flows.accept(packet, (int)packet.byteSize(), stampNs);
    }

    @Test
    void shouldStampEachReadWithTheSegmentThatCarriedItsLastByte()
    {
        final TapFlows flows = new TapFlows();
        flows.follow(PORT);
        accept(flows, v4(PORT, 1_000, SYN_ACK, 0), 1);
        accept(flows, v4(PORT, 1_001, ACK, 120), 100);
        accept(flows, v4(PORT, 1_121, ACK, 60), 200);
        accept(flows, v4(PORT, 1_181, ACK, 60), 300);
        assertEquals(100, flows.stampOf(PORT, 1), "the first byte");
        assertEquals(100, flows.stampOf(PORT, 120), "the head's last byte");
        assertEquals(200, flows.stampOf(PORT, 121));
        assertEquals(200, flows.stampOf(PORT, 180), "the worked example in the javadoc");
        assertEquals(300, flows.stampOf(PORT, 240));
        assertEquals(TapFlows.PENDING, flows.stampOf(PORT, 241), "not yet read from the tap");
        assertEquals(3, flows.segments());
    }

    @Test
    void shouldKeepTheFirstArrivalOfRetransmittedBytes()
    {
        final TapFlows flows = new TapFlows();
        flows.follow(PORT);
        accept(flows, v6(PORT, -10, SYN_ACK, 0), 1);
        accept(flows, v6(PORT, -9, ACK, 100), 10);
        accept(flows, v6(PORT, -9, ACK, 100), 20);
        accept(flows, v6(PORT, 41, ACK, 100), 30);
        assertEquals(10, flows.stampOf(PORT, 100), "across the sequence numbers' wrap, and the first copy wins");
        assertEquals(10, flows.stampOf(PORT, 50));
        assertEquals(30, flows.stampOf(PORT, 140), "a segment overlapping stamped bytes adds only its new ones");
        assertEquals(30, flows.stampOf(PORT, 101));
        assertEquals(2, flows.segments());
    }

    @Test
    void shouldSayWhatItDoesNotKnow()
    {
        final TapFlows flows = new TapFlows();
        accept(flows, v4(PORT, 1_000, SYN_ACK, 0), 1);
        assertEquals(TapFlows.UNKNOWN, flows.stampOf(PORT, 10), "not followed");
        flows.follow(PORT);
        accept(flows, v4(PORT, 5, ACK, 10), 1);
        assertEquals(TapFlows.PENDING, flows.stampOf(PORT, 10), "no SYN-ACK seen yet: no base");
        accept(flows, v4(PORT, 1_000, SYN_ACK, 0), 1);
        accept(flows, v4(PORT, 1_001, ACK, 10), 5);
        accept(flows, v4(PORT, 1_031, ACK, 10), 7);
        assertEquals(TapFlows.LOST, flows.stampOf(PORT, 25), "a gap: a segment the tap never saw");
        assertEquals(7, flows.stampOf(PORT, 40));
        for (int i = 0; i < TapFlows.SEGMENTS; i++)
        {
            accept(flows, v4(PORT, 1_041 + 10 * i, ACK, 10), 100 + i);
        }
        assertEquals(TapFlows.LOST, flows.stampOf(PORT, 10), "older than the ring keeps");
        assertEquals(100 + TapFlows.SEGMENTS - 1, flows.stampOf(PORT, 40 + 10L * TapFlows.SEGMENTS));
        flows.forget(PORT);
        assertEquals(TapFlows.UNKNOWN, flows.stampOf(PORT, 40));
    }

    @Test
    void shouldIgnoreWhatIsNotASegmentOfAFollowedConnection()
    {
        final TapFlows flows = new TapFlows();
        flows.follow(PORT);
        accept(flows, v4(PORT, 1_000, SYN_ACK, 0), 1);
        accept(flows, v4(PORT + 1, 1_001, ACK, 10), 5);
        final MemorySegment udp = v4(PORT, 1_001, ACK, 10);
        udp.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 9, (byte)17);
        accept(flows, udp, 5);
        accept(flows, v4(PORT, 1_001, ACK, 10), -1);
        accept(flows, v4(PORT, 1_001, ACK, 10).asSlice(0, 30), 5);
        assertEquals(0, flows.segments());
        assertEquals(4, flows.ignored());
    }

    @Property(tries = 500)
    void shouldNeverThrowOnAnyPacket(@ForAll @Size(max = 128) final byte[] packet, @ForAll final long stampNs,
        @ForAll final long endOffset)
    {
        final TapFlows flows = new TapFlows();
        flows.follow(PORT);
        for (int port = 0; port < 65_536; port += 4_096)
        {
            flows.follow(port);
        }
        flows.accept(MemorySegment.ofArray(packet), packet.length, stampNs);
        if (packet.length >= 24)
        {
            // the same bytes made to look like IPv4 TCP to the followed port, so that the parse goes deep
            packet[0] = (byte)(0x40 | packet[0] & 0xf);
            packet[9] = 6;
            flows.accept(MemorySegment.ofArray(packet), packet.length, Math.abs(stampNs));
        }
        flows.stampOf(PORT, endOffset);
    }
}
