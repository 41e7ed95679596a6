package io.tokenclock.load;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;

/**
 * Trace replay with sessions: the trace says when each session opens and how long after each turn the next is due.
 * On a fixed schedule (open loop) a session opens at its own time from the trace, divided by the speed-up (it is read
 * and its first turn built up to {@link #OPEN_AHEAD_NS} before); in a closed loop ({@code plan.concurrency()}
 * sessions) a session opens as soon as another closes. Within a session each
 * turn is due the trace's delay after the previous turn ended, so a slow answer delays the rest of its session, never
 * another session; subagents run beside their parent. Turns due at the same moment start in the order they fell due.
 * The run ends when every session has closed (or at the measured count or window, like any other load). In a
 * sharded run session {@code k} of the trace, with its subagents, is shard {@code k mod count}'s, as a simulated user
 * is; the other shards' sessions are passed over unread.
 * <p>
 * Ended turns arrive from the request stage through {@link #onUserTurnEnded} (each request carries its session's
 * handle as its {@link RequestSlot#user}), which wakes the driver. Not thread-safe beyond what {@link LoadGenerator}
 * states.
 */
final class TraceSessionDriver extends AnswerPacedGenerator implements TraceFiller.Schedule
{
    /**
     * A turn due at {@code dueNs}, built as soon as it fell due ({@link #buildDueTurns}), so that a long prompt's
     * synthesis and serialization are done while the session waits, not after its turn was due; ordered by due time,
     * then by the order it fell due.
     */
    private static final class Due implements Comparable<Due>
    {
        final long dueNs;
        final long order;
        final int handle;
        BuiltRequest request;

        Due(final long dueNs, final long order, final int handle)
        {
            this.dueNs = dueNs;
            this.order = order;
            this.handle = handle;
        }

        @Override
        public int compareTo(final Due other)
        {
            final int byTime = Long.compare(dueNs, other.dueNs);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }

    /**
     * On a fixed schedule, how long before its time a session is opened and its first turn built: a turn of tens of
     * thousands of tokens takes milliseconds to synthesize and serialize, which would otherwise be send lag.
     */
    static final long OPEN_AHEAD_NS = 1_000_000_000L;

    private final TraceFiller trace;
    private final PriorityQueue<Due> due = new PriorityQueue<>();
    private final List<Due> unbuilt = new ArrayList<>();
    private long order;
    private int open;
    private int session;
    private long t0;

    TraceSessionDriver(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final TraceFiller trace,
        final RequestSink sink, final Waiter waiter)
    {
        super(plan, clock, pool, sink, waiter);
        this.trace = trace;
    }

    @Override
    public void due(final int handle, final long dueNs)
    {
        final Due d = new Due(dueNs, order++, handle);
        due.add(d);
        unbuilt.add(d);
    }

    /** Builds the turns that fell due since the last pass, in the order they fell due. */
    private void buildDueTurns()
    {
        for (final Due d : unbuilt)
        {
            d.request = trace.nextTurn(d.handle, d.dueNs);
        }
        unbuilt.clear();
    }

    @Override
    public void closed()
    {
        open--;
    }

    /** Hands the filler the turns that ended after the last was sent, so that their sessions close. */
    @Override
    public void settle()
    {
        takeEndedTurns();
    }

    @Override
    void drive() throws InterruptedException
    {
        driverThread = Thread.currentThread();
        t0 = startClock();
        long i = 0;
        while (!stopRequested())
        {
            takeEndedTurns();
            openDueSessions();
            buildDueTurns();
            final long now = clock.nanoTime();
            final long next = nextEventNs();
            if (next == Long.MAX_VALUE)
            {
                if (open == 0 && nextOwnOpeningNs() < 0)
                {
                    break; // every session has closed
                }
                waiter.park(ACQUIRE_POLL_NS); // a turn in flight: its end wakes this park
                continue;
            }
            if (next - now > SPIN_NS)
            {
                waiter.park(Math.min(ACQUIRE_POLL_NS, next - now - SPIN_NS));
                continue;
            }
            if (due.isEmpty() || due.peek().dueNs > next)
            {
                continue; // the next event is an opening: openDueSessions takes it on the next pass
            }
            final Due turn = due.poll();
            if (!sleepUntil(turn.dueNs) || !startTurn(turn, i))
            {
                break;
            }
            i++;
        }
    }

    /** @return the earliest of the next due turn and (on a fixed schedule) the next opening, or Long.MAX_VALUE. */
    private long nextEventNs()
    {
        long next = due.isEmpty() ? Long.MAX_VALUE : due.peek().dueNs;
        if (!plan.closedLoop())
        {
            final long opening = nextOwnOpeningNs();
            if (opening >= 0)
            {
                next = Math.min(next, t0 + opening - OPEN_AHEAD_NS);
            }
        }
        return next;
    }

    /** Opens the sessions due now: on a fixed schedule those whose time has come, else up to the concurrency. */
    private void openDueSessions()
    {
        long opening;
        while ((opening = nextOwnOpeningNs()) >= 0 && (plan.closedLoop() ? open < plan.concurrency() :
            t0 + opening - clock.nanoTime() <= OPEN_AHEAD_NS))
        {
            open++;
            session++;
            trace.open(plan.closedLoop() ? Math.max(t0, clock.nanoTime()) : t0 + opening, this);
        }
    }

    /** @return when this shard's next session opens ({@link TraceFiller#nextOpeningNs}), past other shards' ones. */
    private long nextOwnOpeningNs()
    {
        final Stripe part = stripe();
        while (trace.nextOpeningNs() >= 0 && !part.ownsUser(session))
        {
            trace.skip();
            session++;
        }
        return trace.nextOpeningNs();
    }

    /** Hands ended turns to the filler, which schedules what follows them. */
    private void takeEndedTurns()
    {
        Completion c;
        while ((c = completions.poll()) != null)
        {
            trace.ended(c.who(), c.result(), this);
        }
    }

    @Override
    void onSubmit(final RequestSlot slot, final long i)
    {
    }

    /** @return false when the run is over: past its window or its measured-request count, or no slot came. */
    private boolean startTurn(final Due next, final long i) throws InterruptedException
    {
        final LoadPlan p = plan;
        final boolean warmup = i < p.warmupRequests() ||
            (p.warmupDurationNs() > 0 && next.dueNs < t0 + p.warmupDurationNs());
        if (!warmup && pastEnd(next.dueNs))
        {
            return false;
        }
        final RequestSlot slot = acquire();
        if (slot == null)
        {
            return false;
        }
        slot.scheduledNs = next.dueNs;
        slot.user = next.handle;
        final BuiltRequest request = trace.sending(next.handle, next.request);
        return !submit(slot, request, i, warmup ? RequestSlot.PHASE_WARMUP : RequestSlot.PHASE_MEASURE, 0);
    }
}
