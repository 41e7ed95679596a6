package io.tokenclock.results.record;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * {@code pooled.json}, a repetition set's top-level record (docs/RESULTS.md): every whole repetition's requests as
 * one sample, each metric's histogram added bucket by bucket from the repetitions' {@code .hlog} files, so that a
 * pooled p99 is the p99 of all their requests, never a mean of the repetitions' p99s. It is no run: a pooled
 * percentile's interval treats the pooled requests as one sample and says nothing of run-to-run variance, which
 * {@code repetitions.json} measures. Written by {@code report.PooledRepetitions}, read by {@code results.Results}.
 *
 * @param format             {@link #FORMAT}.
 * @param pooled             what was pooled and how, in one sentence.
 * @param repetitions        the repetitions in the set, pooled or not.
 * @param pooledRepetitions  the 1-based numbers of those pooled: the whole ones.
 * @param partialRepetitions the 1-based numbers of those whose own record is partial (cut short): left out.
 * @param counts             the pooled repetitions' counts, in the shape of a run's {@code report.counts}: each
 *                           counter summed, {@code http_429_per_s} over their windows added together.
 * @param distributions      one per metric key, as {@code report.distributions} of a run names them; a metric
 *                           whose logs a pooled repetition lacks is absent (see {@code notPooled}).
 * @param notPooled          one line per metric that could not be pooled, and why; empty when none.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record PooledRecord(String format, String pooled, int repetitions, List<Integer> pooledRepetitions,
    List<Integer> partialRepetitions, ReportSection.Counts counts, Map<String, Dist> distributions,
    List<String> notPooled)
{
    /** The format's name and version. */
    public static final String FORMAT = "tokenclock-pooled/1";
    /** The file's name in a repetition set's directory. */
    public static final String FILE = "pooled.json";

    /** @return the distribution of metric {@code key}, or an empty one when none was pooled. */
    public Dist distribution(final String key)
    {
        final Dist d = distributions == null ? null : distributions.get(key);
        return d == null ? Dist.empty("ms") : d;
    }
}
