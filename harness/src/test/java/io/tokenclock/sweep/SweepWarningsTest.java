package io.tokenclock.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/** A sweep that cannot mislead: a point barely longer than one request says so; no knee verdict over no points. */
final class SweepWarningsTest
{
    private static SweepPoint point(final double offered, final double e2eP50Ms, final double windowS)
    {
        return new SweepPoint(SweepPoint.Loop.RATE, offered, offered, 50, 80, 10, 12, e2eP50Ms * 1.2, 100, offered,
            100, 0, 0, 100, new SweepPoint.Queue("client", Double.NaN, Double.NaN, 1), "/tmp/p" + offered, Double.NaN,
            e2eP50Ms, 30, windowS, 100, true, Double.NaN, Double.NaN);
    }

    @Test
    void shouldWarnOfAPointShorterThanTenTimesItsE2eMedian()
    {
        // 5 s points of ~3 s requests: issue 38's sweep, whose short points read as saturation.
        final SweepAnalysis a = SweepAnalysis.of(List.of(point(5, 2_900, 5), point(10, 3_100, 5),
            point(2, 250, 5)), 2);
        assertEquals(2, a.shortPoints().size());
        final String w = a.warnings().get(0);
        assertTrue(w.startsWith("2 points (offered 5, 10) ran a 5 s window, under 10 times the e2e p50 (up to " +
            "3.10 s)") && w.endsWith("--point-duration 31 or more"), w);
    }

    @Test
    void shouldGiveNoKneeVerdictOverNoPoints()
    {
        final SweepAnalysis none = SweepAnalysis.of(List.of(), 2);
        assertEquals("No point was measured, so there is no knee to trust.", none.advice());
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            SweepTable.print(new SweepReport(new SweepPlan("rates", List.of(1.0, 2.0), 5, 0, 64, 2,
                new StopRule(0.2, 0.9), 0.9, Double.NaN, 0.05, 30, true), null, null, List.of(), null,
                "the server refused the first point", none, null), out);
        }
        final String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("which knee: No point was measured"), text);
        assertTrue(!text.contains("knee (TTFT p99") && !text.contains("Neither knee"), text);
    }
}
