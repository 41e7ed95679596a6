package io.tokenclock.report;

import java.io.PrintStream;
import java.util.Locale;

import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.results.record.ReportSection;
import io.tokenclock.run.RunResult;
import io.tokenclock.telemetry.ServerMetricsSummary;
import io.tokenclock.workload.SessionReport;

/**
 * The record's {@code report.cache} and {@code report.sessions}: what the prefix cache did per request (the cached
 * tokens each server reported) beside what an infinite cache would have done (the workload's ideal) and what the
 * server's own counters said, the engine's speculative drafts, and a session trace's sessions. Formulas in
 * docs/METRICS.md ("The prefix cache and speculative decoding", "Sessions"). Cold path; stateless.
 */
public final class CacheSection
{
    private CacheSection()
    {
    }

    /** @return {@code report.cache}, or null when no request, no workload and no server said anything of it. */
    public static ReportSection.Cache json(final RunResult r)
    {
        final RunResult.Counts c = r.counts();
        final long reporting = c.get(Counter.CACHE_REPORTING_REQUESTS);
        final long idealInput = c.get(Counter.IDEAL_INPUT_TOKENS);
        final long drafts = c.get(Counter.ENGINE_DRAFT_TOKENS);
        final Double server = serverHitRate(r.serverMetrics());
        if (reporting == 0 && idealInput == 0 && drafts == 0 && server == null)
        {
            return null;
        }
        final long reportingInput = c.get(Counter.CACHE_REPORTING_INPUT_TOKENS);
        final long cached = c.get(Counter.CACHED_TOKENS);
        final long idealCached = c.get(Counter.IDEAL_CACHED_TOKENS);
        final long accepted = c.get(Counter.ENGINE_DRAFT_ACCEPTED);
        return new ReportSection.Cache(reporting, reportingInput, cached, ratio(cached, reportingInput), idealInput,
            idealCached, ratio(idealCached, idealInput), server, drafts, accepted, ratio(accepted, drafts));
    }

    /** @return {@code report.sessions}, or null when the workload was not a session trace. */
    public static ReportSection.Sessions sessions(final RunResult r)
    {
        final SessionReport s = r.sessions();
        if (s == null)
        {
            return null;
        }
        final double total = s.inRequestsS() + s.traceWaitsS();
        return new ReportSection.Sessions(s.format(), s.traceSpeedup(), s.sessions(), s.completed(), s.turns(),
            s.subagents(), RecordWriter.dist(Distribution.of(s.turnsPerSession(), "turns", 1)),
            RecordWriter.dist(Distribution.of(s.sessionE2eMs(), "ms", 1)), s.inRequestsS(), s.traceWaitsS(),
            total > 0 ? s.traceWaitsS() / total : null);
    }

    /**
     * Prints the summary's cache and session lines, when the run has them: the prefix cache's hit rate as the
     * requests reported it, the ideal's and the server's beside it, and a session trace's sessions.
     */
    static void print(final RunResult r, final PrintStream out)
    {
        final ReportSection.Cache c = json(r);
        if (c != null && (c.hitRate() != null || c.idealHitRate() != null || c.serverHitRate() != null))
        {
            out.printf(Locale.ROOT, "prefix cache: hit rate %s per request (%d requests said), ideal %s, server " +
                "%s%n", percent(c.hitRate()), c.reportingRequests(), percent(c.idealHitRate()),
                percent(c.serverHitRate()));
        }
        final ReportSection.Sessions s = sessions(r);
        if (s != null)
        {
            out.printf(Locale.ROOT, "sessions (%s, speed-up %s): %d of %d closed, %d turns%s; session e2e p50 %s " +
                "p99 %s; in requests %.1f s vs the trace's waits %.1f s%n", s.format(), s.traceSpeedup(),
                s.completed(), s.sessions(), s.turns(), s.subagents() > 0 ? ", " + s.subagents() + " subagents" : "",
                seconds(s.sessionE2e().p50()), seconds(s.sessionE2e().p99()), s.inRequestsS(), s.traceWaitsS());
        }
    }

    private static String seconds(final Double ms)
    {
        return ms == null ? "n/a" : String.format(Locale.ROOT, "%.1f s", ms / 1e3);
    }

    private static String percent(final Double rate)
    {
        return rate == null ? "n/a" : String.format(Locale.ROOT, "%.1f%%", 100 * rate);
    }

    private static Double serverHitRate(final ServerMetricsSummary s)
    {
        if (s == null)
        {
            return null;
        }
        final double rate = s.prefixCacheHitRate();
        return Double.isNaN(rate) ? null : rate;
    }

    private static Double ratio(final long numerator, final long denominator)
    {
        return denominator > 0 ? (double)numerator / denominator : null;
    }
}
