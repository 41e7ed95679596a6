package io.tokenclock.jmh.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

final class InterleavedCompareTest
{
    private static final String NAME = "io.tokenclock.jmh.PerChunkBenchmark.perChunk";
    /** Round-to-round drift that moves both builds alike, as a shared machine does. */
    private static final double[] DRIFT = {1.00, 1.30, 0.90, 1.15, 1.05};

    @Test
    void shouldCallIdenticalBuildsTheSameDespiteDriftBetweenRounds()
    {
        final InterleavedCompare.Row row = only(rounds(200, 1.0, 0.01));
        assertEquals("same", row.verdict());
        assertTrue(row.low() < 1.0 + 0.05 && row.high() > 1.0 - 0.05, row.toString());
    }

    @Test
    void shouldFlagASlowdownBeyondTheMeasuredNoise()
    {
        final InterleavedCompare.Row row = only(rounds(200, 2.0, 0.01));
        assertEquals("regression", row.verdict());
        assertEquals(2.0, row.ratio(), 0.05);
        assertTrue(row.low() > 1.05, row.toString());
    }

    @Test
    void shouldNotFlagASlowdownHiddenInNoiseAsLargeAsIt()
    {
        // new/base per round swings between 0.8 and 1.5: the interval spans 1, so no verdict either way
        final List<List<JmhResult>> base = new ArrayList<>();
        final List<List<JmhResult>> now = new ArrayList<>();
        final double[] ratios = {1.5, 0.8, 1.4, 0.9, 1.3};
        for (final double r : ratios)
        {
            base.add(List.of(result(NAME, "avgt", 200)));
            now.add(List.of(result(NAME, "avgt", 200 * r)));
        }
        assertEquals("same", InterleavedCompare.compare(base, now, 0.05).get(0).verdict());
    }

    @Test
    void shouldCallAnImprovementOneAndReadThroughputTheOtherWayRound()
    {
        final List<List<JmhResult>> base = new ArrayList<>();
        final List<List<JmhResult>> now = new ArrayList<>();
        for (final double d : DRIFT)
        {
            base.add(List.of(result(NAME, "avgt", 200 * d), result("x.Thrpt.ops", "thrpt", 1_000 * d)));
            now.add(List.of(result(NAME, "avgt", 100 * d), result("x.Thrpt.ops", "thrpt", 500 * d)));
        }
        final List<InterleavedCompare.Row> rows = InterleavedCompare.compare(base, now, 0.05);
        assertEquals("improvement", rows.get(0).verdict(), "half the time per op");
        assertEquals("regression", rows.get(1).verdict(), "half the operations per second");
    }

    @Test
    void shouldGiveNoIntervalFromOneRound()
    {
        final InterleavedCompare.Row row = only(InterleavedCompare.compare(
            List.of(List.of(result(NAME, "avgt", 100))), List.of(List.of(result(NAME, "avgt", 300))), 0.05));
        assertTrue(Double.isNaN(row.low()));
        assertEquals("same", row.verdict(), "one round measures no noise, so it cannot call a regression");
    }

    @Test
    void shouldRefuseUnpairedRoundsWithStatusTwo()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = InterleavedCompare.run(new String[] {"--base", "a.json", "b.json", "--new", "c.json"},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("as many --base files as --new files"));
    }

    private static List<InterleavedCompare.Row> rounds(final double baseNs, final double factor, final double jitter)
    {
        final List<List<JmhResult>> base = new ArrayList<>();
        final List<List<JmhResult>> now = new ArrayList<>();
        for (int i = 0; i < DRIFT.length; i++)
        {
            final double wobble = 1 + (i % 2 == 0 ? jitter : -jitter);
            base.add(List.of(result(NAME, "avgt", baseNs * DRIFT[i])));
            now.add(List.of(result(NAME, "avgt", baseNs * DRIFT[i] * factor * wobble)));
        }
        return InterleavedCompare.compare(base, now, 0.05);
    }

    private static InterleavedCompare.Row only(final List<InterleavedCompare.Row> rows)
    {
        assertEquals(1, rows.size());
        return rows.get(0);
    }

    private static JmhResult result(final String name, final String mode, final double score)
    {
        return new JmhResult(name, mode, Map.of(), score, Double.NaN, mode.equals("thrpt") ? "ops/s" : "ns/op",
            0.0, true, 1e9);
    }
}
