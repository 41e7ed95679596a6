package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.TailQuantile;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.run.MinimalRuns;
import io.tokenclock.run.RunResult;
import io.tokenclock.results.record.RecordJson;

/** {@code --min-samples-for p90} sizes the run for a p90 interval: the record and the summary report that interval. */
final class SizedPercentileTest
{
    @Test
    void shouldReportTheIntervalOfThePercentileTheRunWasSizedFor()
    {
        final RunOptions o = RunOptions.builder().url("http://127.0.0.1:8000/v1").concurrency(4)
            .minSamplesFor(new TailQuantile(0.9)).build();
        final Histogram h = new Histogram(3);
        for (long ms = 1; ms <= 100; ms++)
        {
            h.recordValue(ms * 1_000_000L);
        }
        final Distribution ttft = Distribution.of(h, Metric.TTFT, "p90", 0.9);
        assertEquals("p90", ttft.sized().label());
        assertEquals(90, ttft.sized().value(), 0.1);
        assertTrue(ttft.sized().low() < 90 && ttft.sized().high() > 90, ttft.sized().toString());

        final RunResult bare = MinimalRuns.of(o, 100, 1_000);
        final Map<Metric, Distribution> d = new EnumMap<>(bare.distributions());
        d.put(Metric.TTFT, ttft);
        final RunResult r = new RunResult(o, bare.target(), bare.counts(), bare.window(), d, bare.clientHealth(),
            bare.provenance(), bare.groups(), null, null, null, null, null, null, null);
        final JsonNode sized = RecordJson.tree(RecordWriter.build(r, "w")).path("report").path("distributions")
            .path("ttft").path("sized_for");
        assertEquals("p90", sized.path("percentile").asText(), sized.toString());
        assertEquals(ttft.sized().low(), sized.path("ci95").get(0).asDouble(), 1e-9);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            ConsoleSummary.print(r, out);
        }
        final String line = bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("p90 "))
            .findFirst().orElse("");
        assertTrue(line.contains("95% interval") && line.contains("ttft"), bytes.toString(StandardCharsets.UTF_8));
    }
}
