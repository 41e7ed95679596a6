package io.tokenclock.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.tokenclock.clock.ManualNanoClock;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;

/**
 * The user-session driver on a hand-set clock, run on the test thread. User 0's answers take 40 ms and it thinks
 * 100 ms; user 1's take 70 ms and it thinks 250 ms. The sink reports each turn's end as soon as the turn is
 * submitted, so each user's turns are due every 140 and 320 ms.
 */
@Timeout(30)
final class UserSessionDriverTest
{
    private static final long T0 = 3_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long[] ANSWER_NS = {40 * MS, 70 * MS};
    private static final long[] THINK_NS = {100 * MS, 250 * MS};
    private static final int W = RequestSlot.PHASE_WARMUP;
    private static final int M = RequestSlot.PHASE_MEASURE;

    /** A turn as the filler was asked for it. */
    private record Turn(int user, long previousEndNs, long dueNs)
    {
    }

    private final ManualNanoClock clock = new ManualNanoClock(T0);
    private final ClockWaiter waiter = new ClockWaiter(clock);
    private final SlotPool pool = new SlotPool(8);
    private final List<Sent> sent = new ArrayList<>();
    private final List<Turn> turns = new ArrayList<>();
    private LoadGenerator generator;

    @Test
    void shouldStartEachUsersNextTurnAThinkTimeAfterItsAnswerEnded()
    {
        generator = LoadGenerator.ofUsers(new LoadPlan(false, 0, null, 8, 7, 0, 1, 0, null, null, 1, 2), clock, pool,
            new Sessions(), this::answer, waiter);
        generator.run();

        assertEquals(List.of(new Turn(0, -1, T0), new Turn(1, -1, T0), new Turn(0, T0 + 40 * MS, T0 + 140 * MS),
            new Turn(0, T0 + 180 * MS, T0 + 280 * MS), new Turn(1, T0 + 70 * MS, T0 + 320 * MS),
            new Turn(0, T0 + 320 * MS, T0 + 420 * MS), new Turn(0, T0 + 460 * MS, T0 + 560 * MS),
            new Turn(1, T0 + 390 * MS, T0 + 640 * MS)), turns);
        assertArrayEquals(turns.stream().mapToLong(t -> t.dueNs).toArray(),
            sent.stream().mapToLong(Sent::scheduledNs).toArray());
        assertArrayEquals(sent.stream().mapToLong(Sent::scheduledNs).toArray(),
            sent.stream().mapToLong(Sent::submitNs).toArray(), "each turn sent when due");
        assertArrayEquals(new int[] {0, 1, 0, 0, 1, 0, 0, 1}, sent.stream().mapToInt(Sent::user).toArray());
        assertArrayEquals(new int[] {W, M, M, M, M, M, M, M},
            sent.stream().mapToInt(Sent::phase).toArray(), "1 warm-up turn, then 7 measured");
        assertArrayEquals(new int[] {1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007},
            sent.stream().mapToInt(Sent::promptTokens).toArray());
        assertEquals("user 1 turn at 640 ms", sent.get(7).body());
        assertEquals(8, waiter.wakes(), "every ended turn wakes the driver");
        assertNull(generator.scheduleHash(), "turns follow the server's answers: no schedule fixed before the run");
    }

    @Test
    void shouldRefuseUserLoadWithoutASessionFiller()
    {
        assertThrows(IllegalArgumentException.class, () -> LoadGenerator.of(
            new LoadPlan(false, 0, null, 8, 7, 0, 1, 0, null, null, 1, 2), clock, pool, new NumberedFiller(),
            this::answer));
    }

    @Test
    void shouldRefuseASessionFillerWithoutUsers()
    {
        assertThrows(IllegalArgumentException.class, () -> LoadGenerator.ofUsers(
            new LoadPlan(false, 0, ArrivalProcess.constant(1), 1, 1, 0, 0, 0), clock, pool, new Sessions(),
            this::answer));
    }

    @Test
    void shouldRefuseTurnsOutsideUserLoad()
    {
        final LoadGenerator open = LoadGenerator.of(new LoadPlan(false, 0, ArrivalProcess.constant(1), 1, 1, 0, 0, 0),
            clock, pool, new NumberedFiller(), this::answer);
        assertThrows(UnsupportedOperationException.class,
            () -> open.onUserTurnEnded(0, new TurnResult(true, "", List.of(), "stop", T0)));
    }

    @Test
    void shouldBeTheDriverTheFactoryPicksForUserLoad()
    {
        assertInstanceOf(UserSessionDriver.class, LoadGenerator.ofUsers(
            new LoadPlan(false, 0, null, 8, 7, 0, 1, 0, null, null, 1, 2), clock, pool, new Sessions(), this::answer));
    }

    /** Records the turn and reports it ended after the user's answer time. */
    private void answer(final RequestSlot slot)
    {
        sent.add(Sent.of(slot, 0, pool.inUse()));
        final long endNs = slot.submitNs + ANSWER_NS[slot.user];
        final int user = slot.user;
        slot.endNs = endNs;
        pool.release(slot);
        generator.onUserTurnEnded(user, new TurnResult(true, "answer", List.of(), "stop", endNs));
    }

    /** A session filler whose turns say who is due when, and hint 1000 + n prompt tokens for the n-th turn. */
    private final class Sessions implements SessionFiller
    {
        @Override
        public BuiltRequest nextTurn(final int user, final TurnResult previous, final long dueNs)
        {
            turns.add(new Turn(user, previous == null ? -1 : previous.endNs(), dueNs));
            return new BuiltRequest(("user " + user + " turn at " + (dueNs - T0) / MS + " ms")
                .getBytes(StandardCharsets.US_ASCII), 999 + turns.size(), 0);
        }

        @Override
        public long delayNs(final int user, final TurnResult previous)
        {
            return THINK_NS[user];
        }
    }
}
