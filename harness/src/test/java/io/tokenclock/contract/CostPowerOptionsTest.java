package io.tokenclock.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOptions;
import io.tokenclock.cost.PriceModel;
import io.tokenclock.energy.PowerSourceSpec;

/**
 * The cost and power options ({@code --price}, {@code --power}, and the contract's {@code cost} and {@code power}):
 * no default, the contract read into typed options, and errors naming what the user wrote.
 */
final class CostPowerOptionsTest
{
    private static final String CONTRACT = """
        target: {url: http://127.0.0.1:8000/v1}
        load: {mode: closed, concurrency: 1, requests: 1}
        """;

    @TempDir
    Path dir;

    private ContractFile contract(final String extra) throws IOException
    {
        final Path file = dir.resolve("c.yaml");
        Files.writeString(file, CONTRACT + extra);
        return ContractFile.load(file);
    }

    @Test
    void shouldHaveNoPriceAndNoPowerByDefault()
    {
        final RunOptions o = RunOptions.builder().url("http://127.0.0.1:9/v1").concurrency(1).build();
        assertEquals(null, o.cost().price(), "no price model means no cost section, never a default");
        assertEquals(List.of(), o.power().sources());
    }

    @Test
    void shouldReadCostAndPowerFromTheContract() throws IOException
    {
        final ContractFile file = contract("""
            cost:
              currency: EUR
              api: {input_per_mtok: 0.15, output_per_mtok: 0.6, per_request: 0.001}
            power:
              - {source: meter, path: data/wall.csv, align: run_start, offset_s: 0.5}
              - {source: nvml, devices: [0, 1], interval_ms: 50}
              - {source: rapl}
            """);
        assertEquals(List.of(), file.errors());
        final RunOptions o = ContractOptions.apply(file, RunOptions.builder()).build();
        assertEquals(new PriceModel.Api("EUR", 0.15, 0.6, 0, 0.001), o.cost().price());
        assertEquals(List.of(
            new PowerSourceSpec(PowerSourceSpec.Kind.METER, dir.resolve("data/wall.csv").toString(), List.of(), 100,
                PowerSourceSpec.Align.RUN_START, 0.5),
            new PowerSourceSpec(PowerSourceSpec.Kind.NVML, null, List.of(0, 1), 50, PowerSourceSpec.Align.WALL, 0),
            PowerSourceSpec.of(PowerSourceSpec.Kind.RAPL, null)), o.power().sources(),
            "a meter's path is the contract's directory's");
        final RunOptions copy = o.toBuilder().build();
        assertEquals(o.cost(), copy.cost());
        assertEquals(o.power(), copy.power());
    }

    @Test
    void shouldReadASelfHostedPriceWithItsDefaults() throws IOException
    {
        final RunOptions o = ContractOptions.apply(contract("""
            cost: {currency: USD, self_hosted: {accelerator_per_hour: 3.2, accelerators: 8}}
            """), RunOptions.builder()).build();
        assertEquals(new PriceModel.SelfHosted("USD", 3.2, 8, 0, 1.0), o.cost().price());
    }

    @Test
    void shouldRefuseTwoSourcesOfTheSameAcceleratorsNamingWhatTheUserWrote() throws IOException
    {
        final IllegalArgumentException flag = assertThrows(IllegalArgumentException.class, () -> RunOptions.builder()
            .url("http://127.0.0.1:9/v1").concurrency(1).power(List.of(PowerSourceSpec.parse("nvml"),
                PowerSourceSpec.parse("nvidia-smi"))).build());
        assertEquals("--power: nvml and nvidia-smi both measure the accelerators, and would count their energy " +
            "twice: give one", flag.getMessage());
        final IllegalArgumentException key = assertThrows(IllegalArgumentException.class,
            () -> ContractOptions.apply(contract("""
                power: [{source: dcgm, url: "http://127.0.0.1:9400/metrics"}, {source: nvml}]
                """), RunOptions.builder()).build());
        assertTrue(key.getMessage().startsWith("power: dcgm and nvml both measure the accelerators"),
            key.getMessage());
    }
}
