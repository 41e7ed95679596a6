package io.tokenclock.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;

/**
 * The hiccup monitor's interval ({@code --hiccup-interval-us}, {@code measurement.hiccup_interval_us}): unset by
 * default (the stamping picks it, {@code runner.MonitorsTest}), its range held by the run's rules whichever way it came.
 */
final class HiccupIntervalOptionTest
{
    @TempDir
    Path dir;

    private static RunOptionsBuilder flags()
    {
        return RunOptions.builder().url("http://127.0.0.1:8000/v1").concurrency(1).requests(1L);
    }

    @Test
    void shouldLeaveTheIntervalToTheStampingUnlessGiven()
    {
        assertNull(flags().build().measurement().hiccupIntervalUs());
        assertEquals(5_000L, flags().set(RunOption.HICCUP_INTERVAL_US, 5_000L).build().measurement()
            .hiccupIntervalUs());
    }

    @Test
    void shouldRefuseAnIntervalOutsideItsRangeNamingTheFlag()
    {
        for (final long bad : new long[] {99, 1_000_001, 0, -1})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> flags().set(RunOption.HICCUP_INTERVAL_US, bad).build());
            assertEquals("--hiccup-interval-us must be in [100, 1000000] us: " + bad, ex.getMessage());
        }
        assertEquals(100L, flags().set(RunOption.HICCUP_INTERVAL_US, 100L).build().measurement().hiccupIntervalUs());
        assertEquals(1_000_000L, flags().set(RunOption.HICCUP_INTERVAL_US, 1_000_000L).build().measurement()
            .hiccupIntervalUs());
    }

    @Test
    void shouldReadTheContractKeyAndNameItInTheSameRule() throws IOException
    {
        final ContractFile good = contract(2_000);
        assertEquals(List.of(), good.errors());
        assertEquals(2_000L, ContractOptions.apply(good, RunOptions.builder()).build().measurement()
            .hiccupIntervalUs());

        final ContractFile low = contract(50);
        assertEquals(List.of("measurement.hiccup_interval_us: must be >= 100, got 50"), low.errors(),
            "one line, the schema's, from the same table entry as the flag's rule");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ContractOptions.apply(low, RunOptions.builder()).build());
        assertEquals(low.errors().get(0), ex.getMessage(), "validate and run refuse it alike");
    }

    private ContractFile contract(final long intervalUs) throws IOException
    {
        final Path file = dir.resolve("c.yaml");
        Files.writeString(file, """
            target: {url: http://127.0.0.1:8000/v1}
            load: {mode: closed, concurrency: 1, requests: 1}
            measurement: {hiccup_interval_us: %d}
            """.formatted(intervalUs));
        return ContractFile.load(file);
    }
}
