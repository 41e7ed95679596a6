package io.tokenclock.load;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;

/**
 * Starts requests according to a {@link LoadPlan}, on its own thread, and stamps each with its intended start
 * ({@link RequestSlot#scheduledNs}). {@link #of} picks the driver for the plan:
 * <ul>
 * <li>{@link OpenLoopDriver}: starts fixed before the run by the seed, whatever the server does;</li>
 * <li>{@link ClosedLoopDriver}: a fixed number of requests in flight (or one per concurrency stage);</li>
 * <li>{@link UserSessionDriver}: simulated users whose next turn is due a think time after their last answer;</li>
 * <li>{@link TraceSessionDriver}: a trace's sessions, each opening at its own time (or as another closes) and each
 * turn due the trace's delay after the previous one ended.</li>
 * </ul>
 * This base holds what they share: the stop flag, the measurement window, cold start, taking a slot, waiting for an
 * intended start, and submitting.
 * <p>
 * Thread-safety: {@link #run()} on the generator's own thread; {@link #coldStart(boolean)} before it starts;
 * {@link #stop()}, {@link #isFinished()}, {@link #windowCloseNs()} and {@link #onUserTurnEnded} from any thread;
 * {@link #scheduleHash()} once, after the generator finished.
 */
public abstract sealed class LoadGenerator implements Runnable
    permits OpenLoopDriver, ClosedLoopDriver, AnswerPacedGenerator
{
    /** Builds request number {@code i}. Called on the generator thread, ahead of the request's intended start. */
    public interface RequestFiller
    {
        /** @return request {@code i}, built from {@code i} and the seed alone. */
        BuiltRequest build(long i);

        /** Sets per-request rules on the slot (e.g. a cancellation rule) just before it is submitted. */
        default void onSubmit(final RequestSlot slot, final long i)
        {
        }

        /**
         * Request {@code i}, built ahead of its send, will never be sent: the run ended first (its window, a stop).
         * It leaves the workload's hash and count, which cover the requests sent.
         */
        default void onDropped(final long i)
        {
        }
    }

    /** Takes a filled slot and sends it. Must not block. */
    @FunctionalInterface
    public interface RequestSink
    {
        /** Sends {@code slot}, stamped with its intended start; returns at once, the response is read elsewhere. */
        void submit(RequestSlot slot);
    }

    /** How long before an intended start parking gives way to spinning: a park can wake late, a spin cannot. */
    static final long SPIN_NS = 50_000;
    /** The longest the generator parks before it looks again whether it was asked to stop. */
    static final long STOP_CHECK_NS = 100_000_000;
    /** The longest one wait for a permit (or a completion) lasts before the stop flag and the window are checked. */
    static final long ACQUIRE_POLL_NS = 50_000_000;
    private static final long COLD_POLL_NS = 200_000;

    final LoadPlan plan;
    final NanoClock clock;
    final SlotPool pool;
    final Waiter waiter;
    private final RequestSink sink;
    private boolean coldStart;
    private Stripe stripe = Stripe.WHOLE;
    private long startAtNs;
    private volatile long startLatenessNs = -1;
    private volatile boolean stopRequested;
    private volatile boolean finished;
    private volatile long measureStartNs;
    private long measuredSubmitted;
    private Runnable onWindowOpen;

    LoadGenerator(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final RequestSink sink, final Waiter waiter)
    {
        this.plan = plan;
        this.clock = clock;
        this.pool = pool;
        this.sink = sink;
        this.waiter = waiter;
    }

    /** The open- or closed-loop driver for {@code plan}, waiting by parking the calling thread. */
    public static LoadGenerator of(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final RequestFiller filler,
        final RequestSink sink)
    {
        return of(plan, clock, pool, filler, sink, ParkingWaiter.INSTANCE);
    }

    /**
     * The open- or closed-loop driver for {@code plan}, waiting through {@code waiter} (tests: a waiter that advances
     * a hand-set clock).
     *
     * @throws IllegalArgumentException for a plan of simulated users, whose turns a {@link SessionFiller} builds.
     */
    public static LoadGenerator of(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final RequestFiller filler,
        final RequestSink sink, final Waiter waiter)
    {
        if (plan.users() > 0)
        {
            throw new IllegalArgumentException("user-centric load needs a SessionFiller (ofUsers)");
        }
        return plan.closedLoop() ? new ClosedLoopDriver(plan, clock, pool, filler, sink, waiter) :
            new OpenLoopDriver(plan, clock, pool, filler, sink, waiter);
    }

    /** The driver of simulated users for {@code plan}, waiting by parking the calling thread. */
    public static LoadGenerator ofUsers(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final SessionFiller sessions,
        final RequestSink sink)
    {
        return ofUsers(plan, clock, pool, sessions, sink, ParkingWaiter.INSTANCE);
    }

    /**
     * The driver of simulated users for {@code plan}, waiting through {@code waiter}.
     *
     * @throws IllegalArgumentException for a plan without users.
     */
    public static LoadGenerator ofUsers(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final SessionFiller sessions,
        final RequestSink sink, final Waiter waiter)
    {
        if (plan.users() <= 0)
        {
            throw new IllegalArgumentException("a session filler needs a plan of simulated users");
        }
        return new UserSessionDriver(plan, clock, pool, sessions, sink, waiter);
    }

    /** The driver of a trace's sessions for {@code plan}, waiting by parking the calling thread. */
    public static LoadGenerator ofTrace(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final TraceFiller trace,
        final RequestSink sink)
    {
        return ofTrace(plan, clock, pool, trace, sink, ParkingWaiter.INSTANCE);
    }

    /**
     * The driver of a trace's sessions for {@code plan}, waiting through {@code waiter}.
     *
     * @throws IllegalArgumentException for a plan that is not a trace's sessions.
     */
    public static LoadGenerator ofTrace(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final TraceFiller trace,
        final RequestSink sink, final Waiter waiter)
    {
        if (!plan.traceSessions())
        {
            throw new IllegalArgumentException("a trace filler needs a plan of trace sessions");
        }
        return new TraceSessionDriver(plan, clock, pool, trace, sink, waiter);
    }

    @Override
    public final void run()
    {
        try
        {
            drive();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        finally
        {
            finished = true;
        }
    }

    /**
     * Makes request 0 a cold-start request: sent alone before the run, waited for, and reported on its own (phase
     * {@link RequestSlot#PHASE_COLD}); the schedule starts when it has ended. Call before the generator runs. User
     * sessions have no request 0 to send alone and ignore it.
     */
    public final LoadGenerator coldStart(final boolean cold)
    {
        this.coldStart = cold;
        return this;
    }

    /**
     * Runs {@code hook} once, on the generator's thread, as the first measured request is scheduled: the window's
     * opening, after any warm-up requests of the run. For readings of the client that belong to the window alone
     * (the JIT's time in it). Call before the generator runs.
     */
    public final LoadGenerator onWindowOpen(final Runnable hook)
    {
        this.onWindowOpen = hook;
        return this;
    }

    /**
     * Makes this generator one shard of a run: it still draws every request of the whole run in order (so its
     * hashes are the whole run's) but sends only those of {@code part}. Call before the generator runs.
     */
    public final LoadGenerator stripe(final Stripe part)
    {
        this.stripe = part;
        return this;
    }

    /**
     * Makes the run start at {@code startNs} on the run's clock instead of when the generator starts: the common
     * start of shards, each of which waits for it. Call before the generator runs; 0 for "at once".
     */
    public final LoadGenerator startAt(final long startNs)
    {
        this.startAtNs = startNs;
        return this;
    }

    /** @return how late the generator woke for its common start, ns; -1 without one or before it. Thread-safe. */
    public final long startLatenessNs()
    {
        return startLatenessNs;
    }

    /**
     * Tells a user-centric run that a user's turn ended; the user's next turn is due a think time later. Thread-safe
     * (called from the collector).
     *
     * @throws UnsupportedOperationException unless this is a user-centric run: only user sessions have turns.
     */
    public void onUserTurnEnded(final int user, final TurnResult result)
    {
        throw new UnsupportedOperationException("only user-centric load has turns");
    }

    /**
     * Hands the workload the turns that ended after the generator stopped sending (their answers came in the drain),
     * without starting anything, so that what it counts per session or task includes them. Call once, after the
     * generator's thread and the request stage have both stopped. Only user sessions and traces have turns.
     */
    public void settle()
    {
    }

    /**
     * @return hex SHA-256 over the intended start offsets (ns after t0, big-endian) of every request built, in order,
     * in open loop (the same requests the workload hash covers; see {@link OpenLoopSchedule}); null in closed loop
     * and for user sessions, where intended starts depend on when requests end. Call once, after the generator
     * finished.
     */
    public String scheduleHash()
    {
        return null;
    }

    /** Asks the generator to stop starting requests; requests already started run on. Thread-safe. */
    public final void stop()
    {
        stopRequested = true;
    }

    /** @return true once {@link #run()} has returned. Thread-safe. */
    public final boolean isFinished()
    {
        return finished;
    }

    /**
     * @return when the measurement window closes (first measured intended start + duration, ns on the run's clock),
     * or 0 if unknown. Thread-safe.
     */
    public final long windowCloseNs()
    {
        final long m = measureStartNs;
        return plan.measureDurationNs() > 0 && m != 0 ? m + plan.measureDurationNs() : 0;
    }

    /** Starts requests until the plan ends or a stop is asked for. Generator thread. */
    abstract void drive() throws InterruptedException;

    /** Sets the filler's per-request rules (e.g. cancellation) on a slot about to be submitted. */
    abstract void onSubmit(RequestSlot slot, long i);

    final boolean coldStart()
    {
        return coldStart;
    }

    final Stripe stripe()
    {
        return stripe;
    }

    /**
     * @return the run's t0: the common start (after sleeping until it) when one was set, else now. A shard's t0 is
     * the common start itself, not the moment it woke, so that every shard's schedule has the same origin.
     */
    final long startClock()
    {
        if (startAtNs == 0)
        {
            return clock.nanoTime();
        }
        sleepUntil(startAtNs);
        startLatenessNs = Math.max(0, clock.nanoTime() - startAtNs);
        return startAtNs;
    }

    /**
     * Accounts for request {@code i} of another shard as if it had been submitted (the window's start, the measured
     * count), so that every shard ends the schedule where the whole run would.
     *
     * @return true when the measured-request limit of the whole run has been reached.
     */
    final boolean skip(final int phase, final long scheduledNs)
    {
        return countMeasured(phase, scheduledNs);
    }

    final boolean stopRequested()
    {
        return stopRequested;
    }

    /** @return the intended start of the first measured request, or 0 if none yet. Any thread. */
    public final long measureStartNs()
    {
        return measureStartNs;
    }

    /** @return true if {@code nowNs} is past the measurement window (never while the window is not yet open). */
    final boolean pastEnd(final long nowNs)
    {
        final long d = plan.measureDurationNs();
        final long m = measureStartNs;
        return d > 0 && m != 0 && nowNs >= m + d;
    }

    /** Sends the cold-start request alone and waits for it; returns the next request number. */
    final long sendColdStart(final BuiltRequest request) throws InterruptedException
    {
        final RequestSlot slot = acquire();
        if (slot == null)
        {
            return 0;
        }
        slot.scheduledNs = clock.nanoTime();
        submit(slot, request, 0, RequestSlot.PHASE_COLD, 0);
        while (pool.inUse() > 0 && !stopRequested)
        {
            waiter.park(COLD_POLL_NS);
        }
        return 1;
    }

    /** @return a slot with its permit, or null if the run stopped or its window closed while waiting for one. */
    final RequestSlot acquire() throws InterruptedException
    {
        while (!stopRequested)
        {
            final RequestSlot slot = pool.acquire(ACQUIRE_POLL_NS);
            if (slot != null)
            {
                return slot;
            }
            if (pastEnd(clock.nanoTime()))
            {
                return null;
            }
        }
        return null;
    }

    /**
     * Sleeps until {@code deadlineNs}, parking in slices of at most {@link #STOP_CHECK_NS} so that {@link #stop()}
     * is noticed within that even when the next start is far away, and spinning the last {@link #SPIN_NS}.
     *
     * @return false if a stop was asked for before the deadline.
     */
    final boolean sleepUntil(final long deadlineNs)
    {
        long remaining;
        while ((remaining = deadlineNs - clock.nanoTime()) > SPIN_NS)
        {
            if (stopRequested)
            {
                return false;
            }
            waiter.park(Math.min(remaining - SPIN_NS, STOP_CHECK_NS));
        }
        while (clock.nanoTime() < deadlineNs)
        {
            waiter.spin();
        }
        return !stopRequested;
    }

    /**
     * Fills the common fields, submits, and counts.
     *
     * @param stage the stage index (0 without stages), which moves the request to the stage's own groups.
     * @return true when the measured-request limit has been reached.
     */
    final boolean submit(
        final RequestSlot slot, final BuiltRequest request, final long i, final int phase, final int stage)
    {
        final LoadPlan p = plan;
        slot.body = request.body();
        slot.bodyLength = request.body().length;
        slot.promptTokensHint = request.promptTokensHint();
        slot.group = request.group();
        slot.inputs = request.inputs();
        slot.answerLimit = request.answerLimit();
        final RequestTag tag = request.tag();
        slot.sessionId = tag.sessionId();
        slot.turn = tag.turn();
        slot.task = tag.task();
        slot.step = tag.step();
        slot.idealCachedTokens = tag.idealCachedTokens();
        slot.requestId = i;
        slot.phase = phase;
        final boolean limitReached = countMeasured(phase, slot.scheduledNs);
        onSubmit(slot, i);
        if (stage > 0)
        {
            slot.group += stage * p.groupsPerStage();
        }
        slot.submitNs = clock.nanoTime();
        sink.submit(slot);
        return limitReached;
    }

    /** Opens the window at the first measured start and counts measured requests; true at the measured limit. */
    private boolean countMeasured(final int phase, final long scheduledNs)
    {
        if (phase != RequestSlot.PHASE_MEASURE)
        {
            return false;
        }
        if (measureStartNs == 0)
        {
            measureStartNs = scheduledNs;
            if (onWindowOpen != null)
            {
                onWindowOpen.run();
            }
        }
        final long measured = measuredSubmitted + 1;
        measuredSubmitted = measured;
        return plan.measureRequests() > 0 && measured >= plan.measureRequests();
    }
}
