package io.tokenclock.goodput;

import java.util.Locale;

import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestSlot;

/**
 * A service-level objective on per-request latencies: bounds on TTFT, TPOT, the request's inter-chunk latency (its
 * longest gap, or a percentile of its gaps) and end-to-end latency, each 0 for none. Goodput counts the measured
 * requests that ended ok within every bound (and, with a quality rule, passed it); the good fraction counts every
 * measured request, errors and cancellations included, in its denominator (as AIPerf does), so that failing fast never
 * raises it. This is the DistServe definition that vLLM {@code bench serve} and AIPerf use, with ITL added.
 * <p>
 * A metric that a request cannot have by construction does not miss: TPOT with one output token (as in vLLM), ITL
 * with one content chunk. A metric that a request should have and lacks does: a TTFT bound and no first token.
 * Immutable; thread-safe.
 *
 * @param ttftNs        bound on TTFT, ns; 0 for none.
 * @param tpotNs        bound on TPOT, ns; 0 for none.
 * @param itlNs         bound on the request's inter-chunk latency, ns; 0 for none.
 * @param itlPercentile which of the request's gaps is bounded: 100 for the longest, else this nearest-rank
 *                      percentile of its gaps, in (0, 100].
 * @param e2eNs         bound on end-to-end latency, ns; 0 for none.
 */
public record Slo(long ttftNs, long tpotNs, long itlNs, double itlPercentile, long e2eNs)
{
    /** The ITL percentile that bounds a request's longest gap. */
    public static final double ITL_MAX = 100;

    public Slo
    {
        if (ttftNs < 0 || tpotNs < 0 || itlNs < 0 || e2eNs < 0)
        {
            throw new IllegalArgumentException("SLO bounds must not be negative");
        }
        if (!(itlPercentile > 0 && itlPercentile <= ITL_MAX))
        {
            throw new IllegalArgumentException("the SLO's ITL percentile must be in (0, 100]: " + itlPercentile);
        }
    }

    /** An SLO without an ITL bound. */
    public Slo(final long ttftNs, final long tpotNs, final long e2eNs)
    {
        this(ttftNs, tpotNs, 0, ITL_MAX, e2eNs);
    }

    /** @return an SLO from bounds in milliseconds (0 or null for none), or null when no bound is set. */
    public static Slo ofMillis(final Double ttftMs, final Double tpotMs, final Double e2eMs)
    {
        return ofMillis(ttftMs, tpotMs, null, null, e2eMs);
    }

    /**
     * @param itlPercentile the percentile of a request's gaps that {@code itlMs} bounds, or null for the longest.
     * @return an SLO from bounds in milliseconds (0 or null for none), or null when no bound is set.
     */
    public static Slo ofMillis(
        final Double ttftMs, final Double tpotMs, final Double itlMs, final Double itlPercentile, final Double e2eMs)
    {
        if (itlPercentile != null && itlMs == null)
        {
            throw new IllegalArgumentException("an ITL percentile needs an ITL bound (itl_ms, --slo-itl-ms)");
        }
        final long ttft = ms(ttftMs);
        final long tpot = ms(tpotMs);
        final long itl = ms(itlMs);
        final long e2e = ms(e2eMs);
        return ttft == 0 && tpot == 0 && itl == 0 && e2e == 0 ? null :
            new Slo(ttft, tpot, itl, itlPercentile == null ? ITL_MAX : itlPercentile, e2e);
    }

    private static long ms(final Double value)
    {
        return value == null ? 0 : Math.round(value * 1e6);
    }

    /**
     * The latency bounds a request missed; allocation-free (on the request stage, once per measured request).
     *
     * @return a mask of {@link GoodputCounts#MISS_TTFT}, {@link GoodputCounts#MISS_TPOT},
     * {@link GoodputCounts#MISS_ITL} and {@link GoodputCounts#MISS_E2E}; 0 when it met every bound.
     */
    public int misses(final RequestSlot slot, final RequestMetrics m)
    {
        int mask = 0;
        if (ttftNs > 0 && (m.ttftNs < 0 || m.ttftNs > ttftNs))
        {
            mask |= GoodputCounts.MISS_TTFT;
        }
        if (tpotNs > 0 && m.tpotNs >= 0 && m.tpotNs > tpotNs)
        {
            mask |= GoodputCounts.MISS_TPOT;
        }
        if (itlNs > 0 && !itlMet(slot.chunkNs, slot.chunkCount))
        {
            mask |= GoodputCounts.MISS_ITL;
        }
        if (e2eNs > 0 && (m.e2eNs < 0 || m.e2eNs > e2eNs))
        {
            mask |= GoodputCounts.MISS_E2E;
        }
        return mask;
    }

    /**
     * Whether the bounded percentile of the gaps {@code chunkNs[i] - chunkNs[i-1]} is within the bound. The
     * nearest-rank percentile p of k gaps is the r-th smallest, r = ceil(p / 100 * k); it is within the bound exactly
     * when at least r gaps are, which one pass counts without sorting. Fewer than two chunks: no gap, met.
     */
    boolean itlMet(final long[] chunkNs, final int chunkCount)
    {
        final int gaps = chunkCount - 1;
        if (gaps <= 0)
        {
            return true;
        }
        final int rank = Math.max(1, (int)Math.ceil(itlPercentile / ITL_MAX * gaps - 1e-9));
        int within = 0;
        for (int i = 1; i < chunkCount; i++)
        {
            if (chunkNs[i] - chunkNs[i - 1] <= itlNs)
            {
                within++;
            }
        }
        return within >= rank;
    }

    /** @return a one-line description, e.g. {@code TTFT <= 500.0 ms, ITL p99 <= 100.0 ms}. */
    public String describe()
    {
        final StringBuilder sb = new StringBuilder();
        bound(sb, "TTFT", ttftNs);
        bound(sb, "TPOT", tpotNs);
        bound(sb, itlPercentile == ITL_MAX ? "ITL max" : "ITL p" + number(itlPercentile), itlNs);
        bound(sb, "e2e", e2eNs);
        return sb.toString();
    }

    private static String number(final double v)
    {
        return v == Math.rint(v) ? Long.toString((long)v) : String.format(Locale.ROOT, "%s", v);
    }

    private static void bound(final StringBuilder sb, final String name, final long ns)
    {
        if (ns > 0)
        {
            sb.append(sb.isEmpty() ? "" : ", ").append(name).append(" <= ").append(ns / 1e6).append(" ms");
        }
    }
}
