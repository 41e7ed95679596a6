package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tokenclock.config.RunOptions;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.run.MinimalRuns;
import io.tokenclock.run.RunResult;
import io.tokenclock.results.record.RecordJson;

/** A short healthy run's warnings: one line per real problem, not one per metric. */
final class ConsoleWarningsTest
{
    @Test
    void shouldSayInOneLineThatTheRunIsTooShortForEveryP99()
    {
        // The README's first run: 64 requests, so the p99 of TTFT, TPOT and e2e all rest on 64 samples.
        final RunResult bare = MinimalRuns.of(RunOptions.builder().url("http://127.0.0.1:8000/v1").concurrency(8)
            .requests(64L).build(), 64, 4_096);
        final Map<Metric, Distribution> d = new EnumMap<>(bare.distributions());
        for (final Metric m : List.of(Metric.TTFT, Metric.TPOT, Metric.E2E))
        {
            d.put(m, new Distribution("ms", 64, 1, 2, 0.5, 2, 3, 3.5, 4, 4, 4, 3.5, Double.NaN, Double.NaN,
                Double.NaN));
        }
        final RunResult r = new RunResult(bare.options(), bare.target(), bare.counts(), bare.window(), d,
            bare.clientHealth(), bare.provenance(), bare.groups(), null, null, null, null, null, null, null);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            ConsoleSummary.print(r, out);
        }
        final List<String> warnings = bytes.toString(StandardCharsets.UTF_8).lines()
            .filter(l -> l.startsWith("warning:")).toList();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("ttft, tpot, e2e") && warnings.get(0).contains("64 samples"),
            warnings.get(0));
        assertEquals(3, RecordJson.tree(RecordWriter.build(r, "w")).path("report").path("tail_warnings").size(),
            "the record keeps one line per metric");
    }
}
