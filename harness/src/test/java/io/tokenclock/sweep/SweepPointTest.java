package io.tokenclock.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import io.tokenclock.config.RunOptions;
import io.tokenclock.energy.Component;
import io.tokenclock.energy.EnergyMeasurement;
import io.tokenclock.energy.Integral;
import io.tokenclock.run.MinimalRuns;

final class SweepPointTest
{
    private static final RunOptions OPTIONS = RunOptions.builder().url("http://127.0.0.1:8000/v1").rate(4.0)
        .durationS(10.0).build();

    @Test
    void shouldCarryThePointsEnergyPerOutputTokenIntoSweepJson()
    {
        // 2,000 J over 4,000 output tokens: the point's record says 0.5 J per output token, and so must sweep.json.
        final EnergyMeasurement energy = EnergyMeasurement.of(List.of("nvml"), List.of(new EnergyMeasurement.Part(
            "nvml:0", Component.ACCELERATOR, true, new Integral("counter", 2000, 1, 10, 100, 100, null))), List.of(),
            10);
        final SweepPoint p = SweepPoint.of(MinimalRuns.of(OPTIONS, 40, 4_000, null, energy), SweepPoint.Loop.RATE, 4);

        assertEquals(0.5, p.energyJPerToken(), 1e-12);
        final JsonNode n = SweepJson.tree(new SweepReport(new SweepPlan("rates", List.of(4.0), 10, 0, 64, 2,
            new StopRule(0.1, 0.5), 0.9, Double.NaN, 0.05, 30, true), null, null, List.of(p), null, null,
            SweepAnalysis.of(List.of(p), 2), null), Path.of("/results"));
        assertEquals(0.5, n.path("points").get(0).path("energy_j_per_token").asDouble(), 1e-12);
    }

    @Test
    void shouldLeaveEnergyPerTokenNullWhenThePointMeasuredNoEnergy()
    {
        final SweepPoint p = SweepPoint.of(MinimalRuns.of(OPTIONS, 40, 4_000), SweepPoint.Loop.RATE, 4);
        assertTrue(Double.isNaN(p.energyJPerToken()));
    }
}
