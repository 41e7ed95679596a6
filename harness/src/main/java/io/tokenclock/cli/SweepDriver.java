package io.tokenclock.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.run.RunResult;
import io.tokenclock.report.CsvFiles;
import io.tokenclock.results.Index;
import io.tokenclock.results.Kind;
import io.tokenclock.runner.BenchmarkRunner;
import io.tokenclock.runner.Interruption;
import io.tokenclock.runner.Refusal;
import io.tokenclock.runner.ServerProbe;
import io.tokenclock.sweep.AutoPlan;
import io.tokenclock.sweep.SloSearch;
import io.tokenclock.sweep.StopRule;
import io.tokenclock.sweep.SweepAnalysis;
import io.tokenclock.sweep.SweepJson;
import io.tokenclock.sweep.SweepPlan;
import io.tokenclock.sweep.SweepPoint;
import io.tokenclock.sweep.SweepReport;
import io.tokenclock.sweep.SweepTable;

/**
 * Runs a sweep's points through {@link BenchmarkRunner}, each a whole run with its own directory
 * ({@code DIR/points/NN-rate-R}, {@code DIR/search/NN-rate-R}), then writes {@code DIR/sweep.json} and prints the
 * table. {@code DIR/index.json} and {@code DIR/sweep.json} are also written as the sweep begins and after each run,
 * marked partial ("in progress"), so that a sweep stopped at any moment, {@code kill -9} included, reads as the
 * partial sweep it is. Only the first run warms the harness up ({@code --no-self-warmup} after it: the JVM is warm).
 * Not thread-safe: one sweep.
 */
final class SweepDriver
{
    /**
     * One run of the sweep.
     *
     * @param folder  {@code points} or {@code search}.
     * @param index   its number in the folder; 0 for the ceiling.
     * @param loop    how it offers its load.
     * @param load    requests/s or concurrency.
     * @param ceiling whether it measures the throughput ceiling.
     */
    record Point(String folder, int index, SweepPoint.Loop loop, double load, boolean ceiling)
    {
        static Point ceiling(final SweepPlan plan)
        {
            return new Point("points", 0, SweepPoint.Loop.CONCURRENCY, plan.ceilingConcurrency(), true);
        }

        /**
         * A rate point whose rate is a stand-in: what an auto sweep's options are judged as before the ceiling tells
         * its rates (every point sets its own).
         */
        static Point rateStandIn()
        {
            return new Point("points", 0, SweepPoint.Loop.RATE, 1, false);
        }

        static Point of(final SweepPlan plan, final int i)
        {
            return new Point("points", i + 1, plan.loop(), plan.loads().get(i), false);
        }

        String name()
        {
            return String.format(Locale.ROOT, "%02d-%s%s-%s", index, ceiling ? "ceiling-" : "", loop.key(),
                StopRule.format(load));
        }
    }

    private final RunOptions base;
    private final SweepPlan plan;
    private final Path dir;
    private final String sweepId;
    /** Each loop's {@code run} command line, before a point's own flags ({@link SweepCommand#runCommands}). */
    private final Map<SweepPoint.Loop, List<String>> runCommands;
    private final Interruption signals;
    /** The point the server refused at its preflight, which ended the sweep; null while none was. */
    private SweepReport.Refused refused;
    private final List<SweepPoint> points = new ArrayList<>();
    private SweepPoint ceiling;
    private String stoppedEarly;
    private String partialReason;
    private SweepReport.Search search;
    private boolean warmed;

    SweepDriver(final RunOptions base, final SweepPlan plan, final Path dir, final String sweepId,
        final Map<SweepPoint.Loop, List<String>> runCommands, final Interruption signals)
    {
        this.base = base;
        this.plan = plan;
        this.dir = dir;
        this.sweepId = sweepId;
        this.runCommands = runCommands;
        this.signals = signals;
    }

