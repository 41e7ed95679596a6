package io.tokenclock.cli;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptions;

/**
 * {@code run --help} and {@code sweep --help} in groups, as vLLM groups its arguments: target, load, workload and
 * model, measurement, outputs, cost and energy, shards, then the command's own and the general ones. The group of a
 * flag is read from {@link RunOption}'s table, where each option already names its {@link RunOptions} group record
 * ({@link RunOption#group()}): the table is the one place that says where an option belongs. The few entries outside
 * those records (the SLO and quality rule, the price and power sources, a closed loop's ramp, the shard) are named
 * here by their entry, and a flag the table does not know (a mixin's own, such as {@code --turns}) takes the group
 * of the mixin that declares it. Each option keeps its description and default as picocli lays it out.
 */
final class HelpGroups implements CommandLine.IHelpSectionRenderer
{
    /** The headings, in the order printed. */
    static final List<String> ORDER = List.of("Target", "Load", "Workload and model",
        "Measurement (warm-up, repetitions, stamping, SLO, quality)", "Outputs", "Cost and energy",
        "Shards (one run split over machines: docs/DISTRIBUTED.md)", "Sweep", "General");
    /** The general options (a contract file, help, version) print first. */
    private static final String GENERAL = ORDER.get(8);

    private static final Map<Class<? extends Record>, String> BY_GROUP = Map.of(
        RunOptions.Target.class, ORDER.get(0),
        RunOptions.Load.class, ORDER.get(1),
        RunOptions.Model.class, ORDER.get(2),
        RunOptions.Workload.class, ORDER.get(2),
        RunOptions.State.class, ORDER.get(3),
        RunOptions.Measurement.class, ORDER.get(3),
        RunOptions.Output.class, ORDER.get(4));

    /** The table's entries that no group record holds. */
    private static final Map<RunOption<?>, String> BY_ENTRY = Map.of(
        RunOption.SLO, ORDER.get(3),
        RunOption.ACCEPT_TRUNCATED, ORDER.get(3),
        RunOption.QUALITY_CHECKS, ORDER.get(3),
        RunOption.CONCURRENCY_RAMP, ORDER.get(1),
        RunOption.PRICE, ORDER.get(5),
        RunOption.POWER, ORDER.get(5),
        RunOption.SHARD, ORDER.get(6),
        RunOption.CONTRACT, GENERAL);

    /** A flag outside the table: the group of the mixin (by its field's name) that declares it. */
    private static final Map<String, String> BY_MIXIN = Map.of(
        "target", ORDER.get(0),
        "workload", ORDER.get(2),
        "load", ORDER.get(1),
        "state", ORDER.get(3),
        "measurement", ORDER.get(3),
        "output", ORDER.get(4),
        "costEnergy", ORDER.get(5),
        "shardFlags", ORDER.get(6));

    /** Installs the grouped option list and a short synopsis on {@code command} ({@code run} or {@code sweep}). */
    static void install(final CommandLine command)
    {
        command.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, new HelpGroups());
        command.getCommandSpec().usageMessage().customSynopsis("tokenclock " + command.getCommandName() +
            " --url URL [OPTIONS]   (or --config CONTRACT.yaml [OPTIONS]; every option below, by group)");
    }

    @Override
    public String render(final Help help)
    {
        final Map<String, List<OptionSpec>> groups = groups(help.commandSpec());
        final StringBuilder sb = new StringBuilder();
        final List<String> order = new ArrayList<>(List.of(GENERAL));
        order.addAll(ORDER.subList(0, ORDER.size() - 1));
        for (final String heading : order)
        {
            final List<OptionSpec> options = groups.get(heading);
            if (options == null)
            {
                continue;
            }
            sb.append('\n').append(heading).append(":\n");
            final Help.Layout layout = help.createDefaultLayout();
            options.forEach(o -> layout.addOption(o, help.parameterLabelRenderer()));
            sb.append(layout);
        }
        return sb.toString();
    }

    /** @return every visible option of {@code spec} by its heading, in the spec's order within a heading. */
    static Map<String, List<OptionSpec>> groups(final CommandSpec spec)
    {
        final Map<OptionSpec, String> declaredBy = new IdentityHashMap<>();
        mixins(spec, declaredBy);
        final Map<String, List<OptionSpec>> groups = new LinkedHashMap<>();
        for (final OptionSpec o : spec.options())
        {
            if (!o.hidden())
            {
                groups.computeIfAbsent(heading(o, declaredBy.get(o)), k -> new ArrayList<>()).add(o);
            }
        }
        return groups;
    }

    /** @return the heading of option {@code o}, declared in the mixin named {@code mixin} (null: the command's own). */
    static String heading(final OptionSpec o, final String mixin)
    {
        final RunOption<?> entry = RunOption.byFlag(o.longestName());
        if (entry != null)
        {
            final String byEntry = BY_ENTRY.get(entry);
            if (byEntry != null)
            {
                return byEntry;
            }
            if (entry.group() != null && BY_GROUP.containsKey(entry.group()))
            {
                return BY_GROUP.get(entry.group());
            }
        }
        if (mixin != null && BY_MIXIN.containsKey(mixin))
        {
            return BY_MIXIN.get(mixin);
        }
        return o.usageHelp() || o.versionHelp() ? GENERAL : ORDER.get(7);
    }

    /** Records, for each option a mixin declares (at any depth), the name of the innermost mixin that declares it. */
    private static void mixins(final CommandSpec spec, final Map<OptionSpec, String> declaredBy)
    {
        for (final Map.Entry<String, CommandSpec> m : spec.mixins().entrySet())
        {
            for (final OptionSpec o : m.getValue().options())
            {
                declaredBy.put(o, m.getKey());
            }
            mixins(m.getValue(), declaredBy);
        }
    }
}
