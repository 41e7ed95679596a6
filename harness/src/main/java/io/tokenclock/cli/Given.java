package io.tokenclock.cli;

import picocli.CommandLine;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;

/**
 * Which of {@code run}'s flags apply. Without a contract file every flag applies, its default included (the flags are
 * the whole configuration); over a contract only the flags the user typed do, so that a contract's key is never
 * replaced by a flag's default.
 */
final class Given
{
    private final CommandLine.ParseResult parsed;
    private final boolean overContract;

    Given(final CommandLine.ParseResult parsed, final boolean overContract)
    {
        this.parsed = parsed;
        this.overContract = overContract;
    }

    /** @return whether {@code flag} applies: always without a contract, when typed over one. */
    boolean set(final String flag)
    {
        return !overContract || parsed.hasMatchedOption(flag);
    }

    /** Sets {@code option} to the value of its flag when that flag applies ({@link #set}). */
    <T> void apply(final RunOptionsBuilder o, final RunOption<T> option, final T value)
    {
        if (set(option.flag()))
        {
            o.set(option, value);
        }
    }

    /** @return whether the user typed {@code flag}. */
    boolean typed(final String flag)
    {
        return parsed.hasMatchedOption(flag);
    }

    /** @return whether the flags sit over a contract file. */
    boolean overContract()
    {
        return overContract;
    }
}
