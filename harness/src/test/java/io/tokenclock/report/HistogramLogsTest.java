package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogProcessor;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.MetricRecorders;

/** A run's .hlog files are HdrHistogram's own log format: its reader and its log processor read them back exactly. */
final class HistogramLogsTest
{
    private static final long OFFSET_NS = 1_790_000_000_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void shouldRoundTripEveryMetricThroughHistogramLogReader() throws IOException
    {
        final MetricRecorders recorders = recorded();
        HistogramLogs.write(dir, recorders, 2_000_000_000L, 7_000_000_000L, OFFSET_NS, "test-run", true);

        for (final Metric m : Metric.values())
        {
            final HistogramLogReader reader = new HistogramLogReader(HistogramLogs.file(dir, m).toFile());
            final Histogram h = (Histogram)reader.nextIntervalHistogram();
            reader.close();
            assertEquals(recorders.total(m), h, m.key());
            assertEquals(m.key(), h.getTag());
            assertEquals((2_000_000_000L + OFFSET_NS) / 1_000_000L, h.getStartTimeStamp(), "window start, wall ms");
            assertEquals((7_000_000_000L + OFFSET_NS) / 1_000_000L, h.getEndTimeStamp(), "window end, wall ms");
            assertEquals(MetricRecorders.SIGNIFICANT_DIGITS, h.getNumberOfSignificantValueDigits());
        }
        final List<String> lines = Files.readAllLines(HistogramLogs.file(dir, Metric.TTFT));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("#[StartTime: ")), "a StartTime line");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("#[BaseTime: ")), "a BaseTime line");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("Tag=ttft,")), "the interval tagged with its metric");
    }

    @Test
    void shouldBeReadByHistogramLogProcessorWithTheRunsCountAndMax() throws IOException
    {
        final MetricRecorders recorders = recorded();
        HistogramLogs.write(dir, recorders, 2_000_000_000L, 7_000_000_000L, OFFSET_NS, "test-run", true);
        final Path out = dir.resolve("ttft-percentiles");

        new HistogramLogProcessor(new String[] {"-i", HistogramLogs.file(dir, Metric.TTFT).toString(), "-o",
            out.toString(), "-tag", "ttft", "-outputValueUnitRatio", "1"}).run();

        final String hgrm = Files.readString(Path.of(out + ".hgrm"));
        final Histogram ttft = recorders.total(Metric.TTFT);
        assertTrue(Pattern.compile("Total count\\s+=\\s+1000]").matcher(hgrm).find(), hgrm);
        assertTrue(hgrm.contains(String.format(Locale.ROOT, "#[Max     = %.3f,", (double)ttft.getMaxValue())), hgrm);
    }

    @Test
    void shouldReadBackTheSumOfTheLogsIntervals() throws IOException
    {
        final MetricRecorders recorders = recorded();
        HistogramLogs.write(dir, recorders, 0, 1_000_000_000L, OFFSET_NS, "test-run", true);

        assertEquals(recorders.total(Metric.E2E), HistogramLogs.read(dir, Metric.E2E));
        assertEquals(null, HistogramLogs.read(dir.resolve("nowhere"), Metric.E2E));
    }

    @Test
    void shouldWriteNoLogOfAStreamMetricForAnAnswerReadWhole() throws IOException
    {
        // An embeddings or rerank run: no ttft.hlog, tpot.hlog or any other stream metric's log, not even empty.
        HistogramLogs.write(dir, recorded(), 0, 1_000_000_000L, OFFSET_NS, "test-run", false);

        for (final Metric m : Metric.values())
        {
            assertEquals(!m.streamOnly(), Files.exists(HistogramLogs.file(dir, m)), m.key());
        }
        assertTrue(Files.exists(HistogramLogs.file(dir, Metric.E2E)) && !Files.exists(dir.resolve("ttft.hlog")) &&
            !Files.exists(dir.resolve("tpot.hlog")));
    }

    private static MetricRecorders recorded()
    {
        final MetricRecorders recorders = new MetricRecorders();
        for (int k = 1; k <= 1000; k++)
        {
            for (final Metric m : Metric.values())
            {
                recorders.record(m, 1_000L * k * k + m.ordinal());
            }
        }
        recorders.sample();
        return recorders;
    }
}
