package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.results.record.PooledRecord;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.Index;
import io.tokenclock.results.Kind;
import io.tokenclock.results.RepetitionSet;
import io.tokenclock.results.Result;
import io.tokenclock.results.Results;

/** A repetition set's pooled record: histograms added from the repetitions' logs, never percentiles averaged. */
final class PooledRepetitionsTest
{
    private static final Path GOLDEN = Path.of("src", "test", "resources", "io", "tokenclock", "report", "golden",
        "full-record.json");
    private static final long MS_NS = 1_000_000L;

    @TempDir
    Path dir;

    /** A repetition: the golden record (partial or not) and a TTFT log of {@code values} (ms). */
    private Result.Run rep(final int k, final boolean partial, final Histogram ttft) throws IOException
    {
        final Path at = Files.createDirectories(dir.resolve("rep-" + k));
        final ObjectNode record = (ObjectNode)RecordJson.JSON.readTree(GOLDEN.toFile());
        record.put("partial", partial);
        Files.write(at.resolve("record.json"), RecordJson.bytes(record));
        HistogramLogs.write(at, Map.of(Metric.TTFT, ttft), 1_000L * k, 1_000L * k + 500, "test");
        return new Result.Run("repetition " + k, at, Results.record(at));
    }

    /** @return a histogram of {@code n} values from {@code fromMs} in steps of {@code stepMs}, as runs record. */
    private static Histogram ttft(final int n, final long fromMs, final long stepMs)
    {
        final Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
        for (int i = 0; i < n; i++)
        {
            h.recordValue((fromMs + i * stepMs) * MS_NS);
        }
        return h;
    }

    @Test
    void shouldPoolTheP99OfEveryRequestNotTheMeanOfTheRepetitionsP99s() throws IOException
    {
        final Histogram fast = ttft(1_000, 1, 1);
        final Histogram slow = ttft(100, 5_000, 10);
        final List<Result.Run> reps = List.of(rep(1, false, fast), rep(2, false, slow));
        final Histogram all = fast.copy();
        all.add(slow);
        final double concatenated = Distribution.of(all, Metric.TTFT).p99();
        final double meanOfP99s = (Distribution.of(fast, Metric.TTFT).p99() +
            Distribution.of(slow, Metric.TTFT).p99()) / 2;
        assertNotEquals(concatenated, meanOfP99s, 1.0, "the two answers differ, so the test tells them apart");

        final PooledRecord p = PooledRepetitions.pool(reps).record();
        assertEquals(concatenated, p.distribution("ttft").p99(), 1e-9);
        assertEquals(1_100, p.distribution("ttft").count());
        assertEquals(Distribution.of(all, Metric.TTFT).p50(), p.distribution("ttft").p50(), 1e-9);
        assertEquals(List.of(1, 2), p.pooledRepetitions());
        assertEquals(440, p.counts().measured(), "the two records' measured counts summed");
    }

    @Test
    void shouldLeaveAPartialRepetitionOutAndNameIt() throws IOException
    {
        final List<Result.Run> reps = List.of(rep(1, false, ttft(1_000, 1, 1)), rep(2, true, ttft(100, 5_000, 10)));
        final PooledRecord p = PooledRepetitions.pool(reps).record();
        assertEquals(1_000, p.distribution("ttft").count());
        assertEquals(List.of(1), p.pooledRepetitions());
        assertEquals(List.of(2), p.partialRepetitions());
        assertTrue(p.pooled().contains("partial repetitions 2 left out"), p.pooled());
    }

    @Test
    void shouldSayWhichMetricARepetitionHasNoLogFor() throws IOException
    {
        final PooledRecord p = PooledRepetitions.pool(List.of(rep(1, false, ttft(10, 1, 1)))).record();
        assertTrue(p.notPooled().contains("e2e: repetition 1 has no e2e.hlog"), p.notPooled().toString());
        assertEquals(List.of("ttft"), new ArrayList<>(p.distributions().keySet()));
    }

    @Test
    void shouldPoolAnEmbeddingsSetsLogsAndMissNoStreamMetricItNeverHad() throws IOException
    {
        // Repetitions of an API that answers whole write only the logs of the metrics it has (no ttft.hlog).
        final List<Result.Run> reps = new ArrayList<>();
        for (int k = 1; k <= 2; k++)
        {
            final Path at = Files.createDirectories(dir.resolve("rep-" + k));
            final ObjectNode record = (ObjectNode)RecordJson.JSON.readTree(GOLDEN.toFile());
            ((ObjectNode)record.path("runtime")).put("api", "embeddings");
            record.put("partial", false);
            Files.write(at.resolve("record.json"), RecordJson.bytes(record));
            final Map<Metric, Histogram> logs = new java.util.EnumMap<>(Metric.class);
            for (final Metric m : Metric.values())
            {
                if (!m.streamOnly())
                {
                    logs.put(m, ttft(100 * k, 1, 1));
                }
            }
            HistogramLogs.write(at, logs, 1_000L * k, 1_000L * k + 500, "test");
            reps.add(new Result.Run("repetition " + k, at, Results.record(at)));
        }

        final PooledRecord p = PooledRepetitions.pool(reps).record();
        assertEquals(List.of(), p.notPooled(), "no stream metric is missing: an embeddings run has none");
        assertEquals(300, p.distribution("e2e").count());
        assertTrue(!p.distributions().containsKey("ttft") && !p.distributions().containsKey("tpot"),
            p.distributions().keySet().toString());
    }

    @Test
    void shouldWritePooledJsonAndLogsThatTheResultModelReadsBack() throws IOException
    {
        final List<Result.Run> reps = List.of(rep(1, false, ttft(1_000, 1, 1)), rep(2, false, ttft(100, 5_000, 10)));
        Index.write(dir, Kind.REPETITIONS, List.of(new Index.Member("rep-1", "repetition 1"),
            new Index.Member("rep-2", "repetition 2")));
        final PooledRecord written = PooledRepetitions.write(dir, reps);
        final RepetitionSet set = assertInstanceOf(RepetitionSet.class, Results.open(dir));
        assertEquals(written, set.pooled());
        final Histogram log = HistogramLogs.read(dir, Metric.TTFT);
        assertEquals(1_100, log.getTotalCount());
        assertEquals(1_000L, log.getStartTimeStamp(), "the first repetition's start");
        assertEquals(2_500L, log.getEndTimeStamp(), "the last repetition's end");
        assertEquals(written, PooledRepetitions.of(set));
    }
}
