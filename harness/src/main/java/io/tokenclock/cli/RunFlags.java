package io.tokenclock.cli;

import java.nio.file.Path;

import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.contract.ContractFile;
import io.tokenclock.contract.ContractOptions;

/**
 * Every option of one run as flags: {@code --config} and the eight groups (target, model, workload, load, state,
 * measurement, output, cost and energy). A mixin, so that {@code run} and {@code sweep} take the same flags and turn them into options
 * the same way. Each flag is documented in docs/CLI.md. Not thread-safe: picocli fills it once per command line.
 */
final class RunFlags
{
    @Option(names = "--config", description = "Contract file (YAML) declaring the whole benchmark; flags override it.")
    Path config;

    @Mixin
    TargetFlags target;

    @Mixin
    WorkloadFlags workload;

    @Mixin
    LoadFlags load;

    @Mixin
    StateFlags state;

    @Mixin
    MeasurementFlags measurement;

    @Mixin
    OutputFlags output;

    @Mixin
    CostEnergyFlags costEnergy;

    /**
     * @param parsed the command's parse result, which says which flags were typed.
     * @return a builder holding the contract's options, if any, overridden by the flags given beside it.
     */
    RunOptionsBuilder toBuilder(final CommandLine.ParseResult parsed)
    {
        final RunOptionsBuilder o = RunOptions.builder();
        if (config != null)
        {
            final ContractFile contract = ContractFile.load(config);
            if (!contract.isValid())
            {
                throw new IllegalArgumentException(config + ": " + contract.errors().get(0) +
                    (contract.errors().size() > 1 ?
                    " (and " + (contract.errors().size() - 1) + " more: tokenclock validate " + config + ")" : ""));
            }
            ContractOptions.apply(contract, o);
        }
        o.from(RunOptionsBuilder.Source.FLAG);
        final Given given = new Given(parsed, config != null);
        target.applyTo(o, given);
        workload.applyTo(o, given);
        load.applyTo(o, given);
        state.applyTo(o);
        measurement.applyTo(o, given);
        output.applyTo(o, given);
        costEnergy.applyTo(o, given);
        TableFlags.applyTo(o, given, parsed.commandSpec());
        return o;
    }
}
