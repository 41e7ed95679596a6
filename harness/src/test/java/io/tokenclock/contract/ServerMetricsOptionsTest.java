package io.tokenclock.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;

/**
 * The server-metrics options ({@code --server-metrics}, {@code --server-metrics-interval-ms}, and their contract keys
 * under {@code measurement}): defaults, rules, and errors naming what the user wrote.
 */
final class ServerMetricsOptionsTest
{
    private static final String CONTRACT = """
        target: {url: http://127.0.0.1:8000/v1}
        load: {mode: closed, concurrency: 1, requests: 1}
        measurement: {server_metrics: %s, server_metrics_interval_ms: %d}
        """;

    @TempDir
    Path dir;

    private static RunOptionsBuilder flags()
    {
        return RunOptions.builder().url("https://user:pw@gpu-7:8443/v1").concurrency(1).requests(1L);
    }

    private ContractFile contract(final String url, final long intervalMs) throws IOException
    {
        final Path file = dir.resolve("c.yaml");
        Files.writeString(file, String.format(CONTRACT, url, intervalMs));
        return ContractFile.load(file);
    }

    @Test
    void shouldScrapeTheTargetsOriginEverySecondByDefault()
    {
        final RunOptions o = flags().build();

        assertEquals("https://gpu-7:8443/metrics", o.serverMetricsUrl(), "no user info, no base path");
        assertEquals(1000, o.measurement().serverMetricsIntervalMs());
    }

    @Test
    void shouldTakeAnotherUrlOrOff()
    {
        assertEquals("http://127.0.0.1:9400/metrics", flags().serverMetrics("http://127.0.0.1:9400/metrics").build()
            .serverMetricsUrl());
        assertNull(flags().serverMetrics("off").build().serverMetricsUrl());
        assertNull(flags().serverMetrics("OFF").build().serverMetricsUrl());
    }

    @Test
    void shouldRefuseAnIntervalOutsideItsRangeNamingTheFlag()
    {
        final IllegalArgumentException low = assertThrows(IllegalArgumentException.class,
            () -> flags().serverMetricsIntervalMs(99).build());
        assertTrue(low.getMessage().startsWith("--server-metrics-interval-ms must be in [100, 3600000] ms"),
            low.getMessage());
        assertThrows(IllegalArgumentException.class, () -> flags().serverMetricsIntervalMs(3_600_001).build());
        assertEquals(100, flags().serverMetricsIntervalMs(100).build().measurement().serverMetricsIntervalMs());
    }

    @Test
    void shouldRefuseAUrlThatIsNotHttpWithoutEchoingIt()
    {
        for (final String bad : List.of("ftp://h/metrics", "/metrics", "http:///metrics", "http://h:x/?key=s3cret"))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> flags().serverMetrics(bad).build(), bad);
            assertEquals("--server-metrics must be an http(s) URL with a host, or off", ex.getMessage());
            assertFalse(ex.getMessage().contains("s3cret"));
        }
    }

    @Test
    void shouldReadTheContractKeysAndNameThemInErrors() throws IOException
    {
        final ContractFile good = contract("http://127.0.0.1:9400/metrics", 250);
        assertEquals(List.of(), good.errors());
        final RunOptions o = ContractOptions.apply(good, RunOptions.builder()).build();
        assertEquals("http://127.0.0.1:9400/metrics", o.serverMetricsUrl());
        assertEquals(250, o.measurement().serverMetricsIntervalMs());

        for (final String off : List.of("\"off\"", "off"))
        {
            final ContractFile file = contract(off, 1000);
            assertEquals(List.of(), file.errors(), "YAML 1.1 reads a bare off as false; it still means off");
            assertNull(ContractOptions.apply(file, RunOptions.builder()).build().serverMetricsUrl());
        }

        final List<String> errors = contract("x", 50).errors();
        assertTrue(
            errors.stream().anyMatch(e -> e.startsWith("measurement.server_metrics_interval_ms: must be >= 100")),
            errors.toString());
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ContractOptions.apply(contract("ftp://x", 1000), RunOptions.builder()).build());
        assertTrue(ex.getMessage().startsWith("measurement.server_metrics must be"), ex.getMessage());
    }
}
