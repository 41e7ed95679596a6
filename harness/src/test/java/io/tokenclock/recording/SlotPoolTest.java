package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The in-flight cap and the slots, on one thread: the test takes slots as the load generator does and gives them back
 * as the collector and the request stage do. A timed-out wait for a permit lasts 1 us.
 */
@Timeout(30)
final class SlotPoolTest
{
    private static final long NO_WAIT_NS = 1_000;

    @Test
    void shouldCapRequestsInFlightAtItsPermits() throws InterruptedException
    {
        final SlotPool pool = new SlotPool(2);
        final RequestSlot first = pool.acquire(NO_WAIT_NS);
        assertNotNull(first);
        assertNotNull(pool.acquire(NO_WAIT_NS));
        assertEquals(2, pool.inUse());

        assertNull(pool.acquire(NO_WAIT_NS), "no permit came back: the wait times out");

        pool.releasePermit(10);
        assertNotNull(pool.acquire(NO_WAIT_NS), "a released permit lets one more request in");
        assertEquals(2, pool.inUse());
    }

    @Test
    void shouldHandEndStampsBackInTheOrderPermitsWereReleased() throws InterruptedException
    {
        final SlotPool pool = new SlotPool(3);
        final RequestSlot a = pool.acquire(NO_WAIT_NS);
        final RequestSlot b = pool.acquire(NO_WAIT_NS);
        final RequestSlot c = pool.acquire(NO_WAIT_NS);
        b.endNs = 30;
        a.endNs = 10;
        c.endNs = 20;
        pool.release(b);
        pool.release(a);
        pool.release(c);

        assertEquals(30, pool.pollEndStamp());
        assertEquals(10, pool.pollEndStamp());
        assertEquals(20, pool.pollEndStamp());
        assertEquals(0, pool.pollEndStamp(), "none waiting");
        assertEquals(0, pool.inUse());
    }

    @Test
    void shouldGiveBackACancelledSlotsPermitWithoutAnEndStamp() throws InterruptedException
    {
        final SlotPool pool = new SlotPool(1);
        final RequestSlot slot = pool.acquire(NO_WAIT_NS);

        pool.cancel(slot);

        assertEquals(0, pool.inUse());
        assertEquals(0, pool.pollEndStamp());
        assertSame(slot, pool.acquire(NO_WAIT_NS), "the cancelled slot is reused");
    }

    @Test
    void shouldLowerTheCapByEachHeldPermitAndDropAnEndStampWithIt() throws InterruptedException
    {
        final SlotPool pool = new SlotPool(2);
        final RequestSlot slot = pool.acquire(NO_WAIT_NS);
        slot.endNs = 42;
        pool.release(slot);

        assertTrue(pool.holdPermit(NO_WAIT_NS));
        assertEquals(0, pool.pollEndStamp(), "the held permit took the pending end stamp");
        assertNotNull(pool.acquire(NO_WAIT_NS));
        assertNull(pool.acquire(NO_WAIT_NS), "one permit held, one in flight");
        assertFalse(pool.holdPermit(NO_WAIT_NS));

        pool.releaseHeldPermit();
        assertNotNull(pool.acquire(NO_WAIT_NS));
    }

    @Test
    void shouldCreateAtMostTwiceTheCapPlus16SlotsAndReuseThem() throws InterruptedException
    {
        final SlotPool pool = new SlotPool(2);
        assertEquals(20, pool.maxSlots());
        final List<RequestSlot> unprocessed = new ArrayList<>();
        for (int i = 0; i < pool.maxSlots(); i++)
        {
            final RequestSlot slot = pool.acquire(NO_WAIT_NS);
            assertEquals(i, slot.index(), "a new slot while none has come back");
            assertSame(slot, pool.get(i));
            pool.releasePermit(i);
            unprocessed.add(slot);
        }
        unprocessed.forEach(pool::returnSlot);

        final Set<Integer> used = new HashSet<>();
        for (int i = 0; i < 1_000; i++)
        {
            final RequestSlot slot = pool.acquire(NO_WAIT_NS);
            used.add(slot.index());
            pool.release(slot);
        }
        assertEquals(IntStream.range(0, 20).boxed().collect(Collectors.toSet()), used,
            "returned slots are reused, and no 21st is made");
    }

    @Test
    void shouldResetAReusedSlot() throws InterruptedException
    {
        final SlotPool pool = new SlotPool(1);
        final RequestSlot slot = pool.acquire(NO_WAIT_NS);
        slot.user = 5;
        slot.phase = RequestSlot.PHASE_COLD;
        pool.release(slot);

        final RequestSlot again = pool.acquire(NO_WAIT_NS);
        assertSame(slot, again);
        assertEquals(-1, again.user);
        assertEquals(RequestSlot.PHASE_MEASURE, again.phase);
    }

    @Test
    void shouldRefuseAPoolWithoutPermits()
    {
        assertThrows(IllegalArgumentException.class, () -> new SlotPool(0));
    }
}
