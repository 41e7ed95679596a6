package io.tokenclock.cli;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;

import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.cost.PriceModel;
import io.tokenclock.energy.PowerSourceSpec;

/** {@code run}'s flags for what the run costs and the energy it took; documented in docs/CLI.md and
 * docs/COST_ENERGY.md. */
final class CostEnergyFlags
{
    /** The value of {@code --power} that drops a contract's sources. */
    static final String POWER_OFF = "off";

    @Option(names = "--price", paramLabel = "MODEL:ARGS", description = "Price model of the cost section: " +
        "api:CURRENCY,input=X,output=Y[,cached_input=Z][,per_request=F] (per 1M tokens) or self-hosted:CURRENCY," +
        "accelerator_per_hour=X,accelerators=N[,host_per_hour=Y][,idle_reserve_factor=F]. No default.")
    String price;

    @Option(names = "--power", paramLabel = "SOURCE[:ARGS]", description = "Measure energy over the window " +
        "(repeatable): rapl[:ROOT], nvml[:0,1], nvidia-smi[:0,1], dcgm:URL, meter:FILE[,align=wall|run_start]" +
        "[,offset_s=S]; any with ,interval_ms=N. off: none (drops a contract's).")
    List<String> power;

    /** Sets the builder from the flags the user typed (neither has a default to apply). */
    void applyTo(final RunOptionsBuilder o, final Given given)
    {
        if (given.typed("--price"))
        {
            o.price(PriceModel.parse(price));
        }
        if (given.typed("--power"))
        {
            final List<PowerSourceSpec> sources = new ArrayList<>();
            for (final String s : power)
            {
                if (!s.equalsIgnoreCase(POWER_OFF))
                {
                    sources.add(PowerSourceSpec.parse(s));
                }
            }
            o.power(sources);
        }
    }
}
