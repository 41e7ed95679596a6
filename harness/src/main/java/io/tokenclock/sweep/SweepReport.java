package io.tokenclock.sweep;

import java.util.List;

/**
 * A finished (or stopped) sweep: its plan, every point, the analysis, and the SLO search; written as
 * {@code sweep.json} by {@link SweepJson} and printed by {@link SweepTable}. Immutable and thread-safe.
 *
 * @param plan          what was asked.
 * @param slo           the SLO in words, or null when there is none.
 * @param ceiling       {@code auto}: the closed-loop run that measured the throughput ceiling, else null.
 * @param points        the sweep's points, in the order they ran (increasing load).
 * @param stoppedEarly  why the sweep stopped before its last point, or null.
 * @param partialReason why the sweep is incomplete (interrupted, server unreachable), or null.
 * @param analysis      the knees and the maximum goodput over {@code points}.
 * @param search        the SLO search, or null when none ran.
 * @param refused       the point whose configuration the server refused at the preflight, which ended the sweep;
 *                      null when none was.
 */
public record SweepReport(SweepPlan plan, String slo, SweepPoint ceiling, List<SweepPoint> points,
    String stoppedEarly, String partialReason, SweepAnalysis analysis, Search search, Refused refused)
{
    public SweepReport
    {
        points = List.copyOf(points);
    }

    /** A sweep in which the server refused no point. */
    public SweepReport(final SweepPlan plan, final String slo, final SweepPoint ceiling, final List<SweepPoint> points,
        final String stoppedEarly, final String partialReason, final SweepAnalysis analysis, final Search search)
    {
        this(plan, slo, ceiling, points, stoppedEarly, partialReason, analysis, search, null);
    }

    /**
     * A point the server refused before its window (a 500 "CUDA out of memory" on the preflight): it has no
     * figures, only the refusal its run directory holds.
     *
     * @param offered  the point's load (req/s or concurrency).
     * @param runDir   its run directory.
     * @param refusal  the refusal file in it ({@code refusal.json}).
     */
    public record Refused(double offered, java.nio.file.Path runDir, java.nio.file.Path refusal)
    {
    }

    /**
     * One run of the SLO search.
     *
     * @param point    its figures and run directory.
     * @param meetsSlo whether at least the plan's attainment of its measured requests met the SLO.
     */
    public record SearchRun(SweepPoint point, boolean meetsSlo)
    {
    }

    /**
     * The SLO search.
     *
     * @param settings where it started, its tolerance and budget.
     * @param runs     every run, in order.
     * @param result   how it ended.
     */
    public record Search(SloSearch.Settings settings, List<SearchRun> runs, SloSearch.Result result)
    {
        public Search
        {
            runs = List.copyOf(runs);
        }
    }

    /** @return the highest rate the search confirmed to meet the SLO, requests/s; NaN when none or no search. */
    public double maxRateMeetingSlo()
    {
        return search == null ? Double.NaN : search.result().maxRate();
    }
}
