package io.tokenclock.transport.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * A send stamp read from the error queue ({@code MSG_ERRQUEUE} with {@code OPT_TSONLY}), in the byte layouts the
 * kernel writes on x86-64: the {@code SCM_TIMESTAMPING} message first, then the {@code sock_extended_err} of
 * {@code IP_RECVERR} (or {@code IPV6_RECVERR}) with the offender's address; and what the parser must survive.
 */
final class SendStampMessagesTest
{
    private static final long SEC = 1_764_619_200L;
    private static final long NSEC = 987_654_321L;
    private static final long KEY = 3_999_999_999L;

    private static ByteBuffer buffer()
    {
        return ByteBuffer.allocate(256).order(ByteOrder.nativeOrder());
    }

    private static void stamp(final ByteBuffer b)
    {
        b.putLong(64).putInt(LinuxNet.SOL_SOCKET).putInt(LinuxNet.SO_TIMESTAMPING);
        b.putLong(SEC).putLong(NSEC).putLong(0).putLong(0).putLong(0).putLong(0);
    }

    /** The extended error as ip_recv_error puts it: 16 bytes, then a sockaddr_in (16) or sockaddr_in6 (28). */
    private static void extendedError(final ByteBuffer b, final boolean v6, final int errno, final int origin,
        final int info, final long key)
    {
        final int address = v6 ? 28 : 16;
        final int len = 16 + 16 + address;
        b.putLong(len).putInt(v6 ? LinuxNet.SOL_IPV6 : LinuxNet.SOL_IP)
            .putInt(v6 ? LinuxNet.IPV6_RECVERR : LinuxNet.IP_RECVERR);
        b.putInt(errno).put((byte)origin).put((byte)0).put((byte)0).put((byte)0).putInt(info).putInt((int)key);
        b.put(new byte[address]);
        while (b.position() % 8 != 0)
        {
            b.put((byte)0);
        }
    }

    private static long key(final ByteBuffer b, final int flags)
    {
        return ControlMessages.sendKey(MemorySegment.ofArray(b.array()), b.position(), flags);
    }

    private static long stampOf(final ByteBuffer b)
    {
        return ControlMessages.softwareStampNs(MemorySegment.ofArray(b.array()), b.position(), 0);
    }

    @Test
    void shouldReadTheStampAndTheKeyOfAnIpv4SendStamp()
    {
        final ByteBuffer b = buffer();
        stamp(b);
        extendedError(b, false, LinuxNet.ENOMSG, LinuxNet.SO_EE_ORIGIN_TIMESTAMPING, LinuxNet.SCM_TSTAMP_SND, KEY);
        assertEquals(64 + 48, b.position(), "scm_timestamping 64, then cmsghdr 16 + sock_extended_err 16 + sin 16");
        assertEquals(SEC * 1_000_000_000L + NSEC, stampOf(b));
        assertEquals(KEY, key(b, 0), "ee_data read unsigned: a key past 2^31 stays positive");
    }

    @Test
    void shouldReadTheKeyOfAnIpv6SendStampWhateverTheMessagesOrder()
    {
        final ByteBuffer b = buffer();
        extendedError(b, true, LinuxNet.ENOMSG, LinuxNet.SO_EE_ORIGIN_TIMESTAMPING, LinuxNet.SCM_TSTAMP_SND, 41);
        assertEquals(64, b.position(), "cmsghdr 16 + 16 + sin6 28 = 60, padded to 64");
        stamp(b);
        assertEquals(41, key(b, 0));
        assertEquals(SEC * 1_000_000_000L + NSEC, stampOf(b));
    }

