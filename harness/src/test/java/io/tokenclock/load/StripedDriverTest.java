package io.tokenclock.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.tokenclock.clock.ManualNanoClock;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;

/**
 * Shards of one run, each driven alone on a hand-set clock: together they send exactly the requests the single
 * process sends, at the same intended starts and in the same phases, each request once, and every shard reports the
 * single process's schedule hash and builds (so hashes) the same requests.
 */
@Timeout(30)
final class StripedDriverTest
{
    private static final long T0 = 5_000_000_000L;
    private static final long SEED = 0x5EED_5A4DL;

    /** One driver's run: what it sent, how many bodies it built, its schedule hash. */
    private record Shard(List<Sent> sent, long built, String scheduleHash)
    {
    }

    @Test
    void shouldSplitAnOpenLoopCountIntoStripesThatAddUpToTheSingleRun()
    {
        final Shard single = run(() -> openPlan(0, 12), Stripe.WHOLE, 0);
        assertShardsAddUp(single, 3, () -> openPlan(0, 12), 0);
    }

    @Test
    void shouldSplitAnOpenLoopDurationIntoStripesThatAddUpToTheSingleRun()
    {
        final Shard single = run(() -> openPlan(400_000_000L, 0), Stripe.WHOLE, 0);
        assertTrue(single.sent().size() > 8, "a window long enough to hold several requests per shard");
        assertShardsAddUp(single, 4, () -> openPlan(400_000_000L, 0), 0);
    }

    @Test
    void shouldStartEveryShardAtTheCommonStartNotWhenItWoke()
    {
        final long startAt = T0 + 3_000_000_000L;
        final Shard shard = run(() -> openPlan(0, 12), new Stripe(1, 3), startAt);
        final Shard single = run(() -> openPlan(0, 12), Stripe.WHOLE, 0);
        assertEquals(single.sent().get(1).scheduledNs() - T0, shard.sent().get(0).scheduledNs() - startAt,
            "request 1's offset from the start is the single run's");
    }

    @Test
    void shouldSplitAClosedLoopCountIntoStripesThatAddUpToTheSingleRun()
    {
        final List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            final Stripe stripe = new Stripe(i, 3);
            final Shard s = run(() -> new LoadPlan(true, stripe.share(7), null, stripe.share(7), 20, 0, 2, 0), stripe,
                0);
            s.sent().forEach(sent -> ids.add(sent.id()));
            assertEquals(22, s.built(), "every shard builds every request of the whole run");
            assertTrue(s.sent().stream().allMatch(sent -> sent.id() % 3 == stripe.index()), "only its stripe");
        }
        ids.sort(Comparator.naturalOrder());
        assertEquals(LongStream.range(0, 22).boxed().toList(), ids);
    }

    @Test
    void shouldGiveTheRemainderOfTheConcurrencyToTheFirstShards()
    {
        assertEquals(List.of(3, 2, 2), List.of(new Stripe(0, 3).share(7), new Stripe(1, 3).share(7),
            new Stripe(2, 3).share(7)));
        assertTrue(new Stripe(2, 4).ownsUser(6) && !new Stripe(2, 4).ownsUser(5));
        assertThrows(IllegalArgumentException.class, () -> new Stripe(4, 4));
    }

    private static void assertShardsAddUp(
        final Shard single, final int count, final Supplier<LoadPlan> plan, final long startAt)
    {
        final List<Sent> all = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final Shard s = run(plan, new Stripe(i, count), startAt);
            assertEquals(single.scheduleHash(), s.scheduleHash(), "shard " + i + "'s schedule hash");
            assertEquals(single.built(), s.built(), "shard " + i + " builds the whole run's requests");
            final int index = i;
            assertTrue(s.sent().stream().allMatch(sent -> sent.id() % count == index), "only its stripe");
            all.addAll(s.sent());
        }
        all.sort(Comparator.comparingLong(Sent::id));
        assertEquals(single.sent().size(), all.size());
        for (int k = 0; k < all.size(); k++)
        {
            assertEquals(single.sent().get(k).id(), all.get(k).id());
            assertEquals(single.sent().get(k).scheduledNs(), all.get(k).scheduledNs(), "request " + k + "'s start");
            assertEquals(single.sent().get(k).phase(), all.get(k).phase(), "request " + k + "'s phase");
        }
    }

    private static LoadPlan openPlan(final long durationNs, final long requests)
    {
        return new LoadPlan(false, 0, ArrivalProcess.poisson(50, SEED), 8, requests, durationNs, 2, 0);
    }

    private static Shard run(final Supplier<LoadPlan> plan, final Stripe stripe,
        final long startAt)
    {
        final ManualNanoClock clock = new ManualNanoClock(T0);
        final SlotPool pool = new SlotPool(8);
        final NumberedFiller filler = new NumberedFiller();
        final List<Sent> sent = new ArrayList<>();
        final LoadGenerator g = LoadGenerator.of(plan.get(), clock, pool, filler, slot ->
        {
            sent.add(Sent.of(slot, 1, pool.inUse()));
            slot.endNs = clock.nanoTime();
            pool.release(slot);
        }, new ClockWaiter(clock));
        g.stripe(stripe).startAt(startAt).run();
        assertTrue(sent.stream().allMatch(s -> s.phase() == RequestSlot.PHASE_WARMUP ||
            s.phase() == RequestSlot.PHASE_MEASURE));
        return new Shard(sent, filler.built(), g.scheduleHash());
    }
}
