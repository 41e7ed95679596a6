package io.tokenclock.transport.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

/**
 * The tap's BPF filter, run by a small interpreter of the classic BPF instructions it uses over packets built here: it
 * keeps exactly the TCP segments from the server's address and port that the host receives, cut to the headers.
 */
final class TapFilterTest
{
    private static final int IPV4 = 0x0800;
    private static final int IPV6 = 0x86dd;
    private static final int HOST = 0;
    private static final int OUTGOING = 4;

    /** Runs the program as the kernel would: the bytes kept, 0 for a packet dropped (or a load out of bounds). */
    private static int run(final int[][] program, final byte[] packet, final int ethertype, final int packetType)
    {
        final ByteBuffer p = ByteBuffer.wrap(packet);
        long a = 0;
        int x = 0;
        int pc = 0;
        while (pc < program.length)
        {
            final int[] insn = program[pc++];
            final int k = insn[3];
            switch (insn[0])
            {
                case 0x20, 0x28, 0x30 ->
                {
                    if (k == 0xfffff000)
                    {
                        a = ethertype;
                    }
                    else if (k == 0xfffff004)
                    {
                        a = packetType;
                    }
                    else
                    {
                        final int size = insn[0] == 0x20 ? 4 : insn[0] == 0x28 ? 2 : 1;
                        if (k + size > packet.length)
                        {
                            return 0;
                        }
                        a = size == 4 ? Integer.toUnsignedLong(p.getInt(k)) : size == 2 ?
                            Short.toUnsignedInt(p.getShort(k)) : Byte.toUnsignedInt(p.get(k));
                    }
                }
                case 0xb1 -> x = 4 * (packet[k] & 0xf);
                case 0x48 ->
                {
                    if (x + k + 2 > packet.length)
                    {
                        return 0;
                    }
                    a = Short.toUnsignedInt(p.getShort(x + k));
                }
                case 0x15 -> pc += a == Integer.toUnsignedLong(k) ? insn[1] : insn[2];
                case 0x45 -> pc += (a & Integer.toUnsignedLong(k)) != 0 ? insn[1] : insn[2];
                case 0x05 -> pc += k;
                case 0x06 ->
                {
                    return Math.min(k, packet.length);
                }
                default -> throw new IllegalStateException("opcode " + insn[0]);
            }
        }
        throw new IllegalStateException("the program ran off its end");
    }

    private static byte[] ipv4(final String source, final int sourcePort, final int protocol, final int fragment)
        throws Exception
    {
        final ByteBuffer b = ByteBuffer.allocate(20 + 20 + 200);
        b.put(0, (byte)0x45).putShort(2, (short)b.capacity()).putShort(6, (short)fragment).put(9, (byte)protocol);
        b.put(12, InetAddress.getByName(source).getAddress()).put(16, InetAddress.getByName("127.0.0.1").getAddress());
        b.putShort(20, (short)sourcePort).putShort(22, (short)40000).put(32, (byte)0x50);
        return b.array();
    }

    private static byte[] ipv6(final String source, final int sourcePort, final int next) throws Exception
    {
        final ByteBuffer b = ByteBuffer.allocate(40 + 20 + 200);
        b.put(0, (byte)0x60).putShort(4, (short)220).put(6, (byte)next);
        b.put(8, InetAddress.getByName(source).getAddress()).put(24, InetAddress.getByName("::1").getAddress());
        b.putShort(40, (short)sourcePort).putShort(42, (short)40000).put(52, (byte)0x50);
        return b.array();
    }

    @Test
    void shouldKeepTheHeadersOfTheServersOwnSegmentsToTheHostAndNothingElse() throws Exception
    {
        final int[][] f = TapFilter.instructions(InetAddress.getByName("127.0.0.1"), 8000).resolved();
        assertEquals(TapFilter.SNAP_BYTES, run(f, ipv4("127.0.0.1", 8000, 6, 0), IPV4, HOST), "the server's segment");
        assertEquals(0, run(f, ipv4("127.0.0.2", 8000, 6, 0), IPV4, HOST), "another address, the same port");
        assertEquals(0, run(f, ipv4("127.0.0.1", 8001, 6, 0), IPV4, HOST), "another port");
        assertEquals(0, run(f, ipv4("127.0.0.1", 8000, 17, 0), IPV4, HOST), "UDP");
        assertEquals(0, run(f, ipv4("127.0.0.1", 8000, 6, 0x2000 | 5), IPV4, HOST), "a fragment");
        assertEquals(0, run(f, ipv4("127.0.0.1", 8000, 6, 0), IPV4, OUTGOING), "the host's own packet");
        assertEquals(0, run(f, ipv6("::1", 8000, 6), IPV6, HOST), "IPv6, for an IPv4 server");
        assertEquals(0, run(f, new byte[] {1, 2, 3}, 0x0806, HOST), "ARP");
    }

    @Test
    void shouldMatchAnIpv6ServerOnEveryWordOfItsAddress() throws Exception
    {
        final int[][] f = TapFilter.instructions(InetAddress.getByName("fd00::1:2"), 443).resolved();
        assertEquals(TapFilter.SNAP_BYTES, run(f, ipv6("fd00::1:2", 443, 6), IPV6, HOST));
        assertEquals(0, run(f, ipv6("fd00::1:3", 443, 6), IPV6, HOST), "the last word differs");
        assertEquals(0, run(f, ipv6("fe00::1:2", 443, 6), IPV6, HOST), "the first word differs");
        assertEquals(0, run(f, ipv6("fd00::1:2", 443, 17), IPV6, HOST), "UDP");
        assertEquals(0, run(f, ipv4("127.0.0.1", 443, 6, 0), IPV4, HOST), "IPv4, for an IPv6 server");
    }

    @Test
    void shouldKeepEveryAddressWhenNoneIsGiven() throws Exception
    {
        final int[][] f = TapFilter.instructions(null, 8000).resolved();
        assertEquals(TapFilter.SNAP_BYTES, run(f, ipv4("10.1.2.3", 8000, 6, 0), IPV4, HOST));
        assertEquals(TapFilter.SNAP_BYTES, run(f, ipv6("fd00::9", 8000, 6), IPV6, HOST));
        assertEquals(0, run(f, ipv4("10.1.2.3", 9000, 6, 0), IPV4, HOST));
    }
}
