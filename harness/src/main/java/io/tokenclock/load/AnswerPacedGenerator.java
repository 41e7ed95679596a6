package io.tokenclock.load;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.SlotPool;

/**
 * Load whose next request is due a delay after the server answered an earlier one: user sessions (a think time after
 * the user's last answer) and session traces (a trace's {@code delay} after the turn before). Each ended turn comes
 * from the collector through {@link #onUserTurnEnded}, queued for the driver's thread, which it wakes so that the next
 * turn is scheduled at once, however far away the next turn already due is. The intended starts therefore depend on
 * how the server answered, and no schedule is fixed before the run: {@link #scheduleHash()} stays null (the hash of an
 * empty schedule, reported once, looked like a schedule that replay could check).
 */
abstract sealed class AnswerPacedGenerator extends LoadGenerator permits UserSessionDriver, TraceSessionDriver
{
    /** A turn ended: {@code who} is the user (user sessions) or the session's handle (traces). */
    record Completion(int who, TurnResult result)
    {
    }

    /** Ended turns, from the collector's thread to the driver's. */
    final Queue<Completion> completions = new ConcurrentLinkedQueue<>();
    /** The driver's thread once it runs, so that an ended turn can wake it; null before. */
    volatile Thread driverThread;

    AnswerPacedGenerator(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final RequestSink sink, final Waiter waiter)
    {
        super(plan, clock, pool, sink, waiter);
    }

    @Override
    public final void onUserTurnEnded(final int who, final TurnResult result)
    {
        completions.add(new Completion(who, result));
        final Thread thread = driverThread;
        if (thread != null)
        {
            waiter.wake(thread);
        }
    }
}
