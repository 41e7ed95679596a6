package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import io.tokenclock.config.RunOptions;
import io.tokenclock.energy.Component;
import io.tokenclock.energy.EnergyMeasurement;
import io.tokenclock.energy.Integral;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.run.MinimalRuns;

/**
 * The grade's {@code missing} list: what a run lacks to be comparison-grade. A partial record, or energy from a
 * power source that declared its readings synthetic, cannot be compared, whatever else the run declared.
 */
final class RecordGradeTest
{
    private static final RunOptions OPTIONS = RunOptions.builder().url("http://127.0.0.1:8000/v1").rate(4.0)
        .durationS(20.0).build();

    private static List<String> missing(final JsonNode record)
    {
        final List<String> lines = new ArrayList<>();
        record.path("grade").path("missing").forEach(n -> lines.add(n.asText()));
        return lines;
    }

    private static EnergyMeasurement meter(final List<String> synthetic)
    {
        return EnergyMeasurement.of(List.of("meter"), List.of(new EnergyMeasurement.Part("meter:wall.csv",
            Component.WALL, true, new Integral("power", 900, 5, 20, 1000, 1000, null))), List.of(), 20)
            .withSynthetic(synthetic);
    }

    @Test
    void shouldNotGradeARecordInterruptedBeforeTheEndOfItsWindowComparisonGrade()
    {
        final List<String> whole =
            missing(RecordJson.tree(RecordWriter.build(MinimalRuns.of(OPTIONS, 30, 3_000), "w")));
        final List<String> partial = new ArrayList<>(missing(RecordJson.tree(RecordWriter.build(
            MinimalRuns.of(OPTIONS, 30, 3_000, "interrupted (SIGINT) 8.9 s into the 20 s window", null), "w"))));
        partial.removeAll(whole);

        assertEquals(1, partial.size(), "one more line than the whole run's: " + partial);
        assertTrue(partial.get(0).startsWith("partial: interrupted (SIGINT) 8.9 s into the 20 s window"),
            partial.get(0));
    }

    @Test
    void shouldNotGradeARunWhoseEnergyCameFromSyntheticPowerComparisonGrade()
    {
        final List<String> measured = missing(RecordJson.tree(RecordWriter.build(
            MinimalRuns.of(OPTIONS, 30, 3_000, null, meter(List.of())), "w")));
        final JsonNode record = RecordJson.tree(RecordWriter.build(MinimalRuns.of(OPTIONS, 30, 3_000, null,
            meter(List.of("meter: wall.csv declares itself synthetic"))), "w"));
        final List<String> synthetic = new ArrayList<>(missing(record));
        synthetic.removeAll(measured);

        assertEquals(1, synthetic.size(), synthetic.toString());
        assertTrue(synthetic.get(0).contains("synthetic") && synthetic.get(0).contains("wall.csv"), synthetic.get(0));
        assertEquals("meter: wall.csv declares itself synthetic",
            record.path("report").path("energy").path("synthetic").get(0).asText());
    }
}
