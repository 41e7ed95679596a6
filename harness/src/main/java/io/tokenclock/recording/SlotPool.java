package io.tokenclock.recording;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

/**
 * A bounded pool of {@link RequestSlot}s; its size is the harness's cap on requests in flight.
 * <p>
 * Slots are created lazily up to the cap, so an uncapped open-loop run that never has many requests in flight does
 * not pay for the cap. {@link #acquire(long)} blocks the load generator when the cap is reached: in open loop that is
 * exactly the send lag the run reports. Thread-safe: the load generator acquires, the collector releases.
 */
public final class SlotPool
{
    private final RequestSlot[] slots;
    private final ManyToManyConcurrentArrayQueue<RequestSlot> free;
    private final Semaphore permits;
    private int created;

    public SlotPool(final int maxSlots)
    {
        if (maxSlots < 1)
        {
            throw new IllegalArgumentException("maxSlots must be >= 1: " + maxSlots);
        }
        this.slots = new RequestSlot[maxSlots];
        this.free = new ManyToManyConcurrentArrayQueue<>(Math.max(2, maxSlots));
        this.permits = new Semaphore(maxSlots);
    }

    /**
     * Takes a free slot, waiting up to {@code timeoutNs}.
     *
     * @return a reset slot, or null if none became free in time.
     */
    public RequestSlot acquire(final long timeoutNs) throws InterruptedException
    {
        if (!permits.tryAcquire(timeoutNs, TimeUnit.NANOSECONDS))
        {
            return null;
        }
        RequestSlot slot = free.poll();
        if (slot == null)
        {
            slot = create();
        }
        slot.reset();
        return slot;
    }

    /** Returns a slot whose request is fully processed. */
    public void release(final RequestSlot slot)
    {
        free.offer(slot);
        permits.release();
    }

    /** @return the slot with this index; valid for any slot this pool has handed out. */
    public RequestSlot get(final int index)
    {
        return slots[index];
    }

    /** @return the cap on slots in use. */
    public int capacity()
    {
        return slots.length;
    }

    /** @return slots currently handed out. */
    public int inUse()
    {
        return slots.length - permits.availablePermits();
    }

    private synchronized RequestSlot create()
    {
        final RequestSlot slot = new RequestSlot(created);
        slots[created++] = slot;
        return slot;
    }
}
