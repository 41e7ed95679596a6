package io.tokenclock.cli;

import java.util.List;

import picocli.CommandLine.Option;

import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.goodput.Slo;
import io.tokenclock.quality.Checks;

/** {@code run}'s flags for how the client measures itself and judges requests: event loops, profiling, SLO (E, Q);
 * documented in docs/CLI.md. */
final class MeasurementFlags
{
    @Option(names = "--slo-ttft-ms", description = "Goodput SLO: TTFT bound, ms.")
    Double sloTtftMs;

    @Option(names = "--slo-tpot-ms", description = "Goodput SLO: TPOT bound, ms.")
    Double sloTpotMs;

    @Option(names = "--slo-e2e-ms", description = "Goodput SLO: end-to-end latency bound, ms.")
    Double sloE2eMs;

    @Option(names = "--slo-itl-ms", description = "Goodput SLO: bound on each request's inter-chunk latency (its " +
        "longest gap, or the --slo-itl-percentile of its gaps), ms.")
    Double sloItlMs;

    @Option(names = "--slo-itl-percentile", paramLabel = "P", description = "Which of a request's gaps " +
        "--slo-itl-ms bounds: its P-th percentile (nearest rank), in (0, 100] (default: 100, the longest gap).")
    Double sloItlPercentile;

    @Option(names = "--quality-check", paramLabel = "TYPE[=ARG]", description = "A quality check of every " +
        "measured output, after the window (repeatable): exact, normalized, contains, regex[=PATTERN], " +
        "numeric[=TOLERANCE], json, json_schema=FILE, finish_stop, command=PROGRAM.")
    List<String> qualityChecks;

    /** Sets the builder from the flags that {@code given} says apply. */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        if (given.typed("--slo-ttft-ms") || given.typed("--slo-tpot-ms") || given.typed("--slo-e2e-ms") ||
            given.typed("--slo-itl-ms") || given.typed("--slo-itl-percentile"))
        {
            o.slo(Slo.ofMillis(sloTtftMs, sloTpotMs, sloItlMs, sloItlPercentile, sloE2eMs));
        }
        if (given.typed("--quality-check"))
        {
            o.qualityChecks(qualityChecks.stream().map(Checks::fromFlag).toList());
        }
    }
}
