package io.tokenclock.cli;

import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

import io.tokenclock.config.RunOption;

/**
 * The defaults of {@code run}'s (and {@code sweep}'s) flags, read from {@link RunOption}'s table rather than written
 * again in each {@code @Option}: picocli applies them to the mixins' fields and shows them for
 * {@code ${DEFAULT-VALUE}} in {@code --help}. A flag the table gives no spelled default (a switch, a structured value,
 * an option with no default) keeps its annotation's own {@code defaultValue}, if any: {@code --turns} and
 * {@code --think-ms} are defaults of the flags alone (a contract's sessions declare their own).
 */
final class RunDefaults implements IDefaultValueProvider
{
    /** picocli makes one per command from {@code @Command(defaultValueProvider = ...)}. */
    RunDefaults()
    {
    }

    @Override
    public String defaultValue(final ArgSpec argument)
    {
        if (!(argument instanceof OptionSpec option))
        {
            return null;
        }
        final RunOption<?> run = RunOption.byFlag(option.longestName());
        return run == null ? null : run.defaultText();
    }
}
