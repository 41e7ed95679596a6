package io.tokenclock.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.HdrHistogram.Histogram;

import io.tokenclock.api.Api;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.Metric;
import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.PooledRecord;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.record.ReportSection;
import io.tokenclock.results.record.RunRecord;
import io.tokenclock.results.RepetitionSet;
import io.tokenclock.results.Result;

/**
 * A repetition set's pooled view ({@link PooledRecord}, {@code pooled.json}, and one {@code <metric>.hlog} per metric
 * beside it): the whole repetitions' requests as one sample. Each metric's histogram is read back from the
 * repetitions' own {@code .hlog} files (what each repetition wrote, at full HdrHistogram resolution, so a set read
 * back later pools exactly as the run did) and added bucket by bucket, so a pooled percentile is the percentile of
 * every pooled request: never an average of the repetitions' percentiles, which is no percentile of anything. A
 * repetition whose record is partial is left out, as {@link Repetitions} leaves it out of the spread. Cold path;
 * stateless.
 */
public final class PooledRepetitions
{
    private PooledRepetitions()
    {
    }

    /**
     * What pooling gave.
     *
     * @param record     the pooled record.
     * @param histograms the pooled histograms, by metric (only those pooled).
     * @param startMs    the earliest pooled interval's start, ms since the epoch.
     * @param endMs      the latest pooled interval's end.
     */
    public record Pooled(PooledRecord record, Map<Metric, Histogram> histograms, long startMs, long endMs)
    {
    }

    /** Pools {@code reps} and writes {@code DIR/pooled.json} and the pooled {@code .hlog} files; returns the record. */
    public static PooledRecord write(final Path dir, final List<Result.Run> reps) throws IOException
    {
        final Pooled p = pool(reps);
        if (!p.histograms().isEmpty())
        {
            HistogramLogs.write(dir, p.histograms(), p.startMs(), p.endMs(), "pooled across repetitions " +
                numbers(p.record().pooledRepetitions()));
        }
        RecordJson.write(p.record(), dir.resolve(PooledRecord.FILE));
        return p.record();
    }

    /** @return the set's pooled record: {@code pooled.json}, or, for a set written before it, pooled now. */
    public static PooledRecord of(final RepetitionSet set) throws IOException
    {
        return set.pooled() != null ? set.pooled() : pool(set.repetitions()).record();
    }

    /** @return the whole repetitions of {@code reps} pooled, their histograms read from their directories. */
    public static Pooled pool(final List<Result.Run> reps) throws IOException
    {
        final List<Integer> whole = new ArrayList<>();
        final List<Integer> partial = new ArrayList<>();
        for (int i = 0; i < reps.size(); i++)
        {
            (reps.get(i).record().partial() ? partial : whole).add(i + 1);
        }
        final Map<Metric, Histogram> sums = new EnumMap<>(Metric.class);
        final Map<String, Dist> dists = new LinkedHashMap<>();
        final List<String> notPooled = new ArrayList<>();
        long startMs = Long.MAX_VALUE;
        long endMs = Long.MIN_VALUE;
        final boolean streamed = whole.isEmpty() || streamed(reps.get(whole.get(0) - 1).record());
        for (final Metric m : whole.isEmpty() ? new Metric[0] : Metric.values())
        {
            if (!HistogramLogs.expected(m, streamed))
            {
                continue; // an API that answers whole (embeddings, rerank) has no stream metric: no log, none missing
            }
            final Histogram sum = sum(reps, whole, m, notPooled);
            if (sum != null)
            {
                sums.put(m, sum);
                dists.put(m.key(), Dist.of(Distribution.of(sum, m)));
                startMs = Math.min(startMs, sum.getStartTimeStamp());
                endMs = Math.max(endMs, sum.getEndTimeStamp());
            }
        }
        final PooledRecord record = new PooledRecord(PooledRecord.FORMAT, sentence(whole, partial), reps.size(),
            whole, partial, counts(reps, whole), dists, notPooled);
        return new Pooled(record, sums, sums.isEmpty() ? 0 : startMs, sums.isEmpty() ? 0 : endMs);
    }

    /** @return whether the API a repetition's record names streams; a record that names none streamed. */
    private static boolean streamed(final RunRecord r)
    {
        return r.runtime() == null || Api.streams(r.runtime().api());
    }

    /**
     * @return metric {@code m}'s histogram over the repetitions numbered {@code whole}, added exactly; null (and a
     * line in {@code notPooled}) when one of them has no log for it or records it with other settings.
     */
    private static Histogram sum(final List<Result.Run> reps, final List<Integer> whole, final Metric m,
        final List<String> notPooled) throws IOException
    {
        Histogram sum = null;
        for (final int k : whole)
        {
            final Histogram h = HistogramLogs.read(reps.get(k - 1).dir(), m);
            if (h == null)
            {
                notPooled.add(m.key() + ": repetition " + k + " has no " + m.key() + HistogramLogs.SUFFIX);
                return null;
            }
            if (sum == null)
            {
                sum = new Histogram(h.getLowestDiscernibleValue(), h.getHighestTrackableValue(),
                    h.getNumberOfSignificantValueDigits());
                sum.setStartTimeStamp(h.getStartTimeStamp());
                sum.setEndTimeStamp(h.getEndTimeStamp());
            }
            else if (h.getLowestDiscernibleValue() != sum.getLowestDiscernibleValue() ||
                h.getHighestTrackableValue() != sum.getHighestTrackableValue() ||
                h.getNumberOfSignificantValueDigits() != sum.getNumberOfSignificantValueDigits())
            {
                notPooled.add(m.key() + ": repetition " + k + " records it with other histogram settings than " +
                    "repetition " + whole.get(0));
                return null;
            }
            sum.add(h);
            sum.setStartTimeStamp(Math.min(sum.getStartTimeStamp(), h.getStartTimeStamp()));
            sum.setEndTimeStamp(Math.max(sum.getEndTimeStamp(), h.getEndTimeStamp()));
        }
        return sum;
    }

    /**
     * @return the pooled repetitions' counts, each counter summed, and their 429 answers per second of their windows
     * added together.
     */
    private static ReportSection.Counts counts(final List<Result.Run> reps, final List<Integer> whole)
    {
        final Map<Counter, Long> sums = new EnumMap<>(Counter.class);
        long measured = 0;
        long limited = 0;
        double windowS = 0;
        for (final int k : whole)
        {
            final ReportSection rep = reps.get(k - 1).record().report();
            if (rep == null || rep.counts() == null)
            {
                continue;
            }
            measured += rep.counts().measured();
            rep.counts().values().forEach((c, v) -> sums.merge(c, v, Long::sum));
            limited += rep.errorsByClass() == null ? 0 : rep.errorsByClass().getOrDefault("http_429", 0L);
            windowS += rep.window() == null ? 0 : rep.window().durationS();
        }
        return new ReportSection.Counts(measured, sums, Formulas.rate(limited, windowS));
    }

    private static String sentence(final List<Integer> whole, final List<Integer> partial)
    {
        return "pooled across repetitions " + numbers(whole) + ": their measured requests as one sample, each " +
            "metric's histogram added bucket by bucket from their .hlog files" + (partial.isEmpty() ? "" :
            "; partial repetitions " + numbers(partial) + " left out") + "; an interval here is over the pooled " +
            "requests, not run to run (repetitions.json has the spread)";
    }

    private static String numbers(final List<Integer> ks)
    {
        return ks.isEmpty() ? "none" : ks.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
