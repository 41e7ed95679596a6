package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.tokenclock.clock.ManualNanoClock;
import io.tokenclock.recording.ErrorClass;

/** Every timeout class, stepped through on a hand-set clock: plain arithmetic, no timer and no sleep. */
final class DeadlinesTest
{
    private static final long S = 1_000_000_000L;

    private static RequestLimits limits(final double firstByteS, final double idleS, final double totalS)
    {
        return RequestLimits.of(10, firstByteS, idleS, totalS, 1 << 20, 16 << 20, 0);
    }

    @Test
    void shouldExpireTheFirstByteLimitOnlyWhileNothingHasCome()
    {
        final ManualNanoClock clock = new ManualNanoClock(100 * S);
        final Deadlines d = new Deadlines();
        d.start(limits(2, 0, 0), clock.nanoTime());
        assertEquals(102 * S, d.nextNs(0));
        clock.advance(2 * S - 1);
        assertEquals(ErrorClass.NONE, d.expired(clock.nanoTime(), 0), "a nanosecond early");
        clock.advance(1);
        assertEquals(ErrorClass.TIMEOUT_FIRST_BYTE, d.expired(clock.nanoTime(), 0));
        assertTrue(d.detail(ErrorClass.TIMEOUT_FIRST_BYTE).contains("--first-byte-timeout 2.0 s"));

        d.start(limits(2, 0, 0), clock.nanoTime());
        assertFalse(d.onRead(), "no idle limit: nothing to re-arm");
        clock.advance(10 * S);
        assertEquals(ErrorClass.NONE, d.expired(clock.nanoTime(), clock.nanoTime() - 10 * S), "a byte came");
        assertEquals(Long.MAX_VALUE, d.nextNs(0), "no limit left open");
    }

    @Test
    void shouldCountTheIdleLimitFromTheLastReadOnceTheResponseHasStarted()
    {
        final ManualNanoClock clock = new ManualNanoClock(0);
        final Deadlines d = new Deadlines();
        d.start(limits(0, 1, 0), 0);
        assertEquals(Long.MAX_VALUE, d.nextNs(0), "idle does not count before the first byte");
        clock.set(5 * S);
        assertEquals(ErrorClass.NONE, d.expired(clock.nanoTime(), 0));
        assertTrue(d.onRead(), "the first read arms the idle limit");
        assertFalse(d.onRead(), "only the first");
        final long lastReadNs = 5 * S;
        assertEquals(6 * S, d.nextNs(lastReadNs));
        clock.set(6 * S - 1);
        assertEquals(ErrorClass.NONE, d.expired(clock.nanoTime(), lastReadNs));
        clock.set(6 * S);
        assertEquals(ErrorClass.TIMEOUT_IDLE, d.expired(clock.nanoTime(), lastReadNs));
        assertTrue(d.detail(ErrorClass.TIMEOUT_IDLE).contains("--idle-timeout 1.0 s"));
    }

    @Test
    void shouldPutTheTotalLimitFirstAndCountItFromTheMovedSendStamp()
    {
        final Deadlines d = new Deadlines();
        d.start(limits(3, 0, 3), 0);
        d.resend(S);
        assertEquals(4 * S, d.nextNs(0), "counted from the send stamp, not from when it was armed");
        assertEquals(ErrorClass.TIMEOUT_TOTAL, d.expired(4 * S, 0), "total and first byte together: total");
        assertTrue(d.detail(ErrorClass.TIMEOUT_TOTAL).contains("--timeout 3.0 s"));
        assertEquals(null, d.detail(ErrorClass.NONE));
    }

    @Test
    void shouldTakeTheEarliestOpenDeadline()
    {
        final Deadlines d = new Deadlines();
        d.start(limits(0, 2, 10), 0);
        d.onRead();
        assertEquals(3 * S, d.nextNs(S), "idle after the read at 1 s comes before the total");
        assertEquals(10 * S, d.nextNs(9 * S), "the total comes first at the end");
    }
}
