package io.tokenclock.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.util.WholeFile;

/**
 * One HdrHistogram log per metric in a run directory, {@code <metric>.hlog} (docs/RESULTS.md): HdrHistogram's own
 * interval-log format ({@link HistogramLogWriter}), readable by {@link HistogramLogReader} and HdrHistogram's
 * {@code HistogramLogProcessor}, so any tool that reads HdrHistogram logs reads tokenclock's. Each log holds a
 * {@code #[StartTime: ...]} and a {@code #[BaseTime: ...]} line (the window's start on the wall clock) and one
 * interval: the whole window's histogram, tagged with the metric's name, stamped with the window's wall-clock start
 * and end. Every run records with the same settings ({@link MetricRecorders}: 1 to one hour, 3 significant digits),
 * which the encoded histogram carries, so logs of different shards add exactly. A run writes the logs of the metrics
 * its API has ({@link Metric#appliesTo}): an API that answers whole (embeddings, rerank) has no {@code ttft.hlog},
 * {@code tpot.hlog} or any other stream metric's log, and whoever reads a run's logs back ({@code merge}, the pooled
 * repetitions) expects none of them ({@link #expected}).
 */
public final class HistogramLogs
{
    /** The file suffix of a metric's log. */
    public static final String SUFFIX = ".hlog";
    /** The most an interval's histogram may claim, payload or counts array, in bytes: 64 MiB. */
    static final long MAX_BYTES = 64L << 20;

    private HistogramLogs()
    {
    }

    /** @return the log of {@code metric} in {@code dir}. */
    public static Path file(final Path dir, final Metric metric)
    {
        return dir.resolve(metric.key() + SUFFIX);
    }

    /**
     * @param streamed whether the run's API streams its answers (a record's {@code runtime.api}).
     * @return whether a run of that API has {@code metric}'s log: false for a stream's metric of an answer read whole.
     */
    public static boolean expected(final Metric metric, final boolean streamed)
    {
        return metric.appliesTo(streamed);
    }

    /**
     * Writes the run total of every metric that exists for the run's API.
     *
     * @param wallMinusMonotonicNs added to a window stamp to put it on the wall clock.
     * @param streamed             whether the run's API streams: if not, no stream metric's log is written.
     */
    public static void write(
        final Path dir, final MetricRecorders recorders, final long windowStartNs, final long windowEndNs,
        final long wallMinusMonotonicNs, final String runId, final boolean streamed) throws IOException
    {
        final Map<Metric, Histogram> totals = new EnumMap<>(Metric.class);
        for (final Metric m : Metric.values())
        {
            if (expected(m, streamed))
            {
                totals.put(m, recorders.total(m));
            }
        }
        write(dir, totals, (windowStartNs + wallMinusMonotonicNs) / 1_000_000L,
            (Math.max(windowEndNs, windowStartNs) + wallMinusMonotonicNs) / 1_000_000L, runId);
    }

    /** Writes each histogram as the one interval of its metric's log, from {@code startMs} to {@code endMs}. */
    public static void write(
        final Path dir, final Map<Metric, Histogram> histograms, final long startMs, final long endMs,
        final String what) throws IOException
    {
        for (final Map.Entry<Metric, Histogram> e : histograms.entrySet())
        {
            final Histogram h = e.getValue().copy();
            h.setStartTimeStamp(startMs);
            h.setEndTimeStamp(endMs);
            h.setTag(e.getKey().key());
            WholeFile.write(file(dir, e.getKey()), stream ->
            {
                final PrintStream out = new PrintStream(stream, false, StandardCharsets.UTF_8);
                final HistogramLogWriter w = new HistogramLogWriter(out);
                w.outputComment("tokenclock " + what + ": " + e.getKey().key() + " in " + unitOf(e.getKey()) +
                    ", lowest " + h.getLowestDiscernibleValue() + ", highest " + h.getHighestTrackableValue() +
                    ", " + h.getNumberOfSignificantValueDigits() + " significant digits");
                w.outputLogFormatVersion();
                w.outputStartTime(startMs);
                w.setBaseTime(startMs);
                w.outputBaseTime(startMs);
                w.outputLegend();
                w.outputIntervalHistogram(h);
                if (out.checkError())
                {
                    throw new IOException(file(dir, e.getKey()) + ": write failed");
                }
            });
        }
    }

    /**
     * @return the sum of every interval in {@code metric}'s log in {@code dir}, with the settings it was recorded
     * with, stamped from the earliest interval's start to the latest's end (ms since the epoch); null when the
     * directory has no log for it.
     */
    public static Histogram read(final Path dir, final Metric metric) throws IOException
    {
        final Path file = file(dir, metric);
        if (!Files.exists(file))
        {
            return null;
        }
        check(file);
        Histogram sum = null;
        final HistogramLogReader reader = new HistogramLogReader(file.toFile());
        try
        {
            EncodableHistogram next;
            while ((next = reader.nextIntervalHistogram()) != null)
            {
                final Histogram h = (Histogram)next;
                if (sum == null)
                {
                    sum = new Histogram(h.getLowestDiscernibleValue(), h.getHighestTrackableValue(),
                        h.getNumberOfSignificantValueDigits());
                    sum.setStartTimeStamp(h.getStartTimeStamp());
                    sum.setEndTimeStamp(h.getEndTimeStamp());
                }
                sum.add(h);
                sum.setStartTimeStamp(Math.min(sum.getStartTimeStamp(), h.getStartTimeStamp()));
                sum.setEndTimeStamp(Math.max(sum.getEndTimeStamp(), h.getEndTimeStamp()));
            }
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalArgumentException(file + ": expected HdrHistogram's interval log, got one it cannot " +
                "decode", ex);
        }
        finally
        {
            reader.close();
        }
        return sum;
    }

    /**
     * Checks every interval line of {@code file} before HdrHistogram decodes it: its last field is base64, and the
     * histogram it encodes claims a payload and a counts array of a size this reader will allocate ({@value
     * #MAX_BYTES} bytes at most). HdrHistogram allocates what the header claims, so a header claiming 2 GB would end
     * the JVM before a byte of it was checked.
     */
    static void check(final Path file) throws IOException
    {
        long n = 0;
        try (java.io.BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                n++;
                if (line.isBlank() || line.startsWith("#") || line.startsWith("\"StartTimestamp\""))
                {
                    continue;
                }
                final String why = HlogHeader.problem(line.substring(line.lastIndexOf(',') + 1));
                if (why != null)
                {
                    throw new IllegalArgumentException(file + ": line " + n + ": expected " + why);
                }
            }
        }
        catch (final java.nio.charset.CharacterCodingException ex)
        {
            throw new IllegalArgumentException(file + ": line " + (n + 1) + ": expected HdrHistogram's interval " +
                "log (text), got bytes that are not UTF-8");
        }
    }

    private static String unitOf(final Metric m)
    {
        return m.scale() == 1e6 ? "ns" : m.scale() == 1e3 ? "milli-" + m.unit() : m.unit();
    }
}
