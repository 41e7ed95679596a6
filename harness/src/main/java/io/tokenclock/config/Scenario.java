package io.tokenclock.config;

import java.util.Locale;

/**
 * A load preset after MLPerf Inference's scenarios, so that a run says which question it answers and carries enough
 * samples for the percentile that question is judged on. A preset fills the load options the user left unset and
 * refuses the ones that contradict it; {@link RunRules} applies it.
 * <ul>
 * <li>{@link #SINGLE_STREAM}: one request at a time (closed loop, concurrency 1): the latency one user sees, judged at
 * its p90 as MLPerf's single-stream is.</li>
 * <li>{@link #SERVER}: Poisson arrivals at the given rate (open loop): latency under an offered load, judged at p99
 * (TTFT and TPOT, as MLPerf's LLM server scenario is).</li>
 * <li>{@link #OFFLINE}: every measured request in flight at once (closed loop at concurrency = requests): throughput
 * with no latency bound. MLPerf sends its offline samples as one query; an HTTP server receives them as that many
 * concurrent requests.</li>
 * </ul>
 * The minimum sample count is not MLPerf's fixed one (270,336 queries for a server p99 is hours of LLM time) but the
 * distribution-free one this harness reports with every tail: the fewest measured requests for which the judged
 * percentile's two-sided 95% order-statistic interval has an upper end (p90: 36; p99: 368), in the spirit of LoadGen's
 * early-stopping estimate.
 */
public enum Scenario
{
    OFFLINE("offline", Double.NaN),
    SERVER("server", 0.99),
    SINGLE_STREAM("single-stream", 0.90);

    private final String flagValue;
    private final double judgedQuantile;

    Scenario(final String flagValue, final double judgedQuantile)
    {
        this.flagValue = flagValue;
        this.judgedQuantile = judgedQuantile;
    }

    /** @return the scenario's name as flags, contracts and the record write it, e.g. {@code single-stream}. */
    public String flagValue()
    {
        return flagValue;
    }

    /** @return the quantile the scenario judges latency at, in (0, 1), or NaN for {@link #OFFLINE}. */
    public double judgedQuantile()
    {
        return judgedQuantile;
    }

    /**
     * @param value {@code offline}, {@code server} or {@code single-stream}, any case.
     * @throws IllegalArgumentException for any other value.
     */
    public static Scenario parse(final String value)
    {
        final String v = value.trim().toLowerCase(Locale.ROOT);
        for (final Scenario s : values())
        {
            if (s.flagValue.equals(v))
            {
                return s;
            }
        }
        throw new IllegalArgumentException("must be offline, server or single-stream: " + value);
    }
}
