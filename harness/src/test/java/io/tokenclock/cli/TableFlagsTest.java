package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;

/**
 * The flags picocli gets from {@link RunOption}'s table alone ({@link TableFlags}): each reaches its option typed,
 * shows its doc line and default in {@code --help}, gives way to a contract unless typed, and {@code --help} lists
 * every flag in the table's order.
 */
final class TableFlagsTest
{
    @TempDir
    Path dir;

    private static List<RunOption<?>> madeFromTheTable()
    {
        final CommandLine.Model.CommandSpec spec = new CommandLine(new RunCommand()).getCommandSpec();
        final List<RunOption<?>> made = new ArrayList<>();
        for (final RunOption<?> entry : RunOption.all())
        {
            final OptionSpec option = entry.flag() == null ? null : spec.findOption(entry.flag());
            // --url is every builder's own first flag below
            if (option != null && option.userObject() == entry && entry != RunOption.URL)
            {
                made.add(entry);
            }
        }
        return made;
    }

    private static RunOptionsBuilder builder(final String... args)
    {
        final RunCommand run = new RunCommand();
        final CommandLine cli = new CommandLine(run);
        cli.parseArgs(args);
        return run.flags.toBuilder(cli.getParseResult());
    }

    /** A value of {@code entry}'s type that differs from its default, as typed and as the builder should hold it. */
    private static Object[] sample(final RunOption<?> entry)
    {
        final Class<?> type = entry.type();
        for (final String word : entry.words())
        {
            final Object value = entry.parseWord(word.toUpperCase(java.util.Locale.ROOT));
            if (!value.equals(entry.defaultValue()))
            {
                return new Object[] {word.toUpperCase(java.util.Locale.ROOT), value};
            }
        }
        if (type == Boolean.class)
        {
            return new Object[] {null, !Boolean.TRUE.equals(entry.defaultValue())};
        }
        if (type == Integer.class)
        {
            return new Object[] {"3", 3};
        }
        if (type == Long.class)
        {
            return new Object[] {"3", 3L};
        }
        if (type == Double.class)
        {
            return new Object[] {"0.25", 0.25};
        }
        if (type == Path.class)
        {
            return new Object[] {"some/file", Path.of("some/file")};
        }
        return new Object[] {"some-text", "some-text"};
    }

    @Test
    void shouldMakeTheTablesPlainFlagsWithoutAnOptionInAnyMixin()
    {
        final List<RunOption<?>> made = madeFromTheTable();
        assertTrue(made.size() >= 30, "flags made from the table: " + made);
        for (final RunOption<?> entry : made)
        {
            assertTrue(TableFlags.generated(entry), entry + " is of a plain type or an enum, and no --no- switch");
        }
    }

    @Test
    void shouldHandEveryFlagMadeFromTheTableToItsOptionTyped()
    {
        for (final RunOption<?> entry : madeFromTheTable())
        {
            final Object[] sample = sample(entry);
            final List<String> args = new ArrayList<>(List.of("--url", "http://127.0.0.1:9/v1"));
            args.add(entry.flag());
            if (sample[0] != null)
            {
                args.add((String)sample[0]);
            }
            assertEquals(sample[1], builder(args.toArray(String[]::new)).get(entry), entry.flag());
        }
    }

    @Test
    void shouldLeaveEachOptionAtItsDefaultWhenItsFlagIsNotTyped()
    {
        final RunOptionsBuilder o = builder("--url", "http://127.0.0.1:9/v1");
        for (final RunOption<?> entry : madeFromTheTable())
        {
            assertEquals(entry.defaultValue(), o.get(entry), entry.flag());
        }
    }

    @Test
    void shouldLetAContractsKeyStandUnlessItsFlagIsTyped() throws Exception
    {
        final Path contract = dir.resolve("c.yaml");
        Files.writeString(contract, """
            target: {url: "http://127.0.0.1:9/v1", wait_ready_s: 7}
            model: {name: m, decoding: {max_tokens: 77}}
            load: {mode: closed, concurrency: 2, requests: 12}
            """);
        final RunOptionsBuilder kept = builder("--config", contract.toString());
        assertEquals(77, kept.get(RunOption.MAX_TOKENS));
        assertEquals(7.0, kept.get(RunOption.WAIT_READY_S));
        final RunOptionsBuilder typed = builder("--config", contract.toString(), "--max-tokens", "5");
        assertEquals(5, typed.get(RunOption.MAX_TOKENS));
        assertEquals(7.0, typed.get(RunOption.WAIT_READY_S));
    }

    @Test
    void shouldShowTheDocLineAndTheDefaultInHelp()
    {
        final String help = new CommandLine(new RunCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF)
            .replaceAll("\\s+", " ");
        assertTrue(help.contains("--max-tokens=N max_tokens per request; 0 leaves it to the server (default: 256)."),
            help);
        assertTrue(help.contains("--connect-timeout=S Seconds to open a connection"), help);
        assertTrue(help.contains("--server-metrics=URL|off"), help);
    }

    @Test
    void shouldListRunsFlagsInTheTablesOrder()
    {
        final List<String> listed = new ArrayList<>();
        for (final OptionSpec option : new CommandLine(new RunCommand()).getCommandSpec().options())
        {
            if (RunOption.byFlag(option.longestName()) != null && !listed.contains(option.longestName()))
            {
                listed.add(option.longestName());
            }
        }
        final List<String> table = new ArrayList<>();
        for (final RunOption<?> entry : RunOption.all())
        {
            if (entry.flag() != null && listed.contains(entry.flag()) && !table.contains(entry.flag()))
            {
                table.add(entry.flag());
            }
        }
        assertEquals(table, listed);
        assertEquals("--url", listed.get(0));
    }
}
