package io.tokenclock.peers;

import java.util.List;

/**
 * A peer's successful requests one by one, as its file gives them and in tokenclock's units: what report.html draws
 * for a peer file as it draws a run (percentile plots of TTFT, TPOT, ITL and e2e; with start times, the figures over
 * time). The arrays are aligned: index i is the same request in each. Not copied: read-only by convention.
 * <p>
 * A file may hold more requests than the report keeps ({@link KeptRequests}: at most {@value #MAX_REQUESTS}
 * requests and {@value #MAX_GAPS} gaps): then these are every
 * {@code every}-th successful request in the file's order, and {@code requests} says how many there were. The
 * record's distributions are the whole file's either way.
 *
 * @param startS       each request's start, s, on the peer's own clock (relative only), or null when the file has
 *                     none.
 * @param ttftMs       TTFT, ms (NaN where the file gives none).
 * @param gapsMs       each request's chunk gaps, ms, or null when the file has none.
 * @param e2eMs        end-to-end latency, ms, or null.
 * @param outputTokens output tokens, or null.
 * @param requests     the successful requests the file holds, these and the ones left out.
 * @param every        1 when these are all of them; else the step of the sample (every 2nd, 4th ... request).
 */
public record PerRequest(double[] startS, double[] ttftMs, List<double[]> gapsMs, double[] e2eMs,
    double[] outputTokens, long requests, int every)
{
    /** The most requests of a peer's file kept one by one. */
    public static final int MAX_REQUESTS = 10_000;
    /** The most chunk gaps kept, over every request kept (8 MB of doubles). */
    public static final int MAX_GAPS = 1_000_000;

    /** Every request of a file. */
    public PerRequest(final double[] startS, final double[] ttftMs, final List<double[]> gapsMs, final double[] e2eMs,
        final double[] outputTokens)
    {
        this(startS, ttftMs, gapsMs, e2eMs, outputTokens, ttftMs.length, 1);
    }

    /** @return how many requests are kept here. */
    public int size()
    {
        return ttftMs.length;
    }

    /** @return whether these are a sample of the file's requests, not all of them. */
    public boolean sampled()
    {
        return size() < requests;
    }
}
