package io.tokenclock.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

import io.tokenclock.secrets.Redaction;

/**
 * The command line as {@code record.json} keeps it, rebuilt from picocli's parse rather than from the raw arguments.
 * A secret is then found by the option it was given to, however it was spelled: {@code -HX-Key:v},
 * {@code -H=X-Key:v}, {@code -H "X-Key: v"}, {@code --header X-Key:v} and {@code --header=X-Key:v} all reach the
 * {@code --header} option as the value {@code X-Key:v}, and are all written {@code --header "X-Key: <redacted>"}.
 * Each option is written under its longest name with its value as a separate argument, in the order given, so
 * the list parses back to the same options ({@code replay} relies on it).
 * <p>
 * Worked example: {@code tokenclock run -HX-Key:s3cret --url=https://u:p@h/v1 --ignore-eos} is recorded as
 * {@code ["tokenclock", "run", "--header", "X-Key: <redacted>", "--url", "https://<redacted>@h/v1",
 * "--ignore-eos"]}.
 */
final class RecordedCommand
{
    /** Options whose values may hold credentials, and how each is shown. */
    private static final Map<String, UnaryOperator<String>> SECRET_VALUES = Map.of(
        "--header", Redaction::headerArgument,
        "--url", Redaction::url,
        "--server-metrics", Redaction::url,
        "--power", Redaction::url);

    private RecordedCommand()
    {
    }

    /**
     * @param command the subcommand's name, e.g. {@code run}.
     * @param parse   the subcommand's own parse result.
     * @return {@code tokenclock COMMAND} followed by every matched option, secrets redacted.
     */
    static List<String> of(final String command, final ParseResult parse)
    {
        return of(command, parse, List.of());
    }

    /**
     * @param command  the command's name in the result, e.g. {@code run}.
     * @param parse    the subcommand's own parse result.
     * @param leaveOut options (by longest name) to leave out: another command's own, e.g. {@code sweep}'s.
     * @return {@code tokenclock COMMAND} followed by every matched option but those, secrets redacted.
     */
    static List<String> of(final String command, final ParseResult parse, final List<String> leaveOut)
    {
        final List<String> out = new ArrayList<>(List.of("tokenclock", command));
        final Map<ArgSpec, Integer> used = new HashMap<>();
        for (final ArgSpec arg : parse.matchedArgs())
        {
            final List<String> values = arg.originalStringValues();
            final int index = used.merge(arg, 1, Integer::sum) - 1;
            if (arg instanceof OptionSpec option && leaveOut.contains(option.longestName()))
            {
                continue;
            }
            if (arg instanceof OptionSpec option)
            {
                out.add(option.longestName());
                if (option.arity().max() == 0)
                {
                    continue;
                }
            }
            final String value = index < values.size() ? values.get(index) : "";
            final UnaryOperator<String> shown = arg instanceof OptionSpec option ?
                SECRET_VALUES.get(option.longestName()) : null;
            out.add(shown == null ? value : shown.apply(value));
        }
        return out;
    }
}
