package io.tokenclock.transport.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** The SCM_TIMESTAMPING control message, in the byte layouts the kernel writes on x86-64, and what it must survive. */
final class ControlMessagesTest
{
    private static final long SEC = 1_764_619_200L;
    private static final long NSEC = 123_456_789L;

    /** One cmsghdr (len, level, type) and its data, padded to 8 bytes, at the buffer's position. */
    private static void message(final ByteBuffer b, final int level, final int type, final long... words)
    {
        final long len = 16 + 8L * words.length;
        b.putLong(len).putInt(level).putInt(type);
        for (final long w : words)
        {
            b.putLong(w);
        }
    }

    private static ByteBuffer buffer()
    {
        return ByteBuffer.allocate(256).order(ByteOrder.nativeOrder());
    }

    private static long parse(final ByteBuffer b, final int flags)
    {
        return ControlMessages.softwareStampNs(MemorySegment.ofArray(b.array()), b.position(), flags);
    }

    @Test
    void shouldReadTheSoftwareStampOfAnScmTimestampingMessage()
    {
        final ByteBuffer b = buffer();
        message(b, 1, 37, SEC, NSEC, 0, 0, 0, 0);
        assertEquals(64, b.position(), "cmsghdr 16 + scm_timestamping 48");
        assertEquals(SEC * 1_000_000_000L + NSEC, parse(b, 0));
    }

    @Test
    void shouldAcceptTheNewTypeAndSkipOtherMessagesBeforeIt()
    {
        final ByteBuffer b = buffer();
        b.putLong(20).putInt(0).putInt(8).putInt(7).putInt(0); // IP_TTL-like: len 20, padded to 24
        message(b, 1, 65, SEC, NSEC, 0, 0, 0, 0);
        assertEquals(SEC * 1_000_000_000L + NSEC, parse(b, 0));
    }

    @Test
    void shouldSayMissingWhenThereIsNoTimestampingMessage()
    {
        assertEquals(ControlMessages.MISSING, parse(buffer(), 0), "an empty buffer");
        final ByteBuffer b = buffer();
        message(b, 0, 8, 64);
        assertEquals(ControlMessages.MISSING, parse(b, 0), "another message only");
    }

    @Test
    void shouldSayTruncatedWhenTheKernelCutTheBufferOrAMessageRunsPastIt()
    {
        final ByteBuffer b = buffer();
        message(b, 1, 37, SEC, NSEC, 0, 0, 0, 0);
        assertEquals(ControlMessages.TRUNCATED, parse(b, LinuxNet.MSG_CTRUNC), "MSG_CTRUNC");
        final MemorySegment whole = MemorySegment.ofArray(b.array());
        assertEquals(ControlMessages.TRUNCATED, ControlMessages.softwareStampNs(whole, 40, 0), "cut at 40 of 64");
        final ByteBuffer shortOne = buffer();
        shortOne.putLong(24).putInt(1).putInt(37).putLong(SEC);
        assertEquals(ControlMessages.TRUNCATED, parse(shortOne, 0), "a timestamping message shorter than a timespec");
    }

    @Test
    void shouldSayMalformedOrZeroForImpossibleContent()
    {
        final ByteBuffer tiny = buffer();
        tiny.putLong(8).putInt(1).putInt(37);
        assertEquals(ControlMessages.MALFORMED, parse(tiny, 0), "a length shorter than the header");
        final ByteBuffer badNs = buffer();
        message(badNs, 1, 37, SEC, 1_000_000_000L, 0, 0, 0, 0);
        assertEquals(ControlMessages.MALFORMED, parse(badNs, 0), "tv_nsec out of range");
        final ByteBuffer zero = buffer();
        message(zero, 1, 37, 0, 0, 0, 0, 0, 0);
        assertEquals(ControlMessages.ZERO, parse(zero, 0), "only a hardware slot filled");
        assertEquals(ControlMessages.MALFORMED, ControlMessages.softwareStampNs(MemorySegment.ofArray(new byte[8]),
            16, 0), "a length past the buffer");
    }

    @Property(tries = 2000)
    void shouldNeverThrowOnRandomControlBuffers(@ForAll @Size(max = 200) final byte[] bytes,
        @ForAll @IntRange(min = -8, max = 260) final int length, @ForAll final int flags)
    {
        final long r = ControlMessages.softwareStampNs(MemorySegment.ofArray(bytes), length, flags);
        assertTrue(r >= 0 || r == ControlMessages.MISSING || r == ControlMessages.TRUNCATED ||
            r == ControlMessages.MALFORMED || r == ControlMessages.ZERO, "an unclassified result " + r);
    }

    @Property(tries = 500)
    void shouldFindAStampBehindRandomOtherMessages(@ForAll @IntRange(min = 0, max = 5) final int others,
        @ForAll @IntRange(min = 0, max = 999_999_999) final int ns)
    {
        final ByteBuffer b = ByteBuffer.allocate(512).order(ByteOrder.nativeOrder());
        for (int i = 0; i < others; i++)
        {
            message(b, 0, 8 + i, i);
        }
        message(b, 1, 37, SEC, ns, 0, 0, 0, 0);
        assertEquals(SEC * 1_000_000_000L + ns, parse(b, 0));
        assertEquals(ValueLayout.JAVA_LONG.byteSize(), 8);
    }
}
