package io.tokenclock.cli;

import picocli.CommandLine.Option;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;

/**
 * {@code run}'s flags for the state before the window: warm-up, cold start, readiness, repetitions (S). Each one is
 * documented in docs/CLI.md; {@link Given} says which apply.
 */
final class StateFlags
{
    @Option(names = "--repetitions",
        description = "Repeat the run N times (DIR/rep-K each) and report run-to-run variance " +
            "(default: ${DEFAULT-VALUE}).")
    int repetitions;

    @Option(names = "--cold-start",
        description = "Send the first request alone before the run and report it on its own as the cold start.")
    boolean coldStart;

    @Option(names = "--warmup-requests",
        description = "Requests run first and excluded from metrics.")
    long warmupRequests;

    @Option(names = "--warmup-duration", description = "Seconds of warmup, excluded from metrics.")
    double warmupDuration;

    @Option(names = "--no-self-warmup", negatable = false, description = "Skip the harness's own warm-up against " +
        "the embedded simulator before the run (its JIT then compiles inside the measured window).")
    boolean noSelfWarmup;

    @Option(names = "--preconnect", description = "Connections to open before the schedule starts (default: the " +
        "concurrency, or in an open loop the rate x the preflight's latency scaled to --max-tokens).")
    Integer preconnect;

    /** Sets the builder from the flags that {@code given} says apply. */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        given.apply(o, RunOption.SELF_WARMUP, !noSelfWarmup);
        given.apply(o, RunOption.PRECONNECT, preconnect);
        given.apply(o, RunOption.REPETITIONS, repetitions);
        given.apply(o, RunOption.COLD_START, coldStart);
        given.apply(o, RunOption.WARMUP_REQUESTS, warmupRequests);
        given.apply(o, RunOption.WARMUP_DURATION_S, warmupDuration);
    }
}
