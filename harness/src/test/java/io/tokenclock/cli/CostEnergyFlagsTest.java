package io.tokenclock.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

import io.tokenclock.config.RunOptions;
import io.tokenclock.cost.PriceModel;
import io.tokenclock.energy.PowerSourceSpec;

/** {@code --price} and {@code --power} reach the options, and are recorded without a credential. */
final class CostEnergyFlagsTest
{
    private static RunOptions options(final String... args)
    {
        final RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs(args);
        return run.toOptions();
    }

    @Test
    void shouldTakeAPriceAndRepeatedPowerSources()
    {
        final RunOptions o = options("--url", "http://127.0.0.1:9/v1", "--concurrency", "1",
            "--price", "self-hosted:EUR,accelerator_per_hour=2.5,accelerators=8", "--power", "rapl",
            "--power", "meter:wall.csv,align=run_start");
        assertEquals(new PriceModel.SelfHosted("EUR", 2.5, 8, 0, 1), o.cost().price());
        assertEquals(List.of(PowerSourceSpec.Kind.RAPL, PowerSourceSpec.Kind.METER),
            o.power().sources().stream().map(PowerSourceSpec::kind).toList());
    }

    @Test
    void shouldHaveNeitherWithoutTheFlags()
    {
        final RunOptions o = options("--url", "http://127.0.0.1:9/v1", "--concurrency", "1");
        assertNull(o.cost().price());
        assertEquals(List.of(), o.power().sources());
        assertEquals(List.of(), options("--url", "http://127.0.0.1:9/v1", "--concurrency", "1", "--power", "off")
            .power().sources());
    }

    @Test
    void shouldRejectABadPriceInOneLine()
    {
        assertEquals("--price: output= is required", assertThrows(IllegalArgumentException.class,
            () -> options("--url", "http://127.0.0.1:9/v1", "--concurrency", "1", "--price", "api:EUR,input=1"))
            .getMessage());
    }

    @Test
    void shouldRecordADcgmUrlWithoutItsCredentials()
    {
        final CommandLine cli = new CommandLine(new RunCommand());
        assertEquals(List.of("tokenclock", "run", "--power", "dcgm:http://<redacted>@gpu:9400/metrics"),
            RecordedCommand.of("run", cli.parseArgs("--power", "dcgm:http://u:pw@gpu:9400/metrics")));
    }
}
