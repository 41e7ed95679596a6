package io.tokenclock.cli;

import picocli.CommandLine.Option;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;

/**
 * {@code run}'s flags for where the results go. Each one is documented in docs/CLI.md; {@link Given} says which apply.
 */
final class OutputFlags
{
    @Option(names = "--run-id", description = "Name of the run (default: run-<UTC time>).")
    String runId;

    @Option(names = "--force", description = "Replace the results of a run already in the output directory " +
        "(without it, such a directory is refused).")
    boolean force;

    @Option(names = "--no-progress", negatable = false, description = "No live progress line.")
    boolean noProgress;

    @Option(names = "--no-report", negatable = false, description = "Write no report.html and no CSV files.")
    boolean noReport;

    /** Sets the builder from the flags that {@code given} says apply. */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        o.force(force);
        o.runId(runId);
        given.apply(o, RunOption.HTML_REPORT, !noReport);
        o.progress(!noProgress && Terminal.stderrIsTerminal());
    }
}
