package io.tokenclock.sweep;

import java.util.List;
import java.util.TreeSet;

/**
 * What a sweep runs and how it judges, validated: the points (given loads, or {@code auto}: a ceiling run then
 * {@link AutoPlan}'s rates), each point's length, the knee factor, the stop rule, and the SLO search. Messages name
 * the {@code tokenclock sweep} flag at fault (docs/CLI.md). Immutable and thread-safe.
 *
 * @param mode               {@code rates}, {@code concurrencies} or {@code auto}.
 * @param loads              the given loads, increasing (requests/s or concurrencies); empty for {@code auto}.
 * @param pointDurationS     each point's measured window, s.
 * @param autoPoints         {@code auto}: how many rates after the ceiling.
 * @param ceilingConcurrency {@code auto}: the closed loop's concurrency that measures the ceiling.
 * @param kneeFactor         the latency knee's factor over the low-load p99, &gt; 1.
 * @param stopRule           when the sweep stops early.
 * @param sloAttainment      a run meets the SLO when at least this fraction of its measured requests are good.
 * @param searchStart        the search's first rate, requests/s, or NaN for the sweep's lowest rate.
 * @param searchTolerance    the search's relative tolerance.
 * @param searchMaxRuns      the most runs the search may make.
 * @param search             whether to search for the highest rate meeting the SLO (when there is one).
 */
public record SweepPlan(String mode, List<Double> loads, double pointDurationS, int autoPoints,
    int ceilingConcurrency, double kneeFactor, StopRule stopRule, double sloAttainment, double searchStart,
    double searchTolerance, int searchMaxRuns, boolean search)
{
    /** The most points a sweep of given loads runs. */
    public static final int MAX_LOADS = 100;

    public SweepPlan
    {
        loads = sortedDistinct(mode, loads);
        require(pointDurationS > 0, "--point-duration must be > 0 seconds: " + pointDurationS);
        require(!mode.equals("auto") || (autoPoints >= AutoPlan.MIN_POINTS && autoPoints <= AutoPlan.MAX_POINTS),
            "--points must be in [" + AutoPlan.MIN_POINTS + ", " + AutoPlan.MAX_POINTS + "]: " + autoPoints);
        require(ceilingConcurrency >= 1, "--ceiling-concurrency must be >= 1: " + ceilingConcurrency);
        require(kneeFactor > 1, "--knee-factor must be > 1: " + kneeFactor);
        require(sloAttainment > 0 && sloAttainment <= 1, "--slo-attainment must be in (0, 1]: " + sloAttainment);
        require(Double.isNaN(searchStart) || searchStart > 0, "--search-start must be > 0 requests/s: " +
            searchStart);
        require(searchTolerance > 0, "--search-tolerance must be > 0: " + searchTolerance);
        require(searchMaxRuns >= SloSearch.RUNS_PER_VERDICT, "--search-max-runs must be >= " +
            SloSearch.RUNS_PER_VERDICT + ": " + searchMaxRuns);
    }

    /** @return the most runs the sweep makes: the ceiling (auto), every point, and the SLO search's budget. */
    public int maxRuns(final boolean sloSet)
    {
        return (mode.equals("auto") ? 1 + autoPoints : loads.size()) + (sloSet && search ? searchMaxRuns : 0);
    }

    /**
     * @param perRunExtraS what a run adds to its window at most: its warm-up time and its drain timeout, s.
     * @return an upper bound of the sweep's duration, s: every run it may make, each as long as it may last. Warm-up
     * by request count, the preflight and the first run's self-warm-up come on top (seconds, not minutes).
     */
    public double maxDurationS(final boolean sloSet, final double perRunExtraS)
    {
        return maxRuns(sloSet) * (pointDurationS + perRunExtraS);
    }

    /**
     * @return the runs an SLO search typically makes: the search itself ({@link SloSearch}) run against a server whose
     * highest passing rate lies halfway between its start and twice that (the start is the highest swept rate that
     * met the SLO, so the first doubling fails), every verdict agreed on at once; within {@link #searchMaxRuns()}.
     * With the default tolerance of 0.05: 6 verdicts of 2 runs, 12 runs.
     */
    public int typicalSearchRuns()
    {
        return SloSearch.run(new SloSearch.Settings(1, searchTolerance, searchMaxRuns), rate -> rate <= 1.5).runs();
    }

    /** @return the runs the sweep typically makes: the ceiling (auto), every point, a typical SLO search. */
    public int typicalRuns(final boolean sloSet)
    {
        return (mode.equals("auto") ? 1 + autoPoints : loads.size()) + (sloSet && search ? typicalSearchRuns() : 0);
    }

    /**
     * @return the plan in one line, for the console before the sweep starts: the runs, the time they typically take
     * (each its window and warm-up time, and a drain that, while the server keeps up, lasts about one request), and
     * the bound (every search run used, every drain to its timeout). Example, {@code --auto --point-duration 30} with
     * an SLO: {@code tokenclock sweep: 1 ceiling + 8 points + an SLO search of typically 12 runs (at most 30):
     * typically 21 runs, 10.5 min of windows (30 s each) plus each run's drain (about one request while the server
     * keeps up); at most 39 runs, 58.5 min, if the search uses its budget and every drain reaches its 60 s timeout}.
     */
    public String describeDuration(final boolean sloSet, final double warmupS, final double drainS)
    {
        final boolean searching = sloSet && search;
        final int typical = typicalRuns(sloSet);
        final double typicalS = typical * (pointDurationS + warmupS);
        final double boundS = maxDurationS(sloSet, warmupS + drainS);
        return String.format(java.util.Locale.ROOT, "tokenclock sweep: %s%d point%s%s: typically %d runs, %.1f min " +
            "of windows (%s s each)%s plus each run's drain (about one request while the server keeps up); at most " +
            "%d runs, %.1f min, if %severy drain reaches its %s s timeout", mode.equals("auto") ? "1 ceiling + " : "",
            mode.equals("auto") ? autoPoints : loads.size(), (mode.equals("auto") ? autoPoints : loads.size()) == 1 ?
                "" : "s", searching ? " + an SLO search of typically " + typicalSearchRuns() + " runs (at most " +
                searchMaxRuns + ")" : "", typical, typicalS / 60, StopRule.format(pointDurationS), warmupS > 0 ?
                " and warm-up (" + StopRule.format(warmupS) + " s each)" : "", maxRuns(sloSet), boundS / 60,
            searching ? "the search uses its budget and " : "", StopRule.format(drainS));
    }

    private static List<Double> sortedDistinct(final String mode, final List<Double> loads)
    {
        final String flag = "--" + mode;
        if (mode.equals("auto"))
        {
            return List.of();
        }
        require(mode.equals("rates") || mode.equals("concurrencies"), "unknown sweep mode: " + mode);
        require(!loads.isEmpty() && loads.size() <= MAX_LOADS, flag + " takes 1 to " + MAX_LOADS + " values");
        final TreeSet<Double> sorted = new TreeSet<>();
        for (final Double load : loads)
        {
            require(load != null && load > 0 && !load.isInfinite(), flag + " values must be > 0: " + load);
            require(mode.equals("rates") || load == Math.rint(load), flag + " values must be whole numbers: " +
                load);
            require(sorted.add(load), flag + " lists " + StopRule.format(load) + " twice");
        }
        return List.copyOf(sorted);
    }

    /** @return how each point offers its load: concurrencies are a closed loop, rates (and auto's) an open one. */
    public SweepPoint.Loop loop()
    {
        return mode.equals("concurrencies") ? SweepPoint.Loop.CONCURRENCY : SweepPoint.Loop.RATE;
    }

    private static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }
}
