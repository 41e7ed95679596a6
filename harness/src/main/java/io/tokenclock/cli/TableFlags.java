package io.tokenclock.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptionsBuilder;

/**
 * The run's flags that are nothing but their entry in {@link RunOption}'s table: a value of a plain type handed to
 * the builder as it is. picocli gets them from the table ({@code @Command(modelTransformer = TableFlags.class)}), so
 * that such a flag is declared once: its name, type, label, doc line (the {@code --help} text) and default all come
 * from the entry. A flag that needs code of its own (a value parsed into a structure, several flags folded into one
 * option, a rule between flags, a switch spelled {@code --no-}) keeps its {@code @Option} in a mixin, and the
 * table's entry then only names it.
 * <p>
 * The transformer also lays every option out in the table's order (target, model, workload, load, state,
 * measurement, output), hand-written or not, so that {@code --help} reads like docs/CLI.md's table; options the
 * table does not know ({@code --help}, {@code sweep}'s own) follow in their declared order.
 * <p>
 * Example: {@code --busy-poll} is the entry {@code measurement("busyPoll", Boolean.class).flag("--busy-poll")
 * .defaultsTo(false).doc(...)} and the record component {@code Measurement.busyPoll} the client reads; nothing in
 * {@code cli} names it.
 */
public final class TableFlags implements CommandLine.IModelTransformer
{
    /** The types picocli converts on its own, as the table holds them (boxed). */
    private static final Set<Class<?>> PLAIN = Set.of(String.class, Path.class, Integer.class, Long.class,
        Double.class, Boolean.class);

    /** picocli makes one per command from the annotation. */
    public TableFlags()
    {
    }

    @Override
    public CommandSpec transform(final CommandSpec spec)
    {
        return addTo(spec, RunOption.all());
    }

    /**
     * Makes the flags of {@code table}'s entries in {@code spec} and lays all its options out in the table's order.
     *
     * @param spec  a command's spec, holding its hand-written options.
     * @param table the options, as {@link RunOption#all()} (a test passes others).
     * @return {@code spec}.
     */
    static CommandSpec addTo(final CommandSpec spec, final List<RunOption<?>> table)
    {
        final List<OptionSpec> written = new ArrayList<>(spec.options());
        for (final OptionSpec option : written)
        {
            spec.remove(option);
        }
        for (final RunOption<?> entry : table)
        {
            final OptionSpec own = entry.flag() == null ? null : find(written, entry.flag());
            if (own != null)
            {
                written.remove(own);
                // a hand-written flag with no help of its own shows its entry's doc line: one text, not two
                spec.addOption(own.description().length > 0 ? own :
                    own.toBuilder().description(entry.doc()).build());
            }
            else if (entry.flag() != null && spec.findOption(entry.flag()) == null && generated(entry))
            {
                spec.addOption(optionOf(entry));
            }
        }
        for (final OptionSpec rest : written)
        {
            spec.addOption(rest);
        }
        return spec;
    }

    /**
     * Hands the builder the value of every flag made from the table that the user typed. An untyped flag hands over
     * nothing: the builder holds the table's default already (or the contract's key), and a value handed over would
     * count as given (a {@code --burstiness} beside a closed loop is refused only when written).
     *
     * @param spec the parsed command's spec, holding the values picocli converted.
     */
    static void applyTo(final RunOptionsBuilder o, final Given given, final CommandSpec spec)
    {
        for (final OptionSpec option : spec.options())
        {
            if (option.userObject() instanceof RunOption<?> entry && given.typed(entry.flag()))
            {
                apply(o, entry, option.getValue());
            }
        }
    }

    /**
     * @return whether the table's entry alone makes {@code entry}'s flag: a plain type or an enum's word, not a
     * {@code --no-} switch.
     */
    static boolean generated(final RunOption<?> entry)
    {
        return (PLAIN.contains(entry.type()) || entry.type().isEnum()) && !entry.flag().startsWith("--no-");
    }

    private static <T> void apply(final RunOptionsBuilder o, final RunOption<T> entry, final Object value)
    {
        if (entry.words().isEmpty())
        {
            o.set(entry, entry.cast(value));
            return;
        }
        try
        {
            o.set(entry, entry.parseWord((String)value));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(entry.flag() + " " + ex.getMessage());
        }
    }

    private static OptionSpec optionOf(final RunOption<?> entry)
    {
        final boolean isSwitch = entry.type() == Boolean.class;
        // a worded flag's text goes to RunOption.parseWord, its one parser (a contract's key takes the same)
        final Class<?> type = entry.words().isEmpty() ? entry.type() : String.class;
        final OptionSpec.Builder b = OptionSpec.builder(entry.flag()).type(type).userObject(entry)
            .description(help(entry)).defaultValue(entry.defaultText());
        if (isSwitch)
        {
            b.arity("0");
        }
        else
        {
            b.paramLabel(entry.label());
        }
        return b.build();
    }

    /**
     * @return the doc line, with the entry's default before its full stop when it has one; the table's "or null" (the
     * Java field's absent value) said as a person would: ", or null for the server's." is "(default: the server's).",
     * a bare "; or null." goes.
     */
    static String help(final RunOption<?> entry)
    {
        final String doc = entry.doc().replaceFirst("[,;] or null for (.+)\\.$", " (default: $1).")
            .replaceFirst("[,;] or null\\.$", ".");
        if (entry.defaultText() == null)
        {
            return doc;
        }
        final String line = doc.endsWith(".") ? doc.substring(0, doc.length() - 1) : doc;
        return line + " (default: ${DEFAULT-VALUE}).";
    }

    private static OptionSpec find(final List<OptionSpec> options, final String flag)
    {
        for (final OptionSpec option : options)
        {
            for (final String name : option.names())
            {
                if (name.equals(flag))
                {
                    return option;
                }
            }
        }
        return null;
    }
}
