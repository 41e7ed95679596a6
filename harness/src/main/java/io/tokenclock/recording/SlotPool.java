package io.tokenclock.recording;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

/**
 * The cap on requests in flight, and the reusable {@link RequestSlot}s that carry them.
 * <p>
 * The cap is a set of permits. A permit comes back as soon as the ring's consumer (the collector) has read a
 * request's end and rebuilt its chunk timeline ({@link #releasePermit}), before the slower per-request work of the
 * {@link RequestStage} (metrics, token counts, the {@code requests.jsonl} line), so that a closed loop refills without
 * waiting for it; the slot object itself comes back when the stage is done with it ({@link #returnSlot}). Slots are
 * therefore created lazily up to twice the cap (plus a little), which bounds memory however far the request stage
 * lags. {@link #acquire(long)} blocks the load generator while all permits are taken, and, once every slot is
 * created, while the stage still holds all of them: in open loop that wait is exactly the send lag the run reports.
 * <p>
 * Each released permit also carries the end stamp of the request that freed it ({@link #pollEndStamp()}): in closed
 * loop, the next request's intended start is the moment the previous one ended, so refill delay is measured too.
 * <p>
 * Thread-safety: one load generator acquires; the collector releases permits; the request stage returns slots.
 * {@link #get(int)} is safe from the collector for any slot that reached it through the ring buffer. The end stamps
 * travel in a ring of their own, written before the permit is released, so the generator that takes a permit reads
 * its stamp (jcstress: {@code SlotPoolEndStampStress}).
 */
public final class SlotPool
{
    private final int capacity;
    private final RequestSlot[] slots;
    private final ManyToManyConcurrentArrayQueue<RequestSlot> free;
    private final Semaphore permits;
    private final AtomicLongArray endStamps;
    private final AtomicLong endHead = new AtomicLong();
    private final AtomicLong endTail = new AtomicLong();
    private int created;

    /** A pool that lets at most {@code maxInFlight} requests hold a slot at once (at least 1). */
    public SlotPool(final int maxInFlight)
    {
        if (maxInFlight < 1)
        {
            throw new IllegalArgumentException("maxInFlight must be >= 1: " + maxInFlight);
        }
        this.capacity = maxInFlight;
        this.slots = new RequestSlot[2 * maxInFlight + 16];
        this.free = new ManyToManyConcurrentArrayQueue<>(slots.length);
        this.permits = new Semaphore(maxInFlight);
        this.endStamps = new AtomicLongArray(slots.length);
    }

    /**
     * Takes a permit and a free slot, waiting up to {@code timeoutNs} for the permit; then, when every slot is created
     * and none is free, for as long as the request stage takes to return one (back-pressure, never a loss).
     *
     * @return a reset slot, or null if no permit came back in time.
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
            slot = created < slots.length ? create() : awaitReturnedSlot();
        }
        slot.reset();
        return slot;
    }

    /**
     * Gives back a finished request's permit, with its end stamp. Collector thread only.
     */
    public void releasePermit(final long endNs)
    {
        final long head = endHead.get();
        endStamps.set((int)(head % endStamps.length()), endNs);
        endHead.lazySet(head + 1);
        permits.release();
    }

    /** Returns a slot whose request is fully processed (listener done). Request stage's thread only. */
    public void returnSlot(final RequestSlot slot)
    {
        free.offer(slot);
    }

    /** Both at once, with the slot's end stamp: for single-threaded drivers that play the collector. */
    public void release(final RequestSlot slot)
    {
        releasePermit(slot.endNs);
        returnSlot(slot);
    }

    /**
     * Holds one permit without a slot, lowering the cap on requests in flight by one (closed-loop stages going down);
     * drops one pending end stamp with it, since the request that freed the permit will not be refilled.
     *
     * @return true if a permit was taken within {@code timeoutNs}.
     */
    public boolean holdPermit(final long timeoutNs) throws InterruptedException
    {
        if (!permits.tryAcquire(timeoutNs, TimeUnit.NANOSECONDS))
        {
            return false;
        }
        pollEndStamp();
        return true;
    }

    /** Gives back a held permit (closed-loop stages going up): one more request may be in flight. */
    public void releaseHeldPermit()
    {
        permits.release();
    }

    /** Gives back a slot that was acquired but never submitted, with its permit and without an end stamp. */
    public void cancel(final RequestSlot slot)
    {
        free.offer(slot);
        permits.release();
    }

    /**
     * @return the end stamp of a finished request not yet refilled, or 0 if none is waiting (the initial permits).
     * Load generator thread only.
     */
    public long pollEndStamp()
    {
        final long tail = endTail.get();
        if (tail >= endHead.get())
        {
            return 0;
        }
        final long endNs = endStamps.get((int)(tail % endStamps.length()));
        endTail.lazySet(tail + 1);
        return endNs;
    }

    /** @return the slot with this index; valid for any slot this pool has handed out. */
    public RequestSlot get(final int index)
    {
        return slots[index];
    }

    /** @return the most slots this pool ever creates: requests in flight plus those still being processed. */
    public int maxSlots()
    {
        return slots.length;
    }

    /**
     * @return permits currently taken: requests in flight (their end not yet read by the collector), and permits held
     * by {@link #holdPermit} to lower the cap.
     */
    public int inUse()
    {
        return capacity - permits.availablePermits();
    }

    private RequestSlot create()
    {
        final RequestSlot slot = new RequestSlot(created);
        slots[created++] = slot;
        return slot;
    }

    private RequestSlot awaitReturnedSlot()
    {
        // Parks rather than spins: the thread returning slots (the request stage) may run at a lower priority on the
        // same core, and a spinning load generator would starve it.
        RequestSlot slot;
        while ((slot = free.poll()) == null)
        {
            LockSupport.parkNanos(50_000);
        }
        return slot;
    }
}
