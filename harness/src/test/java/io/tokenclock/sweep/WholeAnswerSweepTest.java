package io.tokenclock.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import io.tokenclock.api.Api;
import io.tokenclock.config.RunOptions;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.run.MinimalRuns;
import io.tokenclock.run.RunResult;

/**
 * A sweep of an API that answers whole (embeddings, rerank): its points, table and sweep.json carry the e2e latency
 * and inputs/s, never an empty or zero TTFT or TPOT, and its latency knee is fitted on the e2e p99.
 */
final class WholeAnswerSweepTest
{
    private static final SweepPlan PLAN = new SweepPlan("rates", List.of(10.0, 20.0, 40.0, 80.0), 10, 0, 64, 2,
        new StopRule(0.2, 0.9), 0.9, Double.NaN, 0.05, 30, true);

    /** An embeddings run: 40 ok requests of 4 inputs and 80 prompt tokens each in a 10 s window, e2e p99 at 30 ms. */
    private static RunResult embeddingsRun()
    {
        final RunOptions o = RunOptions.builder().url("http://127.0.0.1:8000/v1").api(Api.EMBEDDINGS).rate(4.0)
            .durationS(10.0).build();
        final RunResult r = MinimalRuns.of(o, 40, 0);
        final Map<Metric, Distribution> d = new EnumMap<>(r.distributions());
        d.put(Metric.E2E, new Distribution("ms", 40, 5, 12, 1, 10, 12, 20, 30, 31, 31, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN));
        final RunResult.Counts counts = new RunResult.Counts(Map.of(Counter.OK, 40L, Counter.INPUTS, 160L,
            Counter.INPUT_TOKENS, 3_200L), Map.of());
        return new RunResult(o, r.target(), counts, r.window(), d, r.clientHealth(), r.provenance(), r.groups(),
            r.coldStart(), r.tasks(), null, r.serverMetrics(), r.goodput(), r.quality(), null);
    }

    private static SweepPoint point(final double offered, final double e2eP99Ms)
    {
        return new SweepPoint(SweepPoint.Loop.RATE, offered, offered, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            e2eP99Ms, Double.NaN, offered, 400, 0, 0, 400, new SweepPoint.Queue("client", Double.NaN, Double.NaN, 1),
            "/tmp/sweep/points/" + (long)offered, Double.NaN, e2eP99Ms / 2, Double.NaN, 10, 400, false, 4 * offered,
            80 * offered);
    }

    private static SweepReport report(final List<SweepPoint> points)
    {
        return new SweepReport(PLAN, "e2e <= 100.0 ms", null, points, null, null,
            SweepAnalysis.of(points, 2, Api.EMBEDDINGS), null);
    }

    @Test
    void shouldTakeAnEmbeddingsPointsThroughputAsInputsAndPromptTokensWithNoStreamFigures()
    {
        final SweepPoint p = SweepPoint.of(embeddingsRun(), SweepPoint.Loop.RATE, 4);

        assertFalse(p.streamed());
        assertEquals(4.0, p.achievedRps(), 1e-12, "40 ok in the record's 10 s (no requests.jsonl here)");
        assertEquals(16.0, p.inputsPerS(), 1e-12, "4 inputs per request");
        assertEquals(320.0, p.inputTokensPerS(), 1e-12, "80 prompt tokens per request");
        assertEquals(30.0, p.kneeLatencyMs(), 1e-12, "the knee's latency is the e2e p99");
        assertTrue(Double.isNaN(p.outputTokensPerS()) && Double.isNaN(p.tpsPerUser()) &&
            Double.isNaN(p.energyJPerToken()), "no output tokens: NaN, never 0");
    }

    @Test
    void shouldFitTheLatencyKneeOnTheE2eP99()
    {
        final SweepAnalysis a = SweepAnalysis.of(List.of(point(10, 20), point(20, 22), point(40, 30),
            point(80, 60)), 2, Api.EMBEDDINGS);

        assertEquals(20.0, a.latencyKnee().baselineMs(), 1e-12);
        assertEquals(40 + (40.0 - 30) * 40 / 30, a.latencyKnee().offered(), 1e-9,
            "crosses 2 x 20 ms between 40 and 80");
        assertEquals("e2e p99", a.kneeMetric());
        assertTrue(a.advice().contains("e2e p99") && !a.advice().contains("TTFT"), a.advice());
        assertTrue(Double.isNaN(SweepAnalysis.of(List.of(point(10, 20), point(80, 60)), 2).latencyKnee().offered()),
            "read as a streamed API's, the same points have no TTFT and no knee");
    }

    @Test
    void shouldWriteNoStreamMemberIntoSweepJsonAndNameTheE2eKnee()
    {
        final JsonNode n = SweepJson.tree(report(List.of(point(10, 20), point(20, 22), point(40, 30),
            point(80, 60))), Path.of("/tmp/sweep"));

        assertEquals("embeddings", n.path("api").asText());
        assertEquals("e2e_p99_ms", n.path("knee").path("latency_factor").path("metric").asText());
        final JsonNode p = n.path("points").get(0);
        for (final String absent : List.of("ttft_p50_ms", "ttft_p99_ms", "tpot_p50_ms", "tpot_p99_ms",
            "output_tokens_per_s", "output_tps_per_user", "energy_j_per_token"))
        {
            assertFalse(p.has(absent), absent + " must be absent, not null or 0: " + p);
        }
        assertEquals(10.0, p.path("e2e_p50_ms").asDouble(), 1e-12);
        assertEquals(20.0, p.path("e2e_p99_ms").asDouble(), 1e-12);
        assertEquals(40.0, p.path("inputs_per_s").asDouble(), 1e-12);
        assertEquals(800.0, p.path("input_tokens_per_s").asDouble(), 1e-12);
    }

    @Test
    void shouldKeepAStreamedSweepsPointsAsTheyWere()
    {
        final SweepPoint chat = Points.point(10, 10, 50, 10, 100, 0, 100);
        final JsonNode n = SweepJson.tree(new SweepReport(PLAN, null, null, List.of(chat), null, null,
            SweepAnalysis.of(List.of(chat), 2), null), Path.of("/tmp/sweep"));

        assertEquals("chat", n.path("api").asText());
        assertEquals("ttft_p99_ms", n.path("knee").path("latency_factor").path("metric").asText());
        assertTrue(n.path("points").get(0).has("ttft_p99_ms") && !n.path("points").get(0).has("inputs_per_s"));
    }

    @Test
    void shouldPrintE2eAndInputsColumnsAndNoEmptyTtftColumn()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            SweepTable.print(report(List.of(point(10, 20), point(20, 22), point(40, 30), point(80, 60))), out);
        }
        final String text = bytes.toString(StandardCharsets.UTF_8);
        assertFalse(text.contains("ttft") || text.contains("tpot") || text.contains("TTFT"), text);
        assertTrue(text.contains("e2e p50") && text.contains("e2e p99") && text.contains("inputs/s"), text);
        assertTrue(text.contains("knee (e2e p99 > 2 x its 20.0 ms at the lowest load): 53.33 req/s"), text);
        final String row = text.lines().filter(l -> l.trim().startsWith("40 ")).findFirst().orElseThrow();
        assertEquals(List.of("40", "40.00", "15.0", "30.0", "160.0", "3200.0", "40.00", "0", "0", "-", "-", "1.0"),
            List.of(row.trim().split(" +")), row);
    }
}
