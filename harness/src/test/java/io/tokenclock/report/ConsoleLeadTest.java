package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptions;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.run.MinimalRuns;
import io.tokenclock.run.RunResult;

/**
 * The summary leads with the answer: the table and its legend, then at most three lines (throughput and goodput,
 * errors, the most serious warning); the client's internals only with {@code --verbose}; no Java toString.
 */
final class ConsoleLeadTest
{
    private static String print(final RunOptions o)
    {
        final RunResult bare = MinimalRuns.of(o, 400, 40_000);
        final Map<Metric, Distribution> d = new EnumMap<>(bare.distributions());
        for (final Metric m : List.of(Metric.TTFT, Metric.TTFOT, Metric.TTST, Metric.TPOT, Metric.E2E,
            Metric.INTER_CHUNK_LATENCY))
        {
            d.put(m, new Distribution("ms", 400, 1, 2, 0.5, 2, 3, 3.5, 4, 4, 4, 3.5, 4, Double.NaN, Double.NaN));
        }
        final RunResult r = new RunResult(bare.options(), bare.target(), bare.counts(), bare.window(), d,
            bare.clientHealth(), bare.provenance(), bare.groups(), null, null, null, null, null, null, null);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            ConsoleSummary.print(r, out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldFollowTheTableWithItsLegendAndAtMostThreeLinesOfWhatMatters()
    {
        final String text = print(RunOptions.builder().url("http://127.0.0.1:8000/v1").rate(4.0).durationS(10.0)
            .build());
        final List<String> lines = text.lines().toList();
        final int legend = indexOf(lines, "rows: ");
        assertTrue(legend > 0, text);
        assertTrue(lines.get(legend).contains("ttfot = time to first output token") &&
            text.contains("ttst = time to second token"), text);
        final int results = indexOf(lines, "results: ");
        final List<String> after = lines.subList(legend + 1, results).stream().filter(l -> !l.isBlank() &&
            !l.startsWith("      ")).toList();
        assertTrue(after.size() <= 3, "at most three lines between the table and the results: " + after);
        assertTrue(after.get(0).startsWith("throughput: 40.00 req/s"), after.toString());
        assertEquals("errors: none", after.get(1), after.toString());
        assertFalse(text.contains("client cost") || text.contains("stamping:") || text.contains("client ready"),
            "the client's internals go to --verbose and the record: " + text);
        assertFalse(text.matches("(?s).*[A-Za-z]+\\{[a-z]+=.*"), "no Java toString: " + text);
    }

    @Test
    void shouldPrintTheClientsInternalsWithVerbose()
    {
        final String text = print(RunOptions.builder().url("http://127.0.0.1:8000/v1").rate(4.0).durationS(10.0)
            .set(RunOption.VERBOSE, true).build());
        assertTrue(text.contains("client ready before t0"), text);
    }

    private static int indexOf(final List<String> lines, final String prefix)
    {
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.get(i).startsWith(prefix))
            {
                return i;
            }
        }
        return -1;
    }
}
