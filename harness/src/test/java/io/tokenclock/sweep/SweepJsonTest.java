package io.tokenclock.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SweepJsonTest
{
    private static final Path DIR = Path.of("/tmp/sweep");

    @TempDir
    Path dir;

    private static SweepPlan plan()
    {
        return new SweepPlan("rates", List.of(10.0, 20.0, 30.0, 40.0), 30, 8, 64, 2, new StopRule(0.1, 0.5), 0.9,
            Double.NaN, 0.05, 30, true);
    }

    private static SweepReport report()
    {
        final List<SweepPoint> points = List.of(Points.point(10, 10, 10, 10, 300, 0, 300),
            Points.point(20, 20, 12, 20, 600, 0, 600), Points.point(30, 30, 20, 25, 900, 0, 750),
            Points.point(40, 31, 90, 5, 930, 0, 150));
        final SloSearch.Result result = SloSearch.run(new SloSearch.Settings(10, 0.5, 30), rate -> rate <= 25);
        return new SweepReport(plan(), "TTFT <= 100.0 ms", null, points, null, null, SweepAnalysis.of(points, 2),
            new SweepReport.Search(new SloSearch.Settings(10, 0.5, 30), List.of(), result));
    }

    @Test
    void shouldWriteEveryPointWithItsFiguresAndRunDirectoryRelativeToTheSweep()
    {
        final JsonNode n = SweepJson.tree(report(), DIR);
        assertEquals(SweepJson.FORMAT, n.path("format").asText());
        assertEquals("req/s", n.path("offered_unit").asText());
        assertEquals(4, n.path("points").size());
        final JsonNode p = n.path("points").get(2);
        assertEquals(30, p.path("offered").asDouble());
        assertEquals(20, p.path("ttft_p99_ms").asDouble());
        assertEquals(900, p.path("samples").asLong());
        assertEquals(750.0 / 900, p.path("good_fraction").asDouble(), 1e-12);
        assertTrue(p.path("ttft_p50_ms").isNull(), "NaN is written as null: " + p);
        assertTrue(p.path("running").isNull(), p.toString());
        assertTrue(p.has("energy_j_per_token") && p.path("energy_j_per_token").isNull(), "no energy measured: " + p);
        assertEquals("points/30", p.path("run_dir").asText());
        assertEquals("client", p.path("queue_source").asText());
    }

    @Test
    void shouldCiteThePointWhoseConfigurationTheServerRefused()
    {
        final SweepReport r = report();
        assertTrue(SweepJson.tree(r, DIR).path("refused_point").isNull(), "no point was refused");
        final SweepReport refused = new SweepReport(r.plan(), r.slo(), r.ceiling(), r.points(), r.stoppedEarly(),
            "the server could not be used: 500", r.analysis(), r.search(),
            new SweepReport.Refused(50, DIR.resolve("points/50"), DIR.resolve("points/50/refusal.json")));
        final JsonNode n = SweepJson.tree(refused, DIR).path("refused_point");
        assertEquals(50, n.path("offered").asDouble());
        assertEquals("points/50", n.path("run_dir").asText());
        assertEquals("points/50/refusal.json", n.path("refusal").asText());
    }

    @Test
    void shouldWriteBothKneesTheMaximumGoodputAndTheSearch()
    {
        final JsonNode n = SweepJson.tree(report(), DIR);
        assertEquals(30, n.path("knee").path("latency_factor").path("offered").asDouble(), 1e-12);
        assertEquals("ttft_p99_ms", n.path("knee").path("latency_factor").path("metric").asText());
        assertEquals(30, n.path("knee").path("throughput_fit").path("offered").asDouble(), 1e-9);
        assertEquals(30, n.path("max_goodput").path("offered").asDouble());
        assertEquals("points/30", n.path("max_goodput").path("run_dir").asText());
        // 10 and 20 pass, 40 fails, 30 fails: 30 - 20 <= 0.5 x 20
        assertEquals(20, n.path("max_rate_meeting_slo").asDouble());
        assertEquals(4, n.path("search").path("verdicts").size());
        assertTrue(n.path("ceiling").isNull());
    }

    @Test
    void shouldReplaceTheFileWholeAndPrintTheFindings() throws Exception
    {
        SweepJson.write(report(), dir);
        SweepJson.write(report(), dir);
        assertEquals(4, new ObjectMapper().readTree(dir.resolve(SweepJson.FILE).toFile()).path("points").size());
        assertFalse(Files.exists(dir.resolve(SweepJson.FILE + ".tmp")));
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SweepTable.print(report(), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        final String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("knee (TTFT p99 > 2 x its 10.0 ms at the lowest load): 30 req/s (between 30 and 40)"),
            out);
        assertTrue(out.contains("max goodput: 25.00 req/s at 30 req/s"), out);
        assertTrue(out.contains("max rate meeting the SLO (90% of requests): 20 req/s"), out);
    }

    @Test
    void shouldSortTheGivenLoadsAndRefuseRepeatsAndFractions()
    {
        assertEquals(List.of(5.0, 10.0, 20.0), new SweepPlan("rates", List.of(20.0, 5.0, 10.0), 30, 8, 64, 2,
            new StopRule(0.1, 0.5), 0.9, Double.NaN, 0.05, 30, true).loads());
        final IllegalArgumentException twice = assertThrows(
            IllegalArgumentException.class, () -> new SweepPlan("rates", List.of(5.0, 5.0), 30, 8, 64, 2,
                new StopRule(0.1, 0.5), 0.9, Double.NaN, 0.05, 30, true));
        assertEquals("--rates lists 5 twice", twice.getMessage());
        final IllegalArgumentException fraction = assertThrows(
            IllegalArgumentException.class, () -> new SweepPlan("concurrencies", List.of(1.5), 30, 8, 64, 2,
                new StopRule(0.1, 0.5), 0.9, Double.NaN, 0.05, 30, true));
        assertEquals("--concurrencies values must be whole numbers: 1.5", fraction.getMessage());
    }
}
