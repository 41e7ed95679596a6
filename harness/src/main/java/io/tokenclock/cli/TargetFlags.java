package io.tokenclock.cli;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;

import io.tokenclock.config.RunOptionsBuilder;

/**
 * {@code run}'s flags for where requests go that need code of their own (the client/server boundary, N): headers
 * parsed into a map, and a {@code --no-} switch. The rest ({@code --url}, {@code --endpoint}, the timeouts) are
 * {@link TableFlags}' from their entries. Each one is documented in docs/CLI.md; {@link Given} says which apply.
 */
final class TargetFlags
{
    @Option(names = {"-H", "--header"},
        description = "Extra header NAME:VALUE (repeatable). Values are never written out.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--no-preflight", negatable = false, description = "Skip the /models probe and the test request.")
    boolean noPreflight;

    /** Sets the builder from the flags that {@code given} says apply. */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        if (given.set("--header"))
        {
            RunCommand.parseHeaders(headers).forEach(o::header);
        }
        o.preflight(!noPreflight);
    }
}
