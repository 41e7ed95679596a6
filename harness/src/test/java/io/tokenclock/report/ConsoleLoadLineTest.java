package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.tokenclock.config.RunOptions;
import io.tokenclock.run.MinimalRuns;

/** The summary's {@code load:} line says what load was offered, for every kind of load. */
final class ConsoleLoadLineTest
{
    private static String loadLine(final RunOptions o)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            ConsoleSummary.print(MinimalRuns.of(o, 10, 100), out);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("load:")).findFirst()
            .orElseThrow();
    }

    @Test
    void shouldDescribeAUserSessionLoadAsSimulatedUsersNotAsAPoissonRateOfNull()
    {
        final String line = loadLine(RunOptions.builder().url("http://127.0.0.1:8000/v1").users(8).durationS(10.0)
            .build());
        assertFalse(line.contains("null") || line.contains("poisson"), line);
        assertTrue(line.contains("8 simulated users"), line);
    }

    @Test
    void shouldStillDescribeAnOpenLoopByItsArrivalsAndRate()
    {
        final String line = loadLine(RunOptions.builder().url("http://127.0.0.1:8000/v1").rate(4.0).durationS(10.0)
            .build());
        assertTrue(line.contains("open loop, poisson 4.00 req/s"), line);
    }
}