    /**
     * Sets a point's load and length on {@code b}: the loop and its load, the window, and nothing else that shapes
     * the load (stages, ramps, users, a trace's schedule, a request count).
     */
    static RunOptionsBuilder pointOptions(final RunOptionsBuilder b, final Point p, final double durationS)
    {
        b.stages(new ArrayList<>()).ramp(null).concurrencyStages(null).concurrencyRamp(null).users(null)
            .fixedSchedule(false).requests(null).durationS(durationS);
        if (p.loop() == SweepPoint.Loop.RATE)
        {
            b.concurrency(null).rate(p.load());
        }
        else
        {
            b.rate(null).concurrency((int)p.load());
        }
        return b;
    }

    /** Runs the sweep, the search, writes sweep.json, prints the table; @return the exit status. */
    int run() throws IOException, InterruptedException, ServerProbe.UnreachableException
    {
        System.out.println(plan.describeDuration(base.quality().slo() != null, base.state().warmupDurationS(),
            base.load().drainTimeoutS()));
        progress();
        final boolean ceilingOk;
        try
        {
            ceilingOk = measure();
        }
        catch (final ServerProbe.UnreachableException ex)
        {
            partialReason = "the server could not be used: " + ex.getMessage();
            throw ex;
        }
        finally
        {
            partialReason = stoppedBy();
            report();
        }
        if (signals.requested())
        {
            return signals.exitStatus();
        }
        return ceilingOk && points.stream().anyMatch(p -> p.ok() > 0) ? Main.EXIT_OK : Main.EXIT_FAILED;
    }

    /** @return false when the ceiling run had no request that ended ok (nothing else is run then). */
    private boolean measure() throws IOException, InterruptedException, ServerProbe.UnreachableException
    {
        if (plan.mode().equals("auto") && !measureCeiling())
        {
            return signals.requested();
        }
        sweep();
        if (base.quality().slo() != null && plan.search() && stoppedBy() == null)
        {
            search();
        }
        return true;
    }

    private String stoppedBy()
    {
        return signals.requested() ? "interrupted by " + signals.signalName() : partialReason;
    }

    private boolean measureCeiling() throws IOException, InterruptedException, ServerProbe.UnreachableException
    {
        ceiling = run(Point.ceiling(plan));
        progress();
        if (!(ceiling.achievedRps() > 0))
        {
            partialReason = "the ceiling run (closed loop at concurrency " + plan.ceilingConcurrency() + ") had no " +
                "request that ended ok";
            System.err.println("tokenclock: " + partialReason + "; see " + ceiling.runDir());
            return false;
        }
        return !signals.requested();
    }

    private void sweep() throws IOException, InterruptedException, ServerProbe.UnreachableException
    {
        final List<Point> todo = new ArrayList<>();
        if (plan.mode().equals("auto"))
        {
            final double[] rates = AutoPlan.rates(ceiling.achievedRps(), plan.autoPoints());
            for (int i = 0; i < rates.length; i++)
            {
                todo.add(new Point("points", i + 1, SweepPoint.Loop.RATE, rates[i], false));
            }
        }
        else
        {
            for (int i = 0; i < plan.loads().size(); i++)
            {
                todo.add(Point.of(plan, i));
            }
        }
        for (final Point p : todo)
        {
            if (signals.requested())
            {
                return;
            }
            final SweepPoint done = run(p);
            points.add(done);
            progress();
            final String rule = plan.stopRule().reason(done, base.quality().slo() != null);
            final String stop = SweepAnalysis.stopNow(rule, points, plan.kneeFactor());
            if (rule != null && stop == null && p != todo.get(todo.size() - 1))
            {
                System.out.println("tokenclock sweep: " + rule + ", but the throughput fit does not see saturation " +
                    "yet: going on to the planned points, so that the capacity knee can be placed");
            }
            if (stop != null && p != todo.get(todo.size() - 1))
            {
                stoppedEarly = stop;
                System.out.println("tokenclock sweep: stopping early: " + stop);
                return;
            }
        }
    }

