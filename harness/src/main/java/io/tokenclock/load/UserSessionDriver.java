package io.tokenclock.load;

import java.util.PriorityQueue;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;

/**
 * User-centric load: {@code plan.users()} simulated users each run a multi-turn session. Every user's first turn is
 * due at the run's start; each later turn is due the filler's delay (a think time, or a simulated tool's latency)
 * after the user's previous answer ended, so a slow answer delays that user's next turn instead of bursting later.
 * Turns due at the same moment start in user order.
 * <p>
 * Ended turns arrive from the collector through {@link #onUserTurnEnded}, which also wakes the driver so that it can
 * schedule the user's next turn at once, however far away the next turn already due is.
 * <p>
 * Not thread-safe beyond what {@link LoadGenerator} states.
 */
final class UserSessionDriver extends AnswerPacedGenerator
{
    /** A user's next turn, due at {@code dueNs} on the run's clock; ordered by due time, then user. */
    private record Due(long dueNs, int user) implements Comparable<Due>
    {
        @Override
        public int compareTo(final Due other)
        {
            final int byTime = Long.compare(dueNs, other.dueNs);
            return byTime != 0 ? byTime : Integer.compare(user, other.user);
        }
    }

    private final SessionFiller sessions;
    private final PriorityQueue<Due> due = new PriorityQueue<>();
    private final TurnResult[] results;

    UserSessionDriver(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final SessionFiller sessions,
        final RequestSink sink, final Waiter waiter)
    {
        super(plan, clock, pool, sink, waiter);
        this.sessions = sessions;
        this.results = new TurnResult[plan.users()];
    }

    @Override
    public void settle()
    {
        Completion c;
        while ((c = completions.poll()) != null)
        {
            sessions.settle(c.who(), c.result());
        }
    }

    @Override
    void drive() throws InterruptedException
    {
        driverThread = Thread.currentThread();
        final long t0 = startClock();
        for (int u = 0; u < plan.users(); u++)
        {
            if (stripe().ownsUser(u))
            {
                due.add(new Due(t0, u));
            }
        }
        long i = 0;
        while (!stopRequested())
        {
            scheduleEndedTurns();
            final Due next = due.peek();
            final long now = clock.nanoTime();
            if (next == null || next.dueNs() - now > SPIN_NS)
            {
                // onUserTurnEnded wakes this park, and a wake-up that comes before it makes it return at once: an
                // ended turn never waits out the park.
                waiter.park(next == null ? ACQUIRE_POLL_NS : Math.min(ACQUIRE_POLL_NS, next.dueNs() - now - SPIN_NS));
                if (next == null && pastEnd(clock.nanoTime()))
                {
                    break;
                }
                continue;
            }
            due.poll();
            if (!sleepUntil(next.dueNs()) || !startTurn(next, i, t0))
            {
                break;
            }
            i++;
        }
    }

    @Override
    void onSubmit(final RequestSlot slot, final long i)
    {
    }

    /** Moves ended turns to the users' next due times. */
    private void scheduleEndedTurns()
    {
        Completion c;
        while ((c = completions.poll()) != null)
        {
            results[c.who()] = c.result();
            final long delayNs = sessions.delayNs(c.who(), c.result());
            if (delayNs >= 0)
            {
                due.add(new Due(c.result().endNs() + delayNs, c.who()));
            }
        }
    }

    /** @return false when the run is over: past its window or its measured-request count, or no slot came. */
    private boolean startTurn(final Due next, final long i, final long t0) throws InterruptedException
    {
        final LoadPlan p = plan;
        final int user = next.user();
        final boolean warmup = i < p.warmupRequests() ||
            (p.warmupDurationNs() > 0 && next.dueNs() < t0 + p.warmupDurationNs());
        if (!warmup && pastEnd(next.dueNs()))
        {
            return false;
        }
        final BuiltRequest request = sessions.nextTurn(user, results[user], next.dueNs());
        results[user] = null;
        final RequestSlot slot = acquire();
        if (slot == null)
        {
            return false;
        }
        slot.scheduledNs = next.dueNs();
        slot.user = user;
        return !submit(slot, request, i, warmup ? RequestSlot.PHASE_WARMUP : RequestSlot.PHASE_MEASURE, 0);
    }
}
