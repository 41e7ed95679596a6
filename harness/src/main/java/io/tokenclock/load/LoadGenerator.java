package io.tokenclock.load;

import java.util.concurrent.locks.LockSupport;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;

/**
 * Starts requests according to a {@link LoadPlan}, on its own thread, and stamps each with its intended start.
 * <p>
 * Open loop: request i's intended start is {@code t0 + sum of i arrival gaps}, fixed before the run by the seed and
 * independent of how the server or the client behaves. The generator prepares the request body ahead of time, sleeps
 * until the intended start, takes a slot and submits. If the client cannot keep up (the in-flight cap is reached, or
 * the thread wakes late) the send happens late and {@code sent - scheduled} records by how much: coordinated omission
 * is shown, never hidden.
 * <p>
 * Closed loop: {@code concurrency} requests are kept in flight. A request's intended start is the end stamp of the
 * request whose slot it reuses (the run's start for the first ones), so the refill delay is measured too.
 */
public final class LoadGenerator implements Runnable
{
    /** Builds request number {@code i}. Called on the generator thread, ahead of the request's intended start. */
    public interface RequestFiller
    {
        /** @return the UTF-8 request body of request {@code i}. */
        byte[] body(long i);

        /** @return the approximate prompt length of request {@code i} in tokens, or -1. */
        int promptTokensHint(long i);

        /** Sets per-request rules on the slot (e.g. a cancellation rule) just before it is submitted. */
        default void onSubmit(RequestSlot slot, long i)
        {
        }
    }

    /** Takes a filled slot and sends it. Must not block. */
    @FunctionalInterface
    public interface RequestSink
    {
        void submit(RequestSlot slot);
    }

    private static final long SPIN_NS = 50_000;
    /** The longest the generator parks before it looks again whether it was asked to stop. */
    private static final long STOP_CHECK_NS = 100_000_000;
    private static final long ACQUIRE_POLL_NS = 50_000_000;

    private final LoadPlan plan;
    private final NanoClock clock;
    private final SlotPool pool;
    private final RequestFiller filler;
    private final RequestSink sink;

    private final java.security.MessageDigest scheduleDigest = sha256();
    private boolean coldStart;
    private volatile boolean stopRequested;
    private volatile boolean finished;
    private volatile long startNs;
    private volatile long measureStartNs;
    private long measuredSubmitted;

    public LoadGenerator(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final RequestFiller filler,
        final RequestSink sink)
    {
        this.plan = plan;
        this.clock = clock;
        this.pool = pool;
        this.filler = filler;
        this.sink = sink;
    }