    private void search() throws IOException, InterruptedException, ServerProbe.UnreachableException
    {
        final double start = !Double.isNaN(plan.searchStart()) ? plan.searchStart() : startRate();
        if (!(start > 0))
        {
            System.out.println("tokenclock sweep: no SLO search: no rate to start from (give --search-start R)");
            return;
        }
        final SloSearch.Settings settings = new SloSearch.Settings(start, plan.searchTolerance(),
            plan.searchMaxRuns());
        final SloSearch s = new SloSearch(settings);
        final List<SweepReport.SearchRun> runs = new ArrayList<>();
        while (!s.done() && !signals.requested())
        {
            final double rate = s.nextRate();
            final SweepPoint p = run(new Point("search", runs.size() + 1, SweepPoint.Loop.RATE, rate, false));
            final boolean meets = meetsSlo(p);
            System.out.printf(Locale.ROOT, "tokenclock sweep: search run %d at %s req/s (%s of its verdict): %.1f%% " +
                "good, %s%n", runs.size() + 1, StopRule.format(rate), s.nextRunOfVerdict() == 3 ? "tiebreak" :
                "run " + s.nextRunOfVerdict(), 100 * p.goodFraction(), meets ? "meets the SLO" : "misses it");
            runs.add(new SweepReport.SearchRun(p, meets));
            s.record(meets);
            search = new SweepReport.Search(settings, runs, s.result());
            progress();
        }
    }

    /**
     * @return where the search starts: the highest swept rate that met the SLO, else the lowest swept rate (the
     * search then halves it); in a closed-loop sweep, the achieved rate of that point. NaN when there is none.
     */
    private double startRate()
    {
        SweepPoint start = points.isEmpty() ? null : points.get(0);
        for (final SweepPoint p : points)
        {
            start = meetsSlo(p) ? p : start;
        }
        return start == null ? Double.NaN : start.loop() == SweepPoint.Loop.RATE ? start.offered() :
            start.achievedRps();
    }

    private boolean meetsSlo(final SweepPoint p)
    {
        return p.samples() > 0 && p.goodFraction() >= plan.sloAttainment();
    }

    private SweepPoint run(final Point p) throws IOException, InterruptedException, ServerProbe.UnreachableException
    {
        final Path runDir = dir.resolve(p.folder()).resolve(p.name());
        final String runId = sweepId + "-" + p.folder() + "-" + p.name();
        final boolean selfWarmup = base.state().selfWarmup() && !warmed;
        final RunOptions o = pointOptions(base.toBuilder(), p, plan.pointDurationS()).outputDir(runDir).runId(runId)
            .selfWarmup(selfWarmup).commandLine(commandLine(p, runDir, runId, selfWarmup)).build();
        warmed = true;
        System.out.printf(Locale.ROOT, "tokenclock sweep: %s %s%s, %s s -> %s%n", p.loop().key(),
            StopRule.format(p.load()), p.ceiling() ? " (ceiling)" : "", StopRule.format(plan.pointDurationS()),
            runDir);
        final RunResult r;
        final long startNs = System.nanoTime();
        try
        {
            r = new BenchmarkRunner().interruptedBy(signals).run(o, System.err);
        }
        catch (final ServerProbe.UnreachableException ex)
        {
            if (ex.refusal() != null)
            {
                refused = new SweepReport.Refused(p.load(), runDir, runDir.resolve(Refusal.FILE));
            }
            throw ex;
        }
        final SweepPoint point = SweepPoint.of(r, p.loop(), p.load());
        final double tookS = (System.nanoTime() - startNs) / 1e9;
        System.out.printf(Locale.ROOT, "tokenclock sweep: %d ok, %d errors, %d cancelled; %.2f req/s in the window, " +
            "%s %.1f ms; the run took %.0f s%s%n", point.ok(), point.errors(), point.cancelled(),
            point.achievedRps(), point.streamed() ? "TTFT p99" : "e2e p99", point.kneeLatencyMs(), tookS,
            remaining(p, tookS));
        if (point.shortWindow())
        {
            System.out.println("tokenclock sweep: warning: " + SweepAnalysis.shortWindows(List.of(point)));
        }
        return point;
    }

