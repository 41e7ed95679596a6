package io.tokenclock.peers;

import java.util.List;

/**
 * A peer's successful requests one by one, as its file gives them and in tokenclock's units: what report.html draws
 * for a peer file as it draws a run (percentile plots of TTFT, TPOT, ITL and e2e; with start times, the figures over
 * time). The arrays are aligned: index i is the same request in each. Not copied: read-only by convention.
 *
 * @param startS       each request's start, s, on the peer's own clock (relative only), or null when the file has
 *                     none.
 * @param ttftMs       TTFT, ms.
 * @param gapsMs       each request's chunk gaps, ms, or null when the file has none.
 * @param e2eMs        end-to-end latency, ms, or null.
 * @param outputTokens output tokens, or null.
 */
public record PerRequest(double[] startS, double[] ttftMs, List<double[]> gapsMs, double[] e2eMs,
    double[] outputTokens)
{
    /** @return how many requests. */
    public int size()
    {
        return ttftMs.length;
    }
}
