package io.tokenclock.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.clock.ManualNanoClock;

/** A wall meter's CSV, aligned by its wall-clock stamps (with an offset) or by the run's start. */
final class MeterCsvSourceTest
{
    private static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void shouldAlignWallClockStampsThroughTheAnchorToTheJoule() throws IOException
    {
        final Path csv = Files.writeString(dir.resolve("meter.csv"), """
            # a wall meter, one sample a second
            timestamp,watts
            2025-01-01T00:00:00Z,100
            2025-01-01T00:00:01Z,100
            2025-01-01T00:00:02Z,200
            2025-01-01T00:00:03Z,200
            2025-01-01T00:00:04Z,100
            """);
        final MeterCsvSource meter = new MeterCsvSource(csv, PowerSourceSpec.Align.WALL, 0, new ManualNanoClock(0));
        meter.anchor(10 * S, Instant.parse("2025-01-01T00:00:00Z"));
        final Channel wall = meter.channels(0).get(0);
        assertEquals("meter:meter.csv", wall.id());
        assertEquals(Component.WALL, wall.component());
        // Window [11 s, 13 s] on the run's clock = 00:00:01..00:00:03: 0.5 x (100 + 200) + 0.5 x (200 + 200) = 350 J.
        assertEquals(350.0, wall.integrate(11 * S, 13 * S).joules(), 1e-9);

        // The meter's clock runs 1 s behind: offset_s 1 moves every sample 1 s later, the same window now
        // covers 00:00:00..00:00:02: 0.5 x (100 + 100) + 0.5 x (100 + 200) = 250 J.
        final MeterCsvSource late = new MeterCsvSource(csv, PowerSourceSpec.Align.WALL, 1.0, new ManualNanoClock(0));
        late.anchor(10 * S, Instant.parse("2025-01-01T00:00:00Z"));
        assertEquals(250.0, late.channels(0).get(0).integrate(11 * S, 13 * S).joules(), 1e-9);
    }

    @Test
    void shouldTakeTheShippedExampleFileAsSyntheticAndAMetersOwnFileAsMeasured() throws IOException
    {
        // The example contract's meter file says so in its first line: "# SYNTHETIC example data ...".
        final Path shipped = Path.of("..", "examples", "data", "wall-meter-example.csv");
        final PowerMeter meter = new PowerMeter(List.of(PowerSourceSpec.parse("meter:" + shipped + ",align=run_start")),
            List.of(new MeterCsvSource(shipped, PowerSourceSpec.Align.RUN_START, 0, new ManualNanoClock(0))));
        final EnergyMeasurement e = meter.measure(0, 5 * S);
        assertTrue(e.joules() != null && e.joules() > 0, "it is read like any meter file: " + e);
        assertEquals(1, e.synthetic().size(), e.synthetic().toString());
        assertTrue(e.synthetic().get(0).contains("wall-meter-example.csv"), e.synthetic().get(0));

        final Path own = Files.writeString(dir.resolve("own.csv"), "# my meter, synthetic load test\n0,400\n1,400\n");
        final MeterCsvSource real = new MeterCsvSource(own, PowerSourceSpec.Align.RUN_START, 0, new ManualNanoClock(0));
        real.channels(0);
        assertEquals(null, real.synthetic(), "only a comment line that starts with SYNTHETIC declares it");
    }

    @Test
    void shouldPlaceTheFirstSampleAtTheWindowsStartWhenAlignedToTheRun() throws IOException
    {
        final Path csv = Files.writeString(dir.resolve("replay.csv"), "0,400\n0.5,400\n1.0,600\n1.5,600\n");
        final MeterCsvSource meter = new MeterCsvSource(csv, PowerSourceSpec.Align.RUN_START, 0,
            new ManualNanoClock(0));
        final long start = 7 * S;
        // [7 s, 8.5 s]: 200 + 250 + 300 = 750 J.
        final Integral i = meter.channels(start).get(0).integrate(start, start + 3 * S / 2);
        assertEquals(750.0, i.joules(), 1e-9);
        assertEquals(4, i.samples());
    }

    @Test
    void shouldSayWhichLineIsBad() throws IOException
    {
        final Path csv = Files.writeString(dir.resolve("bad.csv"), "t,w\n0,100\n1,lots\n");
        final MeterCsvSource meter = new MeterCsvSource(csv, PowerSourceSpec.Align.RUN_START, 0,
            new ManualNanoClock(0));
        assertEquals(List.of(), meter.channels(0));
        assertTrue(meter.unavailable().endsWith("bad.csv line 3: expected TIMESTAMP,WATTS"), meter.unavailable());
    }
}
