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
 */
public record LoadPlan(
    boolean closedLoop, int concurrency, ArrivalProcess arrivals, int maxInFlight,
    long measureRequests, long measureDurationNs, long warmupRequests, long warmupDurationNs)
{
    public LoadPlan
    {
        if (closedLoop && concurrency < 1)
        {
            throw new IllegalArgumentException("--concurrency must be >= 1");
        }
        if (!closedLoop && arrivals == null)
        {
            throw new IllegalArgumentException("open loop needs an arrival process");
        }
        if (maxInFlight < 1)
        {
            throw new IllegalArgumentException("--max-concurrency must be >= 1");
        }
        if (measureRequests <= 0 && measureDurationNs <= 0)
        {
            throw new IllegalArgumentException("set --requests or --duration");
        }
        if (measureRequests < 0 || measureDurationNs < 0 || warmupRequests < 0 || warmupDurationNs < 0)
        {
            throw new IllegalArgumentException("counts and durations must not be negative");
        }
    }
}
