package io.tokenclock.recording;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The fixed-size records that carry chunk arrivals from the I/O threads to the collector, and the many-to-one Agrona
 * ring buffer they cross.
 * <p>
 * Layout (little-endian, {@link #RECORD_LENGTH} = 24 bytes, written in place with {@code tryClaim}/{@code commit}, so
 * publishing copies nothing and allocates nothing):
 * <pre>
 *  0  int  slot index
 *  4  int  tokens in the chunk, or -1 when unknown (END: 0)
 *  8  long arrival stamp, ns (END: the end stamp, which the collector takes from the slot)
 * 16  int  flags: {@link RequestSlot#CHUNK_REASONING}, {@link RequestSlot#CHUNK_OUTPUT} (END: 0)
 * 20  int  reserved (never written: the ring zeroes what its consumer has read, so it reads 0)
 * </pre>
 * A record carries only what the {@link Collector} reads; the rest of what a request produced travels in its slot.
 * In the ring each record is preceded by Agrona's 8-byte header and aligned to 8 bytes, so it takes
 * {@link #FRAMED_LENGTH} = 32 bytes: a ring of 4 MiB holds 131,072 records.
 * <p>
 * Producers (any number of I/O threads) are thread-safe; there is one consumer, the {@link Collector}.
 * When the ring is full the producer spins until there is room: a record is never dropped, and the stamp it carries
 * was taken before the wait, so back-pressure delays the collector's view but never changes a measurement. The
 * number of such waits is counted and reported.
 */
public final class ChunkRecords
{
    public static final int MSG_CHUNK = 1;
    public static final int MSG_END = 2;

    /** A record's own bytes, as claimed from the ring. */
    public static final int RECORD_LENGTH = 24;
    /** The bytes a record takes in the ring: Agrona's header plus the record, aligned. */
    public static final int FRAMED_LENGTH =
        BitUtil.align(RecordDescriptor.HEADER_LENGTH + RECORD_LENGTH, RecordDescriptor.ALIGNMENT);
    public static final int SLOT_OFFSET = 0;
    static final int TOKENS_OFFSET = 4;
    /** Offset of the arrival stamp; public for the ring benchmark's reader. */
    public static final int NS_OFFSET = 8;
    static final int FLAGS_OFFSET = 16;

    private final RingBuffer ring;
    private final AtomicBuffer buffer;
    private final AtomicLong fullWaits = new AtomicLong();
    private volatile Thread consumer;

    /**
     * @param capacityBytes ring capacity, a power of two; it holds {@code capacityBytes / FRAMED_LENGTH} records.
     */
    public ChunkRecords(final int capacityBytes)
    {
        final UnsafeBuffer backing = new UnsafeBuffer(
            ByteBuffer.allocateDirect(capacityBytes + RingBufferDescriptor.TRAILER_LENGTH));
        this.ring = new ManyToOneRingBuffer(backing);
        this.buffer = ring.buffer();
    }

    /** Publishes one content-bearing chunk. Thread-safe, allocation-free. */
    public void publishChunk(final int slot, final long arrivalNs, final int tokens, final int flags)
    {
        final int index = claim(MSG_CHUNK);
        final AtomicBuffer b = buffer;
        b.putInt(index + SLOT_OFFSET, slot);
        b.putInt(index + TOKENS_OFFSET, tokens);
        b.putLong(index + NS_OFFSET, arrivalNs);
        b.putInt(index + FLAGS_OFFSET, flags);
        ring.commit(index);
    }

    /**
     * Publishes the end of a request. Everything the I/O thread wrote into the slot before this call is visible to
     * the collector once it reads this record.
     */
    public void publishEnd(final int slot, final long endNs)
    {
        final int index = claim(MSG_END);
        final AtomicBuffer b = buffer;
        b.putInt(index + SLOT_OFFSET, slot);
        b.putInt(index + TOKENS_OFFSET, 0);
        b.putLong(index + NS_OFFSET, endNs);
        b.putInt(index + FLAGS_OFFSET, 0);
        ring.commit(index);
        // Wake the consumer at once for the end of a request (once per request, never per chunk): it frees the
        // request's permit, which a closed loop is waiting on, so the consumer may park long between requests.
        wakeConsumer();
    }

    /** Wakes the thread that drains the ring, if it is parked (or makes its next park return at once). */
    public void wakeConsumer()
    {
        final Thread c = consumer;
        if (c != null)
        {
            LockSupport.unpark(c);
        }
    }

    /** Registers the thread that drains the ring, to be woken by end records. */
    public void consumer(final Thread thread)
    {
        this.consumer = thread;
    }

    private int claim(final int msgType)
    {
        int index = ring.tryClaim(msgType, RECORD_LENGTH);
        if (index < 0)
        {
            fullWaits.incrementAndGet();
            wakeConsumer(); // a parked consumer would otherwise leave the producer spinning for the rest of its park
            do
            {
                Thread.onSpinWait();
                index = ring.tryClaim(msgType, RECORD_LENGTH);
            }
            while (index < 0);
        }
        return index;
    }

    /** @return the ring, for the collector to drain. */
    public RingBuffer ring()
    {
        return ring;
    }

    /** @return how many publishes found the ring full and had to wait. */
    public long fullWaits()
    {
        return fullWaits.get();
    }
}