    @Override
    public void run()
    {
        try
        {
            generate();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        finally
        {
            while (heldPermits > 0)
            {
                pool.releaseHeldPermit();
                heldPermits--;
            }
            finished = true;
        }
    }

    /** A user's turn ended (user-centric load). */
    private record Completion(int user, TurnResult result)
    {
    }

    private final java.util.concurrent.LinkedBlockingQueue<Completion> completions =
        new java.util.concurrent.LinkedBlockingQueue<>();

    /**
     * Tells a user-centric run that a user's turn ended; the user's next turn is due a think time later. Thread-safe
     * (called from the collector).
     */
    public void onUserTurnEnded(final int user, final TurnResult result)
    {
        completions.add(new Completion(user, result));
    }

    private void generateUsers() throws InterruptedException
    {
        final LoadPlan p = plan;
        final SessionFiller sessions = (SessionFiller)filler;
        final long t0 = clock.nanoTime();
        startNs = t0;
        final java.util.PriorityQueue<long[]> due = new java.util.PriorityQueue<>(
            java.util.Comparator.comparingLong((long[] a) -> a[0]).thenComparingLong(a -> a[1]));
        final TurnResult[] results = new TurnResult[p.users()];
        for (int u = 0; u < p.users(); u++)
        {
            due.add(new long[] {t0, u});
        }
        long i = 0;
        while (!stopRequested)
        {
            Completion c;
            while ((c = completions.poll()) != null)
            {
                results[c.user()] = c.result();
                final long delayNs = sessions.delayNs(c.user(), c.result());
                if (delayNs >= 0)
                {
                    due.add(new long[] {c.result().endNs() + delayNs, c.user()});
                }
            }
            final long now = clock.nanoTime();
            final long[] next = due.peek();
            if (next == null || next[0] - now > SPIN_NS)
            {
                final long waitNs = next == null ? ACQUIRE_POLL_NS : Math.min(ACQUIRE_POLL_NS, next[0] - now - SPIN_NS);
                c = completions.poll(waitNs, java.util.concurrent.TimeUnit.NANOSECONDS);
                if (c != null)
                {
                    completions.add(c);
                }
                if (next == null && pastEnd(clock.nanoTime()))
                {
                    break;
                }
                continue;
            }
            due.poll();
            if (!sleepUntil(next[0]))
            {
                break;
            }
            final int user = (int)next[1];
            final boolean warmup = i < p.warmupRequests() ||
                (p.warmupDurationNs() > 0 && next[0] < t0 + p.warmupDurationNs());
            if (!warmup && pastEnd(next[0]))
            {
                break;
            }
            final byte[] body = sessions.nextTurn(user, results[user], next[0]);
            results[user] = null;
            final RequestSlot slot = acquire();
            if (slot == null)
            {
                break;
            }
            slot.scheduledNs = next[0];
            slot.body = body;
            slot.user = user;
            if (submit(slot, i, warmup ? RequestSlot.PHASE_WARMUP : RequestSlot.PHASE_MEASURE, 0))
            {
                break;
            }
            i++;
        }
    }

    /**
     * Makes request 0 a cold-start request: sent alone before the run, waited for, and reported on its own (phase
     * {@link RequestSlot#PHASE_COLD}); the schedule starts when it has ended. Call before the generator runs.
     */
    public LoadGenerator coldStart(final boolean cold)
    {
        this.coldStart = cold;
        return this;
    }

    private int heldPermits = -1;
    private int concurrencyStage;
    private long stageChangeNs;

    /**
     * Holds or gives back permits so that the cap on requests in flight is the current stage's concurrency.
     *
     * @return false if the run is over (stopped, or past the last stage) while waiting.
     */
    private boolean adjustConcurrency(final ConcurrencySchedule stages) throws InterruptedException
    {
        final long now = clock.nanoTime();
        final long m = stages.rampStages() > 0 ? startNs : measureStartNs;
        final int stage = m == 0 ? 0 : stages.stageAt((now - m) / 1e9);
        if (heldPermits < 0)
        {
            heldPermits = 0;
        }
        final int target = stages.maxConcurrency() - stages.concurrency()[stage];
        if (stage != concurrencyStage)
        {
            stageChangeNs = now;
            concurrencyStage = stage;
        }
        while (heldPermits > target)
        {
            pool.releaseHeldPermit();
            heldPermits--;
        }
        while (heldPermits < target)
        {
            if (stopRequested || pastEnd(clock.nanoTime()))
            {
                return false;
            }
            if (pool.holdPermit(ACQUIRE_POLL_NS))
            {
                heldPermits++;
            }
        }
        return true;
    }

    /** Sends the cold-start request alone and waits for it; returns the next request number. */
    private long sendColdStart() throws InterruptedException
    {
        final byte[] body = filler.body(0);
        final RequestSlot slot = acquire();
        if (slot == null)
        {
            return 0;
        }
        slot.scheduledNs = clock.nanoTime();
        slot.body = body;
        submit(slot, 0, RequestSlot.PHASE_COLD, 0);
        while (pool.inUse() > 0 && !stopRequested)
        {
            LockSupport.parkNanos(200_000);
        }
        return 1;
    }

    private void generate() throws InterruptedException
    {
        if (plan.users() > 0)
        {
            generateUsers();
            return;
        }
        final long first = coldStart ? sendColdStart() : 0;
        final LoadPlan p = plan;
        final long t0 = clock.nanoTime();
        startNs = t0;
        final Offsets offsets = new Offsets(p);
        long i = first;
        while (!stopRequested)
        {
            final double offsetNs = offsets.next(i);
            if (offsetNs < 0)
            {
                break;
            }
            final long intendedNs = t0 + (long)offsetNs;
            final boolean warmup = i - first < p.warmupRequests() ||
                (p.warmupDurationNs() > 0 && (p.closedLoop() ? clock.nanoTime() : intendedNs) < t0 +
                p.warmupDurationNs());
            if (!warmup && !p.closedLoop() && pastEnd(intendedNs))
            {
                break;
            }

            final RequestSlot slot;
            if (p.closedLoop())
            {
                // Build the body before waiting for a free slot, so that building never delays the refill.
                final byte[] body = filler.body(i);
                if (p.concurrencyStages() != null && !adjustConcurrency(p.concurrencyStages()))
                {
                    break;
                }
                slot = acquire();
                if (slot == null)
                {
                    break;
                }
                final long now = clock.nanoTime();
                if (!warmup && pastEnd(now))
                {
                    pool.cancel(slot);
                    break;
                }
                final long previousEndNs = pool.pollEndStamp();
                slot.scheduledNs = previousEndNs > 0 ? previousEndNs : Math.max(t0, stageChangeNs);
                slot.body = body;
            }
            else
            {
                final long intended = intendedNs;
                // Build the body before waiting, so that building never delays the send.
                final byte[] body = filler.body(i);
                digestOffset((long)offsetNs);
                sleepUntil(intended);
                slot = acquire();
                if (slot == null)
                {
                    break;
                }
                slot.scheduledNs = intended;
                slot.body = body;
            }
            final int stage = p.concurrencyStages() != null ?
                concurrencyStage - p.concurrencyStages().rampStages() : offsets.stage();
            final int phase = warmup ? RequestSlot.PHASE_WARMUP : stage < 0 ? RequestSlot.PHASE_RAMP :
                RequestSlot.PHASE_MEASURE;
            if (submit(slot, i, phase, Math.max(0, stage)))
            {
                break;
            }
            i++;
        }
    }

    /**
     * Fills the common fields, submits, and counts.
     *
     * @return true when the measured-request limit has been reached.
     */
    private boolean submit(final RequestSlot slot, final long i, final int phase, final int stage)
    {
        final LoadPlan p = plan;
        slot.bodyLength = slot.body.length;
        slot.promptTokensHint = filler.promptTokensHint(i);
        slot.requestId = i;
        slot.phase = phase;
        if (phase == RequestSlot.PHASE_MEASURE && measureStartNs == 0)
        {
            measureStartNs = slot.scheduledNs;
        }
        filler.onSubmit(slot, i);
        if (stage > 0)
        {
            slot.group += stage * p.groupsPerStage();
        }
        slot.submitNs = clock.nanoTime();
        sink.submit(slot);
        if (phase == RequestSlot.PHASE_MEASURE)
        {
            final long measured = measuredSubmitted + 1;
            measuredSubmitted = measured;
            return p.measureRequests() > 0 && measured >= p.measureRequests();
        }
        return false;
    }

    private void digestOffset(final long offsetNs)
    {
        for (int shift = 56; shift >= 0; shift -= 8)
        {
            scheduleDigest.update((byte)(offsetNs >>> shift));
        }
    }

    private static java.security.MessageDigest sha256()
    {
        try
        {
            return java.security.MessageDigest.getInstance("SHA-256");
        }
        catch (final java.security.NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is required of every JDK", ex);
        }
    }

    /**
     * @return hex SHA-256 over the intended start offsets (ns after t0, big-endian) of every request built, in order,
     * in open loop (the same requests the workload hash covers); null in closed loop, where intended starts depend
     * on when requests end. Call after the generator finished.
     */
    public String scheduleHash()
    {
        return plan.closedLoop() ? null : java.util.HexFormat.of().formatHex(scheduleDigest.digest());
    }

    /**
     * Recomputes, offline, the schedule hash a run of this plan would report after building {@code requests}
     * requests: the replay check that the same seed gives the same schedule. The plan's arrival process must be
     * fresh (seeded, not yet drawn from).
     */
    public static String scheduleHash(final LoadPlan plan, final long requests)
    {
        final LoadGenerator g = new LoadGenerator(plan, () -> 0, null, null, null);
        final Offsets offsets = new Offsets(plan);
        for (long i = 0; i < requests; i++)
        {
            final double offsetNs = offsets.next(i);
            if (offsetNs < 0)
            {
                break;
            }
            g.digestOffset((long)offsetNs);
        }
        return g.scheduleHash();
    }

    /**
     * The open-loop intended start offsets, in ns after t0, in request order. They accumulate from 0, not from t0,
     * so that rounding never depends on the clock's origin: the same seed gives the same offsets (and schedule hash)
     * in every run. Closed loops have no offsets (0 for all).
     */
    private static final class Offsets
    {
        private final LoadPlan plan;
        private double offsetNs;
        private double unitS;
        private int stage;

        Offsets(final LoadPlan plan)
        {
            this.plan = plan;
        }

        /** @return request i's offset in ns, or -1 when the schedule has ended. */
        double next(final long i)
        {
            stage = 0;
            if (plan.fixedOffsetsNs() != null)
            {
                if (i >= plan.fixedOffsetsNs().length)
                {
                    return -1;
                }
                offsetNs = plan.fixedOffsetsNs()[(int)i];
            }
            else if (plan.rateSchedule() != null)
            {
                if (i > 0)
                {
                    unitS += plan.arrivals().nextGapNs() / 1e9;
                }
                final double t = plan.rateSchedule().timeAt(unitS);
                if (!(t < plan.rateSchedule().endS()))
                {
                    return -1;
                }
                stage = plan.rateSchedule().stageAt(t);
                offsetNs = t * 1e9;
            }
            else if (!plan.closedLoop() && i > 0)
            {
                offsetNs += plan.arrivals().nextGapNs();
            }
            return offsetNs;
        }

        /** @return the stage of the last offset: -1 in the ramp, else the stage index (0 without stages). */
        int stage()
        {
            return stage;
        }
    }

    private boolean pastEnd(final long nowNs)
    {
        final long d = plan.measureDurationNs();
        final long m = measureStartNs;
        return d > 0 && m != 0 && nowNs >= m + d;
    }

    private RequestSlot acquire() throws InterruptedException
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
     * is noticed within that even when the next start is far away.
     *
     * @return false if a stop was asked for before the deadline.
     */
    private boolean sleepUntil(final long deadlineNs)
    {
        long remaining;
        while ((remaining = deadlineNs - clock.nanoTime()) > SPIN_NS)
        {
            if (stopRequested)
            {
                return false;
            }
            LockSupport.parkNanos(Math.min(remaining - SPIN_NS, STOP_CHECK_NS));
        }
        while (clock.nanoTime() < deadlineNs)
        {
            Thread.onSpinWait();
        }
        return !stopRequested;
    }

    /** Asks the generator to stop starting requests; requests already started run on. Thread-safe. */
    public void stop()
    {
        stopRequested = true;
    }

    public boolean isFinished()
    {
        return finished;
    }

    /** @return the intended start of the first measured request, or 0 if none yet. */
    public long measureStartNs()
    {
        return measureStartNs;
    }

    /** @return when the measurement window closes (first measured intended start + duration), or 0 if unknown. */
    public long windowCloseNs()
    {
        final long m = measureStartNs;
        return plan.measureDurationNs() > 0 && m != 0 ? m + plan.measureDurationNs() : 0;
    }
}
