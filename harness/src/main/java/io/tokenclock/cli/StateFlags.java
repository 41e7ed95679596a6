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

    @Option(names = "--no-self-warmup", negatable = false, description = "Skip the harness's own warm-up against " +
        "the embedded simulator before the run (its JIT then compiles inside the measured window).")
    boolean noSelfWarmup;

    @Option(names = "--preconnect", description = "Connections to open before the schedule starts (default: the " +
        "concurrency, or in an open loop the rate x the preflight's latency scaled to --max-tokens).")
    Integer preconnect;

    /** Sets the builder from the flags that {@code given} says apply. */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        // The flag only turns the warm-up off: untyped, the builder keeps what it holds (the table's default, which
        // the system property tokenclock.selfWarmup=false turns off, or a contract's key). Applied as !noSelfWarmup,
        // as every other flag is without a contract, it turned the property's "off" back on in every run.
        if (noSelfWarmup)
        {
            o.set(RunOption.SELF_WARMUP, false);
        }
        given.apply(o, RunOption.PRECONNECT, preconnect);
        given.apply(o, RunOption.REPETITIONS, repetitions);
    }
}
