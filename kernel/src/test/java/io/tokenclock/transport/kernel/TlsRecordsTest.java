package io.tokenclock.transport.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * TLS record boundaries on known byte layouts: a backlog is cut at the end of its first whole record, a record or a
 * header split over reads is followed across them, and a peek never moves the cursor. A property replays random
 * record streams in random pieces, read as {@link StampedSocket#readRecord} reads them: every read that completes a
 * record ends exactly at that record's end, and never completes two.
 */
final class TlsRecordsTest
{
    /** A TLS 1.3 application-data record: type 23, legacy version 3.3, big-endian length, then the body. */
    private static byte[] record(final int bodyBytes)
    {
        final byte[] r = new byte[TlsRecords.HEADER_BYTES + bodyBytes];
        r[0] = 23;
        r[1] = 3;
        r[2] = 3;
        r[3] = (byte)(bodyBytes >>> 8);
        r[4] = (byte)bodyBytes;
        for (int i = TlsRecords.HEADER_BYTES; i < r.length; i++)
        {
            r[i] = (byte)(i * 31); // arbitrary ciphertext, headers' bytes included
        }
        return r;
    }

    private static byte[] concat(final byte[]... parts)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (final byte[] p : parts)
        {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static MemorySegment from(final byte[] bytes, final int offset)
    {
        return MemorySegment.ofArray(bytes).asSlice(offset);
    }

    @Test
    void shouldEndABacklogAfterItsFirstWholeRecord()
    {
        final TlsRecords records = new TlsRecords();
        final byte[] two = concat(record(40), record(300));
        assertEquals(45, records.firstEnd(MemorySegment.ofArray(two), two.length));
        assertEquals(45, records.firstEnd(MemorySegment.ofArray(two), two.length), "a peek does not move");
        assertEquals(45, records.firstEnd(MemorySegment.ofArray(two), 45), "exactly one record");
        assertEquals(0, records.firstEnd(MemorySegment.ofArray(two), 44), "one byte short: no end yet");
        assertEquals(0, records.firstEnd(MemorySegment.ofArray(two), 3), "not even the header");
        final byte[] big = record(16_384 + 256);
        assertEquals(big.length, records.firstEnd(MemorySegment.ofArray(big), big.length), "a length over 255");
        assertEquals(5, records.firstEnd(MemorySegment.ofArray(record(0)), 5), "an empty record ends after its header");
    }

    @Test
    void shouldFollowARecordAndAHeaderSplitOverReads()
    {
        final TlsRecords records = new TlsRecords();
        final byte[] stream = concat(record(100), record(20), record(7));
        records.advance(from(stream, 0), 60);
        assertFalse(records.atBoundary(), "inside the first record");
        assertEquals(45, records.firstEnd(from(stream, 60), stream.length - 60), "the first record's rest");
        records.advance(from(stream, 60), 45 + 3);
        assertFalse(records.atBoundary(), "three bytes into the second header");
        assertEquals(2 + 20, records.firstEnd(from(stream, 108), stream.length - 108), "the header's rest and body");
        records.advance(from(stream, 108), 22);
        assertTrue(records.atBoundary());
        assertEquals(12, records.firstEnd(from(stream, 130), 12), "the third record");
        records.reset();
        assertEquals(105, records.firstEnd(MemorySegment.ofArray(stream), stream.length), "reset: a new stream");
    }

    @Property(tries = 500)
    void shouldCompleteAtMostOneRecordPerReadAndEndTheReadAtItsEnd(
        @ForAll @Size(min = 1, max = 12) final List<@IntRange(min = 0, max = 2_000) Integer> bodies,
        @ForAll final long seed)
    {
        final List<Integer> ends = new ArrayList<>();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (final int body : bodies)
        {
            out.writeBytes(record(body));
            ends.add(out.size());
        }
        final byte[] stream = out.toByteArray();
        final Random arrivals = new Random(seed);
        final TlsRecords records = new TlsRecords();
        int read = 0;
        int queued = 0;
        int completed = 0;
        while (read < stream.length)
        {
            // what the socket holds grows by a random segment; the reader then takes one readRecord's worth
            queued = Math.min(stream.length, queued + 1 + arrivals.nextInt(3_000));
            final int peeked = Math.min(queued - read, StampedSocket.READ_BYTES);
            final int end = records.firstEnd(from(stream, read), peeked);
            final int n = end > 0 ? end : peeked;
            records.advance(from(stream, read), n);
            read += n;
            int endsInRead = 0;
            while (completed < ends.size() && ends.get(completed) <= read)
            {
                endsInRead++;
                completed++;
            }
            assertTrue(endsInRead <= 1, "one record per read at most");
            assertEquals(endsInRead == 1, end > 0, "a read completes a record exactly when one ended in the peek");
            if (endsInRead == 1)
            {
                assertEquals(ends.get(completed - 1), read, "the read ends at the end of the record it completes");
            }
            assertEquals(endsInRead == 1, records.atBoundary(), "at a boundary after a record, inside one otherwise");
        }
        assertEquals(ends.size(), completed);
        assertTrue(records.atBoundary());
    }
}
