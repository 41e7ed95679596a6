package io.tokenclock.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.tokenclock.clock.ManualNanoClock;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;

/**
 * The closed-loop driver on a hand-set clock, run on the test thread. The sink plays the server and the collector: it
 * keeps the submitted requests in flight and ends some of them (advancing the clock) whenever the loop is full, so
 * every refill's intended start is known exactly.
 */
@Timeout(30)
final class ClosedLoopDriverTest
{
    private static final long T0 = 5_000_000_000L;
    private static final long MS = 1_000_000L;

    private final ManualNanoClock clock = new ManualNanoClock(T0);
    private final ClockWaiter waiter = new ClockWaiter(clock);
    private final NumberedFiller filler = new NumberedFiller();
    private final List<Sent> sent = new ArrayList<>();
    private final ArrayDeque<RequestSlot> inFlight = new ArrayDeque<>();
    private final List<Long> ends = new ArrayList<>();
    private SlotPool pool;

    @Test
    void shouldRefillEachFreedPermitAtTheEndStampItCameBackWithInReleaseOrder()
    {
        pool = new SlotPool(3);
        final LoadGenerator generator = LoadGenerator.of(new LoadPlan(true, 3, null, 3, 12, 0, 0, 0), clock, pool,
            filler, this::endNewestThenOldestWhenFull, waiter);
        generator.run();

        assertEquals(12, sent.size());
        assertArrayEquals(ms(0, 0, 0, 10, 17, 27, 34, 44, 51, 61, 68, 78), scheduled(), "hand-computed starts");
        for (int k = 3; k < sent.size(); k++)
        {
            assertEquals(ends.get(k - 3), sent.get(k).scheduledNs(), "request " + k + " answers the (k-3)th end");
        }
        assertArrayEquals(ms(0, 0, 0, 17, 17, 34, 34, 51, 51, 68, 68, 85),
            sent.stream().mapToLong(Sent::submitNs).toArray(), "refills start when the permits come back");
        assertArrayEquals(new int[] {1, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2},
            sent.stream().mapToInt(Sent::inFlight).toArray(), "3 in flight, never more");
        assertEquals(2, pool.inUse(), "the last two requests are still in flight");
        assertNull(generator.scheduleHash(), "closed-loop starts follow completions: no schedule hash");
    }

    @Test
    void shouldCallTheWindowHookOnceAsTheFirstMeasuredRequestIsScheduledAfterTheRunsWarmUpRequests()
    {
        pool = new SlotPool(3);
        final List<Integer> sentWhenCalled = new ArrayList<>();
        final LoadGenerator generator = LoadGenerator.of(new LoadPlan(true, 3, null, 3, 6, 0, 4, 0), clock, pool,
            filler, this::endNewestThenOldestWhenFull, waiter);
        generator.onWindowOpen(() -> sentWhenCalled.add(sent.size())).run();

        assertEquals(10, sent.size(), "4 warm-up requests, then 6 measured");
        assertEquals(List.of(4), sentWhenCalled, "once, before the first measured request went to the sink");
        assertEquals(RequestSlot.PHASE_MEASURE, sent.get(4).phase());
        assertEquals(sent.get(4).scheduledNs(), generator.measureStartNs());
    }

    @Test
    void shouldHoldThePermitsThatEachConcurrencyStageDoesNotUse()
    {
        pool = new SlotPool(3);
        final ConcurrencySchedule stages = new ConcurrencySchedule(new int[] {2, 3, 1}, new double[] {1, 1, 1});
        final LoadGenerator generator = LoadGenerator.of(
            new LoadPlan(true, 3, null, 3, 0, 3_000 * MS, 0, 0, null, null, 2, 0, stages), clock, pool, filler,
            slot -> endOldestDownToStage(slot, stages), waiter);
        generator.run();

        assertArrayEquals(ms(0, 0, 250, 501, 752, 1003, 1004, 1254, 1505, 1756, 2507, 2758), scheduled(),
            "a stage's added request is due at the stage change (1004 ms); the others answer an end");
        assertArrayEquals(new int[] {1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 5, 5}, sent.stream().mapToInt(Sent::group).toArray(),
            "each stage has its own 2 groups");
        assertArrayEquals(new int[] {1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 1, 1},
            sent.stream().mapToInt(Sent::inFlight).toArray());
        assertArrayEquals(new int[] {1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 2, 2},
            sent.stream().mapToInt(s -> s.inUse() - s.inFlight()).toArray(), "held = 3 - the stage's concurrency");
        assertEquals(13, filler.built(), "the request built after the window closed is never sent");
        assertEquals(0, pool.inUse(), "the held permits and the cancelled slot's permit came back");
    }

    @Test
    void shouldBeTheDriverTheFactoryPicksForAClosedLoop()
    {
        pool = new SlotPool(1);
        assertInstanceOf(ClosedLoopDriver.class,
            LoadGenerator.of(new LoadPlan(true, 1, null, 1, 1, 0, 0, 0), clock, pool, filler, this::record));
    }

    /** Whenever 3 are in flight: 10 ms later the newest ends, 7 ms after that the oldest. */
    private void endNewestThenOldestWhenFull(final RequestSlot slot)
    {
        record(slot);
        if (inFlight.size() == 3)
        {
            clock.advance(10 * MS);
            end(inFlight.pollLast());
            clock.advance(7 * MS);
            end(inFlight.pollFirst());
        }
    }

    /**
     * Once the loop holds the current stage's concurrency: every 250 ms the oldest request ends, until fewer than the
     * (new) stage's concurrency are in flight; the refill then comes 1 ms later.
     */
    private void endOldestDownToStage(final RequestSlot slot, final ConcurrencySchedule stages)
    {
        record(slot);
        if (inFlight.size() < concurrencyNow(stages))
        {
            return;
        }
        do
        {
            clock.advance(250 * MS);
            end(inFlight.pollFirst());
        }
        while (!inFlight.isEmpty() && inFlight.size() >= concurrencyNow(stages));
        clock.advance(MS);
    }

    /** The stage clock starts with the first measured request, at T0. */
    private int concurrencyNow(final ConcurrencySchedule stages)
    {
        return stages.concurrency()[stages.stageAt((clock.nanoTime() - T0) / 1e9)];
    }

    private void record(final RequestSlot slot)
    {
        inFlight.addLast(slot);
        sent.add(Sent.of(slot, inFlight.size(), pool.inUse()));
    }

    private void end(final RequestSlot slot)
    {
        slot.endNs = clock.nanoTime();
        ends.add(slot.endNs);
        pool.release(slot);
    }

    private long[] scheduled()
    {
        return sent.stream().mapToLong(Sent::scheduledNs).toArray();
    }

    private static long[] ms(final long... msAfterT0)
    {
        final long[] ns = new long[msAfterT0.length];
        for (int i = 0; i < ns.length; i++)
        {
            ns[i] = T0 + msAfterT0[i] * MS;
        }
        return ns;
    }
}
