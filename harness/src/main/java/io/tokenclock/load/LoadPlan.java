package io.tokenclock.load;

/**
 * How load is offered and when the run stops.
 *
 * @param closedLoop        true: {@code concurrency} requests always in flight, a finished request's slot refilled at
 *                          once; false: open loop, requests start on the {@code arrivals} schedule regardless of
 *                          completions.
 * @param concurrency       closed loop: requests in flight.
 * @param arrivals          open loop: the arrival process; null in closed loop.
 * @param maxInFlight       cap on requests in flight (closed loop: = concurrency; open loop: --max-concurrency, or a
 *                          large safety cap). When the cap is reached, sends wait and the wait shows as send lag.
 * @param measureRequests   stop after this many measured requests were started; 0 for no count limit.
 * @param measureDurationNs stop starting measured requests this long after the first one's intended start; 0 for no
 *                          time limit.
 * @param warmupRequests    the first this many requests are warmup.
 * @param warmupDurationNs  requests intended to start within this long of the run's start are warmup too.
 * @param fixedOffsetsNs    open loop on a fixed schedule (trace replay): request i starts at t0 + offsets[i], and the
 *                          run ends after the last; null to draw from {@code arrivals}.
 * @param rateSchedule      open loop with a ramp and stages: {@code arrivals} then runs at rate 1 and is time-changed
 *                          by the schedule, requests in the ramp are excluded from metrics, and each stage is its own
 *                          group; null for a constant rate.
 * @param groupsPerStage    how many workload groups (segments) each stage holds, to compose group indices.
 * @param users             user-centric load: this many simulated users run multi-turn sessions, each turn starting a
 *                          think time after the user's previous answer ended; 0 for none. The rate emerges from the
 *                          users, and a slow answer delays that user's next turn instead of bursting later.
 * @param traceSessions     a trace's sessions bring their own schedule ({@link TraceFiller}): on a fixed schedule
 *                          (open loop) each opens at its own time, in a closed loop {@code concurrency} of them are
 *                          open at a time; the run ends when the trace does.
 */
public record LoadPlan(
    boolean closedLoop, int concurrency, ArrivalProcess arrivals, int maxInFlight,
    long measureRequests, long measureDurationNs, long warmupRequests, long warmupDurationNs, long[] fixedOffsetsNs,
    RateSchedule rateSchedule, int groupsPerStage, int users, ConcurrencySchedule concurrencyStages,
    boolean traceSessions)
{
    /** A plan without a trace's sessions. */
    public LoadPlan(
        final boolean closedLoop, final int concurrency, final ArrivalProcess arrivals, final int maxInFlight,
        final long measureRequests, final long measureDurationNs, final long warmupRequests,
        final long warmupDurationNs, final long[] fixedOffsetsNs, final RateSchedule rateSchedule,
        final int groupsPerStage, final int users, final ConcurrencySchedule concurrencyStages)
    {
        this(closedLoop, concurrency, arrivals, maxInFlight, measureRequests, measureDurationNs, warmupRequests,
            warmupDurationNs, fixedOffsetsNs, rateSchedule, groupsPerStage, users, concurrencyStages, false);
    }

    /** A plan without closed-loop stages. */
    public LoadPlan(
        final boolean closedLoop, final int concurrency, final ArrivalProcess arrivals, final int maxInFlight,
        final long measureRequests, final long measureDurationNs, final long warmupRequests,
        final long warmupDurationNs, final long[] fixedOffsetsNs, final RateSchedule rateSchedule,
        final int groupsPerStage, final int users)
    {
        this(closedLoop, concurrency, arrivals, maxInFlight, measureRequests, measureDurationNs, warmupRequests,
            warmupDurationNs, fixedOffsetsNs, rateSchedule, groupsPerStage, users, null);
    }

    /** A plan without simulated users. */
    public LoadPlan(
        final boolean closedLoop, final int concurrency, final ArrivalProcess arrivals, final int maxInFlight,
        final long measureRequests, final long measureDurationNs, final long warmupRequests,
        final long warmupDurationNs, final long[] fixedOffsetsNs, final RateSchedule rateSchedule,
        final int groupsPerStage)
    {
        this(closedLoop, concurrency, arrivals, maxInFlight, measureRequests, measureDurationNs, warmupRequests,
            warmupDurationNs, fixedOffsetsNs, rateSchedule, groupsPerStage, 0, null);
    }

    /** A plan on a fixed schedule or a constant rate. */
    public LoadPlan(
        final boolean closedLoop, final int concurrency, final ArrivalProcess arrivals, final int maxInFlight,
        final long measureRequests, final long measureDurationNs, final long warmupRequests,
        final long warmupDurationNs, final long[] fixedOffsetsNs)
    {
        this(closedLoop, concurrency, arrivals, maxInFlight, measureRequests, measureDurationNs, warmupRequests,
            warmupDurationNs, fixedOffsetsNs, null, 1);
    }

    /** A plan whose open-loop starts come from the arrival process. */
    public LoadPlan(
        final boolean closedLoop, final int concurrency, final ArrivalProcess arrivals, final int maxInFlight,
        final long measureRequests, final long measureDurationNs, final long warmupRequests,
        final long warmupDurationNs)
    {
        this(closedLoop, concurrency, arrivals, maxInFlight, measureRequests, measureDurationNs, warmupRequests,
            warmupDurationNs, null, null, 1);
    }

    public LoadPlan
    {
        if (fixedOffsetsNs != null)
        {
            if (closedLoop)
            {
                throw new IllegalArgumentException("a fixed schedule is an open loop");
            }
            for (int i = 1; i < fixedOffsetsNs.length; i++)
            {
                if (fixedOffsetsNs[i] < fixedOffsetsNs[i - 1])
                {
                    throw new IllegalArgumentException("fixed schedule offsets must not decrease");
                }
            }
        }
        if (users < 0)
        {
            throw new IllegalArgumentException("users must be >= 0");
        }
        if (closedLoop && concurrency < 1 && users == 0)
        {
            throw new IllegalArgumentException("--concurrency must be >= 1");
        }
        if (!closedLoop && arrivals == null && fixedOffsetsNs == null && users == 0 && !traceSessions)
        {
            throw new IllegalArgumentException("open loop needs an arrival process");
        }
        if (maxInFlight < 1)
        {
            throw new IllegalArgumentException("--max-concurrency must be >= 1");
        }
        if (rateSchedule != null && (closedLoop || fixedOffsetsNs != null))
        {
            throw new IllegalArgumentException("ramps and stages apply to an open loop with an arrival rate");
        }
        if (concurrencyStages != null && !closedLoop)
        {
            throw new IllegalArgumentException("concurrency stages apply to a closed loop");
        }
        if (groupsPerStage < 1)
        {
            throw new IllegalArgumentException("groupsPerStage must be >= 1");
        }
        if (measureRequests <= 0 && measureDurationNs <= 0 && fixedOffsetsNs == null && rateSchedule == null &&
            !traceSessions)
        {
            throw new IllegalArgumentException("set --requests or --duration");
        }
        if (measureRequests < 0 || measureDurationNs < 0 || warmupRequests < 0 || warmupDurationNs < 0)
        {
            throw new IllegalArgumentException("counts and durations must not be negative");
        }
    }
}