    @Test
    void shouldRefuseAnExtendedErrorThatIsNotASendStamp()
    {
        final ByteBuffer icmp = buffer();
        stamp(icmp);
        extendedError(icmp, false, 113, 2, 0, 7); // EHOSTUNREACH from SO_EE_ORIGIN_ICMP
        assertEquals(ControlMessages.NOT_A_SEND_STAMP, key(icmp, 0), "an ICMP error");
        final ByteBuffer acked = buffer();
        stamp(acked);
        extendedError(acked, false, LinuxNet.ENOMSG, LinuxNet.SO_EE_ORIGIN_TIMESTAMPING, 2, 7); // SCM_TSTAMP_ACK
        assertEquals(ControlMessages.NOT_A_SEND_STAMP, key(acked, 0), "an acknowledgement stamp");
    }

    @Test
    void shouldSayMissingWhenEitherMessageIsAbsent()
    {
        final ByteBuffer onlyStamp = buffer();
        stamp(onlyStamp);
        assertEquals(ControlMessages.MISSING, key(onlyStamp, 0), "a stamp without its key");
        final ByteBuffer onlyKey = buffer();
        extendedError(onlyKey, false, LinuxNet.ENOMSG, LinuxNet.SO_EE_ORIGIN_TIMESTAMPING, 0, 1);
        assertEquals(ControlMessages.MISSING, stampOf(onlyKey), "a key without its stamp");
        assertEquals(ControlMessages.MISSING, key(buffer(), 0), "nothing");
    }

    @Test
    void shouldSayTruncatedWhenTheKernelCutTheBufferOrTheErrorIsShort()
    {
        final ByteBuffer b = buffer();
        stamp(b);
        extendedError(b, false, LinuxNet.ENOMSG, LinuxNet.SO_EE_ORIGIN_TIMESTAMPING, 0, 1);
        assertEquals(ControlMessages.TRUNCATED, key(b, LinuxNet.MSG_CTRUNC), "MSG_CTRUNC");
        assertEquals(ControlMessages.TRUNCATED, ControlMessages.sendKey(MemorySegment.ofArray(b.array()), 100, 0),
            "cut at 100 of 112");
        final ByteBuffer shortOne = buffer();
        shortOne.putLong(24).putInt(LinuxNet.SOL_IP).putInt(LinuxNet.IP_RECVERR).putInt(LinuxNet.ENOMSG).putInt(4);
        assertEquals(ControlMessages.TRUNCATED, key(shortOne, 0), "an extended error of 8 of its 16 bytes");
        final ByteBuffer tiny = buffer();
        tiny.putLong(4).putInt(LinuxNet.SOL_IP).putInt(LinuxNet.IP_RECVERR);
        assertEquals(ControlMessages.MALFORMED, key(tiny, 0), "a length shorter than the header");
    }

    @Property(tries = 2000)
    void shouldNeverThrowOnRandomErrorQueueBuffers(@ForAll @Size(max = 200) final byte[] bytes,
        @ForAll @IntRange(min = -8, max = 260) final int length, @ForAll final int flags)
    {
        final long r = ControlMessages.sendKey(MemorySegment.ofArray(bytes), length, flags);
        assertTrue(r >= 0 && r <= 0xFFFF_FFFFL || r == ControlMessages.MISSING || r == ControlMessages.TRUNCATED ||
            r == ControlMessages.MALFORMED || r == ControlMessages.NOT_A_SEND_STAMP, "an unclassified result " + r);
    }

    @Property(tries = 500)
    void shouldFindTheKeyBehindRandomOtherMessages(@ForAll @IntRange(min = 0, max = 4) final int others,
        @ForAll final int key, @ForAll final boolean v6)
    {
        final ByteBuffer b = ByteBuffer.allocate(512).order(ByteOrder.nativeOrder());
        for (int i = 0; i < others; i++)
        {
            b.putLong(24).putInt(LinuxNet.SOL_SOCKET).putInt(20 + i).putLong(i); // neither a stamp nor an error
        }
        stamp(b);
        extendedError(b, v6, LinuxNet.ENOMSG, LinuxNet.SO_EE_ORIGIN_TIMESTAMPING, LinuxNet.SCM_TSTAMP_SND, key);
        assertEquals(key & 0xFFFF_FFFFL, key(b, 0));
        assertEquals(SEC * 1_000_000_000L + NSEC, stampOf(b));
    }
}
