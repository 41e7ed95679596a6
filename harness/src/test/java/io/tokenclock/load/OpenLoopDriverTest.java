package io.tokenclock.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.tokenclock.clock.ManualNanoClock;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;

/**
 * The open-loop driver on a hand-set clock, run on the test thread: every intended start, phase and group is exact.
 * The sink ends each request as soon as it is submitted, so the in-flight cap never delays a send.
 */
@Timeout(30)
final class OpenLoopDriverTest
{
    private static final long T0 = 7_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long SEED = 0x5EED_10ADL;
    private static final int W = RequestSlot.PHASE_WARMUP;
    private static final int M = RequestSlot.PHASE_MEASURE;
    private static final int R = RequestSlot.PHASE_RAMP;

    private final ManualNanoClock clock = new ManualNanoClock(T0);
    private final ClockWaiter waiter = new ClockWaiter(clock);
    private final SlotPool pool = new SlotPool(4);
    private final NumberedFiller filler = new NumberedFiller();
    private final List<Sent> sent = new ArrayList<>();
    private long coldRequestNs;
    private int stopAfter = Integer.MAX_VALUE;
    private LoadGenerator generator;

    @Test
    void shouldStartEachRequestAtItsFixedOffsetExactly()
    {
        run(new LoadPlan(false, 0, null, 4, 0, 0, 1, 0, new long[] {0, MS, MS, 7_500_000}));

        assertArrayEquals(new long[] {T0, T0 + MS, T0 + MS, T0 + 7_500_000}, scheduled());
        assertArrayEquals(scheduled(), sent.stream().mapToLong(Sent::submitNs).toArray(), "sent on time");
        assertArrayEquals(new int[] {W, M, M, M}, phases());
        assertArrayEquals(new long[] {0, 1, 2, 3}, sent.stream().mapToLong(Sent::id).toArray());
        assertEquals("request 3", sent.get(3).body());
        assertEquals(103, sent.get(3).promptTokens());
        assertEquals(NumberedFiller.GROUP, sent.get(3).group());
        assertEquals(0, generator.windowCloseNs(), "no measurement duration, no window");
        assertTrue(generator.isFinished());
    }

    @Test
    void shouldStartSeededPoissonRequestsAtTheOffsetsTheSeedGives()
    {
        run(poissonPlan());

        assertArrayEquals(poissonStarts(12), scheduled());
        assertArrayEquals(new int[] {W, W, M, M, M, M, M, M, M, M, M, M}, phases());
        assertEquals(12, filler.built(), "stops at 10 measured requests without building another");
    }

    @Test
    void shouldReportTheScheduleHashThatTheOfflineReplayRegenerates() throws NoSuchAlgorithmException
    {
        run(poissonPlan());

        final MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (final long start : poissonStarts(12))
        {
            for (int shift = 56; shift >= 0; shift -= 8)
            {
                sha.update((byte)((start - T0) >>> shift));
            }
        }
        final String hash = generator.scheduleHash();
        assertEquals(HexFormat.of().formatHex(sha.digest()), hash);
        assertEquals(hash, OpenLoopSchedule.hash(poissonPlan(), 12));
        assertNotEquals(hash, OpenLoopSchedule.hash(poissonPlan(), 11));
    }

    @Test
    void shouldWarmUpByDurationThenStopAtTheMeasurementDuration()
    {
        run(new LoadPlan(false, 0, ArrivalProcess.constant(1_000), 4, 0, 5 * MS, 0, 3 * MS));

        final long[] expected = new long[8];
        for (int i = 0; i < expected.length; i++)
        {
            expected[i] = T0 + i * MS;
        }
        assertArrayEquals(expected, scheduled());
        assertArrayEquals(new int[] {W, W, W, M, M, M, M, M}, phases());
        assertEquals(T0 + 8 * MS, generator.windowCloseNs(), "window: first measured start + 5 ms");
        assertEquals(8, filler.built(), "the request due at the window's close is never built");
    }

