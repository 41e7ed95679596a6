package io.tokenclock.transport.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The packet tap's classic BPF filter ({@code SO_ATTACH_FILTER}): the kernel runs it on every packet the interface
 * receives, before the tap copies anything, and keeps only what the client needs. That is an IPv4 or IPv6 TCP
 * segment (IPv6 without extension headers; no IPv4 fragment) from the server's address and port, that the host
 * receives ({@code PACKET_HOST}), cut to its first {@link #SNAP_BYTES} (the headers). Everything else costs the
 * filter's few instructions and nothing more: no copy, no frame of the ring.
 * <p>
 * With a {@code SOCK_DGRAM} packet socket offset 0 is the network header; the ethertype and the packet type are read
 * with BPF's ancillary loads. Worked example, server 127.0.0.1:8000: a segment from 127.0.0.1:8000 to the client's
 * port passes ({@code ret 128}); the client's own request to the server is outgoing (and fails {@code PACKET_HOST});
 * a segment from 127.0.0.2:8000 fails the address test; a UDP datagram fails the protocol test.
 * <p>
 * Written with labels, so that each jump is computed, never counted by hand ({@link Program}).
 */
final class TapFilter
{
    /** Bytes kept of each packet: IPv6 (40) and the longest TCP header (60) fit. */
    static final int SNAP_BYTES = 128;
    private static final int LD_W_ABS = 0x20;
    private static final int LD_H_ABS = 0x28;
    private static final int LD_B_ABS = 0x30;
    private static final int LDX_B_MSH = 0xb1;
    private static final int LD_H_IND = 0x48;
    private static final int JEQ = 0x15;
    private static final int JSET = 0x45;
    private static final int JA = 0x05;
    private static final int RET = 0x06;
    private static final int AD_PROTOCOL = 0xfffff000;
    private static final int AD_PACKET_TYPE = 0xfffff004;
    private static final int PACKET_HOST = 0;
    private static final int TCP = 6;
    private static final String DROP = "drop";
    private static final String PORT = "port";

    private TapFilter()
    {
    }

    /**
     * @param server the server's address, or null to keep segments from any address.
     * @return the filter, a {@code struct sock_fprog} pointing at its {@code struct sock_filter}s (u16 code, u8 jt,
     * u8 jf, u32 k), in {@code arena}.
     */
    static MemorySegment program(final Arena arena, final InetAddress server, final int serverPort)
    {
        return instructions(server, serverPort).write(arena);
    }

    /** The filter as instructions, before it is laid out: {@code {code, jt, jf, k}} each. */
    static Program instructions(final InetAddress server, final int serverPort)
    {
        final Program p = new Program();
        final boolean v4 = server == null || server instanceof Inet4Address;
        final boolean v6 = server == null || !(server instanceof Inet4Address);
        p.op(LD_H_ABS, AD_PROTOCOL);
        p.jump(JEQ, 0x0800, v4 ? "v4" : DROP, "v6");
        p.label("v4");
        p.op(LD_B_ABS, 9);
        p.jump(JEQ, TCP, null, DROP);
        p.op(LD_H_ABS, 6);
        p.jump(JSET, 0x1fff, DROP, null); // a fragment
        if (server != null && v4)
        {
            p.op(LD_W_ABS, 12);
            p.jump(JEQ, word(server.getAddress(), 0), null, DROP);
        }
        p.op(LDX_B_MSH, 0); // x = the IPv4 header's length
        p.op(LD_H_IND, 0); // the TCP source port
        p.jump(JA, 0, PORT, PORT);
        p.label("v6");
        p.jump(JEQ, 0x86dd, v6 ? null : DROP, DROP);
        p.op(LD_B_ABS, 6);
        p.jump(JEQ, TCP, null, DROP);
        if (server != null && v6)
        {
            for (int w = 0; w < 4; w++)
            {
                p.op(LD_W_ABS, 8 + 4 * w);
                p.jump(JEQ, word(server.getAddress(), 4 * w), null, DROP);
            }
        }
        p.op(LD_H_ABS, 40);
        p.label(PORT);
        p.jump(JEQ, serverPort & 0xffff, null, DROP);
        p.op(LD_W_ABS, AD_PACKET_TYPE);
        p.jump(JEQ, PACKET_HOST, null, DROP);
        p.op(RET, SNAP_BYTES);
        p.label(DROP);
        p.op(RET, 0);
        return p;
    }

    private static int word(final byte[] address, final int at)
    {
        return ByteBuffer.wrap(address, at, 4).getInt();
    }

    /** A BPF program with labelled jumps: a null label falls through to the next instruction. */
    static final class Program
    {
        private final List<int[]> code = new ArrayList<>();
        private final List<String[]> targets = new ArrayList<>();
        private final Map<String, Integer> labels = new HashMap<>();

        void op(final int opcode, final int k)
        {
            code.add(new int[] {opcode, 0, 0, k});
            targets.add(null);
        }

        void jump(final int opcode, final int k, final String ifTrue, final String ifFalse)
        {
            code.add(new int[] {opcode, 0, 0, k});
            targets.add(new String[] {ifTrue, ifFalse});
        }

        void label(final String name)
        {
            labels.put(name, code.size());
        }

        /** @return every instruction as {code, jt, jf, k}, its jumps resolved (forward, as BPF requires). */
        int[][] resolved()
        {
            final int[][] out = new int[code.size()][];
            for (int pc = 0; pc < code.size(); pc++)
            {
                final int[] insn = code.get(pc).clone();
                final String[] to = targets.get(pc);
                if (to != null)
                {
                    insn[1] = offset(pc, to[0]);
                    insn[2] = offset(pc, to[1]);
                    if (insn[0] == JA)
                    {
                        insn[3] = insn[1];
                        insn[1] = 0;
                        insn[2] = 0;
                    }
                }
                out[pc] = insn;
            }
            return out;
        }

        private int offset(final int pc, final String label)
        {
            if (label == null)
            {
                return 0;
            }
            final Integer at = labels.get(label);
            if (at == null || at <= pc || at - pc - 1 > 255)
            {
                throw new IllegalStateException("BPF jump from " + pc + " to " + label + " (" + at + ")");
            }
            return at - pc - 1;
        }

        MemorySegment write(final Arena arena)
        {
            final int[][] program = resolved();
            final MemorySegment insns = arena.allocate(8L * program.length, 8);
            for (int i = 0; i < program.length; i++)
            {
                insns.set(ValueLayout.JAVA_SHORT, 8L * i, (short)program[i][0]);
                insns.set(ValueLayout.JAVA_BYTE, 8L * i + 2, (byte)program[i][1]);
                insns.set(ValueLayout.JAVA_BYTE, 8L * i + 3, (byte)program[i][2]);
                insns.set(ValueLayout.JAVA_INT, 8L * i + 4, program[i][3]);
            }
            final MemorySegment fprog = arena.allocate(16, 8);
            fprog.fill((byte)0);
            fprog.set(ValueLayout.JAVA_SHORT, 0, (short)program.length);
            fprog.set(ValueLayout.ADDRESS, 8, insns);
            return fprog;
        }
    }
}
