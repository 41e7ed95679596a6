package io.tokenclock.recording;

/**
 * A service-level objective on per-request latencies: a request is good when it ended ok and its TTFT, TPOT and
 * end-to-end latency are each within their bound. Goodput = good requests / window; the good fraction counts every
 * measured request, errors and cancellations included, in its denominator (as AIPerf does), so that failing fast never
 * raises it. This is the DistServe definition that vLLM {@code bench serve} and AIPerf use. A request whose TPOT is
 * undefined (one output token) meets the TPOT bound, as in vLLM.
 *
 * @param ttftNs bound on TTFT, ns; 0 for none.
 * @param tpotNs bound on TPOT, ns; 0 for none.
 * @param e2eNs  bound on end-to-end latency, ns; 0 for none.
 */
public record Slo(long ttftNs, long tpotNs, long e2eNs)
{
    public Slo
    {
        if (ttftNs < 0 || tpotNs < 0 || e2eNs < 0)
        {
            throw new IllegalArgumentException("SLO bounds must not be negative");
        }
    }

    /** @return an SLO from bounds in milliseconds (0 or null for none), or null when no bound is set. */
    public static Slo ofMillis(final Double ttftMs, final Double tpotMs, final Double e2eMs)
    {
        final long ttft = ms(ttftMs);
        final long tpot = ms(tpotMs);
        final long e2e = ms(e2eMs);
        return ttft == 0 && tpot == 0 && e2e == 0 ? null : new Slo(ttft, tpot, e2e);
    }

    private static long ms(final Double value)
    {
        return value == null ? 0 : Math.round(value * 1e6);
    }

    /** @return true if the request ended ok and met every bound. */
    public boolean met(final RequestSlot slot, final RequestMetrics m)
    {
        return slot.status == RequestSlot.STATUS_OK &&
            (ttftNs == 0 || (m.ttftNs >= 0 && m.ttftNs <= ttftNs)) &&
            (tpotNs == 0 || m.tpotNs < 0 || m.tpotNs <= tpotNs) &&
            (e2eNs == 0 || (m.e2eNs >= 0 && m.e2eNs <= e2eNs));
    }

    /** @return a one-line description, e.g. {@code TTFT <= 500 ms, TPOT <= 50 ms}. */
    public String describe()
    {
        final StringBuilder sb = new StringBuilder();
        bound(sb, "TTFT", ttftNs);
        bound(sb, "TPOT", tpotNs);
        bound(sb, "e2e", e2eNs);
        return sb.toString();
    }

    private static void bound(final StringBuilder sb, final String name, final long ns)
    {
        if (ns > 0)
        {
            sb.append(sb.isEmpty() ? "" : ", ").append(name).append(" <= ").append(ns / 1e6).append(" ms");
        }
    }
}