    @Test
    void shouldMarkTheRampAndMoveEachStageToItsOwnGroups()
    {
        final RateSchedule rates = new RateSchedule(new RateSchedule.Ramp(2, 2, 1, false),
            List.of(new RateSchedule.Stage(2, 2), new RateSchedule.Stage(4, 1)));
        run(new LoadPlan(false, 0, ArrivalProcess.constant(1), 16, 0, 0, 0, 0, null, rates, 3));

        final double[] startS = {0, 0.5, 1, 1.5, 2, 2.5, 3, 3.25, 3.5, 3.75};
        assertArrayEquals(Arrays.stream(startS).mapToLong(s -> T0 + (long)(s * 1e9)).toArray(), scheduled());
        assertArrayEquals(new int[] {R, R, M, M, M, M, M, M, M, M}, phases());
        assertArrayEquals(new int[] {1, 1, 1, 1, 1, 1, 4, 4, 4, 4}, sent.stream().mapToInt(Sent::group).toArray(),
            "stage 1 is moved past stage 0's 3 groups");
    }

    @Test
    void shouldSendTheColdStartRequestAloneAndStartTheScheduleWhenItEnded()
    {
        coldRequestNs = 30 * MS;
        generator = LoadGenerator.of(new LoadPlan(false, 0, null, 4, 0, 0, 0, 0, new long[] {0, MS, 2 * MS}), clock,
            pool, filler, this::submit, waiter).coldStart(true);
        generator.run();

        assertArrayEquals(new long[] {T0, T0 + 31 * MS, T0 + 32 * MS}, scheduled());
        assertArrayEquals(new int[] {RequestSlot.PHASE_COLD, M, M}, phases());
        assertArrayEquals(new long[] {0, 1, 2}, sent.stream().mapToLong(Sent::id).toArray());
    }

    @Test
    void shouldStopStartingRequestsWhenAskedTo()
    {
        stopAfter = 3;
        run(poissonPlan());

        assertEquals(3, sent.size());
        assertTrue(generator.isFinished());
        assertEquals(0, pool.inUse());
    }

    @Test
    void shouldBeTheDriverTheFactoryPicksForAnOpenLoop()
    {
        assertInstanceOf(OpenLoopDriver.class, LoadGenerator.of(poissonPlan(), clock, pool, filler, this::submit));
    }

    private static LoadPlan poissonPlan()
    {
        return new LoadPlan(false, 0, ArrivalProcess.poisson(50, SEED), 8, 10, 0, 2, 0);
    }

    /** The intended starts of a Poisson plan, drawn here from a fresh process of the same seed. */
    private static long[] poissonStarts(final int n)
    {
        final ArrivalProcess arrivals = ArrivalProcess.poisson(50, SEED);
        final long[] starts = new long[n];
        double offsetNs = 0;
        for (int i = 0; i < n; i++)
        {
            if (i > 0)
            {
                offsetNs += arrivals.nextGapNs();
            }
            starts[i] = T0 + (long)offsetNs;
        }
        return starts;
    }

    private void run(final LoadPlan plan)
    {
        generator = LoadGenerator.of(plan, clock, pool, filler, this::submit, waiter);
        generator.run();
    }

    /** Records the request and ends it at once (the cold-start request after {@link #coldRequestNs}). */
    private void submit(final RequestSlot slot)
    {
        sent.add(Sent.of(slot, 1, pool.inUse()));
        if (slot.phase == RequestSlot.PHASE_COLD)
        {
            clock.advance(coldRequestNs);
        }
        slot.endNs = clock.nanoTime();
        pool.release(slot);
        if (sent.size() >= stopAfter)
        {
            generator.stop();
        }
    }

    private long[] scheduled()
    {
        return sent.stream().mapToLong(Sent::scheduledNs).toArray();
    }

    private int[] phases()
    {
        return sent.stream().mapToInt(Sent::phase).toArray();
    }
}