    /**
     * @return how long the planned points still to run will take at this run's pace (the search, if any, comes on
     * top), e.g. {@code ; about 3.5 min left for 6 points}; empty after the last point and for the search's runs.
     */
    private String remaining(final Point p, final double tookS)
    {
        final int planned = plan.mode().equals("auto") ? plan.autoPoints() : plan.loads().size();
        final int left = p.ceiling() ? planned : "points".equals(p.folder()) ? planned - p.index() : 0;
        return left <= 0 ? "" : String.format(Locale.ROOT, "; about %.1f min left for %d point%s", left * tookS / 60,
            left, left == 1 ? "" : "s");
    }

    /** @return the {@code run} command line that reproduces this point alone. */
    private List<String> commandLine(final Point p, final Path runDir, final String runId, final boolean selfWarmup)
    {
        final List<String> c = new ArrayList<>(runCommands.get(p.loop()));
        c.addAll(List.of(p.loop() == SweepPoint.Loop.RATE ? "--rate" : "--concurrency", p.loop() ==
            SweepPoint.Loop.RATE ? Double.toString(p.load()) : Integer.toString((int)p.load()), "--duration",
            Double.toString(plan.pointDurationS()), "--output-dir", runDir.toString(), "--run-id", runId));
        if (!selfWarmup && !c.contains("--no-self-warmup"))
        {
            c.add("--no-self-warmup");
        }
        return c;
    }

    /** @return the sweep's runs for its index: the ceiling, the points in increasing load, the search's probes. */
    private List<Index.Member> members()
    {
        final List<Index.Member> members = new ArrayList<>();
        if (ceiling != null)
        {
            members.add(new Index.Member(absolute(ceiling.runDir()), "ceiling"));
        }
        for (int k = 0; k < points.size(); k++)
        {
            members.add(new Index.Member(absolute(points.get(k).runDir()), "point " + (k + 1)));
        }
        if (search != null)
        {
            for (int k = 0; k < search.runs().size(); k++)
            {
                members.add(new Index.Member(absolute(search.runs().get(k).point().runDir()),
                    "search " + (k + 1)));
            }
        }
        return members;
    }

    /** @return a run directory as recorded (relative to the working directory, or absolute), made absolute. */
    private static String absolute(final String runDir)
    {
        return Path.of(runDir).toAbsolutePath().toString();
    }

    /**
     * Writes sweep.json and index.json of the runs made so far, marked partial: the sweep is in progress. Called as
     * the sweep begins and after each run; {@link #report} replaces them at the end.
     */
    private void progress() throws IOException
    {
        final int made = (ceiling != null ? 1 : 0) + points.size() + (search != null ? search.runs().size() : 0);
        write(sweepReport("in progress: " + made + " run(s) made (sweep.json is rewritten after each run; read " +
            "while it says so, the sweep was stopped before its end or is still running)"));
    }

    private SweepReport sweepReport(final String partial)
    {
        return new SweepReport(plan, base.quality().slo() == null ? null : base.quality().slo().describe(), ceiling,
            points, stoppedEarly, partial, SweepAnalysis.of(points, plan.kneeFactor(), base.target().api()), search,
            refused);
    }

    private void write(final SweepReport r) throws IOException
    {
        SweepJson.write(r, dir);
        Index.write(dir, Kind.SWEEP, members());
    }

    private void report() throws IOException
    {
        final SweepReport r = sweepReport(partialReason);
        write(r);
        CsvFiles.writeSweep(dir);
        SweepTable.print(r, System.out);
        System.out.println("tokenclock sweep: " + dir.resolve(SweepJson.FILE));
        ReportCommand.afterRun(dir, base.output().htmlReport());
    }
}
