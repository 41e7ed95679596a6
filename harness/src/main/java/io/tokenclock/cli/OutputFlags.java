package io.tokenclock.cli;

import picocli.CommandLine.Option;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;

/**
 * {@code run}'s two {@code --no-} switches for where the results go; {@code --output-dir}, {@code --run-id},
 * {@code --force} and the rest are {@link TableFlags}' from their entries. Each one is documented in docs/CLI.md;
 * {@link Given} says which apply.
 */
final class OutputFlags
{
    @Option(names = "--no-progress", negatable = false, description = "No live progress line.")
    boolean noProgress;

    /** Its help is {@link RunOption#HTML_REPORT}'s doc line ({@link TableFlags}). */
    @Option(names = "--no-report", negatable = false)
    boolean noReport;

    /** Sets the builder from the flags that {@code given} says apply. */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        given.apply(o, RunOption.HTML_REPORT, !noReport);
        o.progress(!noProgress && Terminal.stderrIsTerminal());
    }
}
