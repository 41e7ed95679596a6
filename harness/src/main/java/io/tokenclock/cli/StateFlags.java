package io.tokenclock.cli;

import picocli.CommandLine.Option;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;

/**
 * {@code run}'s {@code --no-self-warmup} (S): a switch that only turns the warm-up off. The state's other flags
 * ({@code --repetitions}, {@code --preconnect}, the warm-up's) are {@link TableFlags}' from their entries. Documented
 * in docs/CLI.md.
 */
final class StateFlags
{
    @Option(names = "--no-self-warmup", negatable = false, description = "Skip the harness's own warm-up against " +
        "the embedded simulator before the run (its JIT then compiles inside the measured window).")
    boolean noSelfWarmup;

    /** Sets the builder from the flag. */
    void applyTo(final RunOptionsBuilder o)
    {
        // The flag only turns the warm-up off: untyped, the builder keeps what it holds (the table's default, which
        // the system property tokenclock.selfWarmup=false turns off, or a contract's key). Applied as !noSelfWarmup,
        // as every other flag is without a contract, it turned the property's "off" back on in every run.
        if (noSelfWarmup)
        {
            o.set(RunOption.SELF_WARMUP, false);
        }
    }
}
