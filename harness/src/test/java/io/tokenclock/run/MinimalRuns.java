package io.tokenclock.run;

import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.tokenclock.config.RunOptions;
import io.tokenclock.energy.EnergyMeasurement;
import io.tokenclock.health.ProcessUsage;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.transport.StampingReport;

/**
 * Minimal finished runs for tests of what is computed from a run (records, sweep points, grades): every distribution
 * empty, no optional part, only what a test sets. Immutable inputs in, a new {@link RunResult} out.
 */
public final class MinimalRuns
{
    private static final long MS = 1_000_000L;

    private MinimalRuns()
    {
    }

    /** @return {@code ok} completed requests of {@code outputTokens} in all over a 10 s window, no energy, whole. */
    public static RunResult of(final RunOptions o, final long ok, final long outputTokens)
    {
        return of(o, ok, outputTokens, null, null);
    }

    /**
     * @param partialReason why the run is partial, or null for a whole one.
     * @param energy        the energy measured, or null.
     */
    public static RunResult of(final RunOptions o, final long ok, final long outputTokens, final String partialReason,
        final EnergyMeasurement energy)
    {
        final RunResult.Counts counts = new RunResult.Counts(Map.of(Counter.OK, ok, Counter.CHUNKS, outputTokens,
            Counter.OUTPUT_TOKENS, outputTokens, Counter.INPUT_TOKENS, 10 * ok), Map.of());
        final Map<Metric, Distribution> none = new EnumMap<>(Metric.class);
        for (final Metric m : Metric.values())
        {
            none.put(m, new Distribution(m.unit(), 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN));
        }
        final RunResult.ClientHealth health = new RunResult.ClientHealth(none.get(Metric.TTFT), 1_000_000, 0, 0, 0, 0,
            0, List.of(), null, List.of(), new ProcessUsage.CpuTimes(0, 0, false), null, 0, ReadinessReport.NONE, 0,
            -1, null, "normal", null);
        final RunResult.Provenance provenance = new RunResult.Provenance("0b".repeat(32), null, ok, 0, null, null,
            "preserve: no flush", Map.of(), "nio", StampingReport.user(null));
        final RunResult.Target target = new RunResult.Target(Endpoint.parse(o.target().url(), o.target().api()),
            "tiny", ServerInfo.NONE, "minimal", Path.of("/results/minimal"), Instant.parse("2025-01-02T03:04:05Z"));
        return new RunResult(o, target, counts, new RunResult.Window(0, 10_000 * MS, 11), none, health, provenance,
            List.of(), null, null, partialReason, null, null, null, energy);
    }
}
