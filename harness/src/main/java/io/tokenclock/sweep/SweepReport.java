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
 */
public record SweepReport(SweepPlan plan, String slo, SweepPoint ceiling, List<SweepPoint> points,
    String stoppedEarly, String partialReason, SweepAnalysis analysis, Search search)
{
    public SweepReport
    {
        points = List.copyOf(points);
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
