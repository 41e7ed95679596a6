package io.tokenclock.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.tokenclock.config.RunOptions;
import io.tokenclock.results.OutputDir;
import io.tokenclock.runner.Interruption;
import io.tokenclock.runner.ServerProbe;
import io.tokenclock.sweep.StopRule;
import io.tokenclock.sweep.SweepPoint;
import io.tokenclock.sweep.SweepPlan;

/**
 * {@code tokenclock sweep}: runs one point per load (given rates, given concurrencies, or {@code --auto}: a ceiling
 * run, then rates from low load to past it), each a whole run in its own directory, then reports the knee two ways,
 * the maximum goodput and, with an SLO, the highest rate that meets it, found by a confirmed search. Every flag of
 * {@code run} applies to each point except those that set the load. Flags and {@code sweep.json}: docs/CLI.md,
 * docs/RESULTS.md.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
    modelTransformer = TableFlags.class,
    description = "Sweep the load to find the knee, the maximum goodput and the highest rate meeting the SLO.")
public final class SweepCommand implements Callable<Integer>
{
    /** {@code run}'s flags that set the load or the length, which a sweep sets itself for each point. */
    private static final List<String> SET_PER_POINT = List.of("--rate", "--concurrency", "--stage", "--ramp",
        "--concurrency-stage", "--concurrency-ramp", "--requests", "--duration", "--users", "--fixed-schedule",
        "--repetitions", "--scenario", "--min-samples-for");
    /** A contract's load keys that a sweep cannot honour: they shape the load or end the run. */
    private static final List<String> CONTRACT_LOAD_KEYS = List.of("users", "fixed_schedule", "ramp", "stages",
        "requests", "scenario", "min_samples_for");
    /** The sweep's own flags, and the output flags that each point sets itself: not in a point's command line. */
    static final List<String> NOT_RUN_FLAGS = List.of("--rates", "--concurrencies", "--auto", "--point-duration",
        "--points", "--ceiling-concurrency", "--knee-factor", "--stop-error-fraction", "--stop-slo-miss-fraction",
        "--slo-attainment", "--search-start", "--search-tolerance", "--search-max-runs", "--no-search",
        "--output-dir", "--run-id");
    /** {@code run}'s flags that apply to an open loop alone: an auto sweep's are for its rate points. */
    static final List<String> OPEN_LOOP_FLAGS = List.of("--arrival", "--burstiness", "--max-concurrency");

    @Option(names = "--rates", split = ",", paramLabel = "R1,R2,...",
        description = "Open loop: the rates to sweep, requests/s.")
    List<Double> rates;

    @Option(names = "--concurrencies", split = ",", paramLabel = "C1,C2,...",
        description = "Closed loop: the concurrencies to sweep.")
    List<Integer> concurrencies;

    @Option(names = "--auto", description = "Measure the throughput ceiling (closed loop at --ceiling-concurrency), " +
        "then sweep --points open-loop rates up to 1.4 x the ceiling.")
    boolean auto;

    @Option(names = "--point-duration", defaultValue = "30", paramLabel = "S",
        description = "Each point's measured window, s (default: ${DEFAULT-VALUE}).")
    double pointDurationS;

    @Option(names = "--points", defaultValue = "8", description = "--auto: rates after the ceiling (default: " +
        "${DEFAULT-VALUE}).")
    int points;

    @Option(names = "--ceiling-concurrency", defaultValue = "64", description = "--auto: the closed loop's " +
        "concurrency that measures the ceiling; above the server's batch size (default: ${DEFAULT-VALUE}).")
    int ceilingConcurrency;

    @Option(names = "--knee-factor", defaultValue = "2", description = "The latency knee: where TTFT p99 exceeds " +
        "this factor times its value at the lowest load (default: ${DEFAULT-VALUE}).")
    double kneeFactor;

    @Option(names = "--stop-error-fraction", defaultValue = "0.2", description = "Stop after a point where more " +
        "than this fraction of requests failed (1: never; default: ${DEFAULT-VALUE}).")
    double stopErrorFraction;

    @Option(names = "--stop-slo-miss-fraction", defaultValue = "0.9", description = "With an SLO: stop after a " +
        "point where more than this fraction of requests missed it (1: never; default: ${DEFAULT-VALUE}).")
    double stopSloMissFraction;

    @Option(names = "--slo-attainment", defaultValue = "0.9", description = "A run meets the SLO when at least " +
        "this fraction of its requests are good (default: ${DEFAULT-VALUE}).")
    double sloAttainment;

    @Option(names = "--search-start", paramLabel = "R",
        description = "The SLO search's first rate, requests/s (default: the highest swept rate that met the SLO, " +
            "else the lowest).")
    Double searchStart;

    @Option(names = "--search-tolerance", defaultValue = "0.05", description = "The SLO search ends when the " +
        "first failing rate is within this fraction above the last passing one (default: ${DEFAULT-VALUE}).")
    double searchTolerance;

    @Option(names = "--search-max-runs", defaultValue = "30",
        description = "The most runs the SLO search may make (default: ${DEFAULT-VALUE}).")
    int searchMaxRuns;

    @Option(names = "--no-search", description = "No SLO search, even with an SLO.")
    boolean noSearch;

    @Mixin
    RunFlags flags;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        final CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        for (final String flag : SET_PER_POINT)
        {
            if (parsed.hasMatchedOption(flag))
            {
                throw new IllegalArgumentException("sweep sets each point's load and length: " + flag + " does " +
                    "not apply (use --rates, --concurrencies or --auto, and --point-duration)");
            }
        }
        final SweepPlan plan = plan();
        // The base is judged as the first point the flags are meant for. An auto sweep's first run is the closed-loop
        // ceiling, but its --arrival, --burstiness and --max-concurrency are for the rate points after it: its base is
        // a rate point (at a stand-in rate), and the ceiling, derived from it by toBuilder(), carries nothing as
        // given. Forgetting at the ceiling that they were given would not do: an --arrival constant forgotten beside
        // a --burstiness reads as no arrival named, which RunRules turns into gamma for every point.
        final RunOptions base = SweepDriver.pointOptions(flags.toBuilder(parsed), plan.mode().equals("auto") ?
            SweepDriver.Point.rateStandIn() : SweepDriver.Point.of(plan, 0), plan.pointDurationS()).build();
        refuseContractLoad(base);
        final String sweepId = base.output().runId() != null ? base.output().runId() : "sweep-" +
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        final Path dir = base.output().outputDir() != null ? base.output().outputDir() : Path.of("results", sweepId);
        OutputDir.refuseExisting(dir, base.output().force(), "--output-dir or --run-id");
        final Interruption signals = Interruption.install(System.err, base.load().graceS());
        try
        {
            return new SweepDriver(base, plan, dir, sweepId, runCommands(parsed), signals).run();
        }
        catch (final ServerProbe.UnreachableException ex)
        {
            System.err.println(Main.errorLine(ex.getMessage()));
            return Main.EXIT_UNREACHABLE;
        }
    }

    /**
     * @return the {@code run} command line each loop's point starts from, before its load and length: the flags
     * given, less the sweep's own, and for a closed-loop point (an auto sweep's ceiling) less those meant for the
     * rate points ({@link #OPEN_LOOP_FLAGS}), which the point's line, run alone, would be refused with.
     */
    static Map<SweepPoint.Loop, List<String>> runCommands(final CommandLine.ParseResult parsed)
    {
        final List<String> notClosedLoop = new ArrayList<>(NOT_RUN_FLAGS);
        notClosedLoop.addAll(OPEN_LOOP_FLAGS);
        return Map.of(SweepPoint.Loop.RATE, RecordedCommand.of("run", parsed, NOT_RUN_FLAGS),
            SweepPoint.Loop.CONCURRENCY, RecordedCommand.of("run", parsed, notClosedLoop));
    }

    private SweepPlan plan()
    {
        final int modes = (rates != null ? 1 : 0) + (concurrencies != null ? 1 : 0) + (auto ? 1 : 0);
        if (modes != 1)
        {
            throw new IllegalArgumentException("sweep takes exactly one of --rates R1,R2,..., --concurrencies " +
                "C1,C2,... and --auto");
        }
        final String mode = auto ? "auto" : rates != null ? "rates" : "concurrencies";
        final List<Double> loads = new ArrayList<>();
        if (rates != null)
        {
            loads.addAll(rates);
        }
        else if (concurrencies != null)
        {
            concurrencies.forEach(c -> loads.add(c == null ? null : c.doubleValue()));
        }
        return new SweepPlan(mode, loads, pointDurationS, points, ceilingConcurrency, kneeFactor,
            new StopRule(check(stopErrorFraction, "--stop-error-fraction"),
                check(stopSloMissFraction, "--stop-slo-miss-fraction")), sloAttainment,
            searchStart == null ? Double.NaN : searchStart, searchTolerance, searchMaxRuns, !noSearch);
    }

    private static double check(final double fraction, final String flag)
    {
        if (!(fraction >= 0 && fraction <= 1))
        {
            throw new IllegalArgumentException(flag + " must be in [0, 1]: " + fraction);
        }
        return fraction;
    }

    /** Refuses a contract whose load the sweep would silently replace: stages, ramps, users, a trace, a count. */
    private static void refuseContractLoad(final RunOptions base)
    {
        if (base.output().contract() == null)
        {
            return;
        }
        final JsonNode load = base.output().contract().path("load");
        for (final String key : CONTRACT_LOAD_KEYS)
        {
            if (load.has(key))
            {
                throw new IllegalArgumentException(base.output().contractPath() + ": load." + key + " does not " +
                    "apply to a sweep, which sets each point's load and length (drop it, or use run)");
            }
        }
        if (base.state().repetitions() > 1)
        {
            throw new IllegalArgumentException(base.output().contractPath() + ": state.repetitions does not " +
                "apply to a sweep (its SLO search repeats runs itself)");
        }
    }
}
