package io.tokenclock.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.stats.OrderStatistics;

/**
 * The warning a run too short for its p99 gets, in the summary and in the record alike: with fewer than 299 samples
 * no sample is a 95% upper bound of the true p99, so the reported p99 (the largest sample or near it) may be far below
 * it. One line per metric users read the tail of: TTFT, TPOT, token ITL and e2e. Stateless.
 */
final class TailWarnings
{
    private static final List<Metric> TAILS = List.of(Metric.TTFT, Metric.TPOT, Metric.TOKEN_ITL, Metric.E2E);

    private TailWarnings()
    {
    }

    /** @return one line per tail metric whose p99 rests on too few samples to be bounded; empty when none. */
    static List<String> of(final Map<Metric, Distribution> distributions)
    {
        final long needed = OrderStatistics.minSamplesForUpperBound(0.99, Distribution.TAIL_LEVEL);
        final List<String> lines = new ArrayList<>();
        for (final Metric m : TAILS)
        {
            final Distribution d = distributions.get(m);
            if (d != null && d.count() > 0 && !d.p99Bounded())
            {
                lines.add(String.format(Locale.ROOT, "p99 of %s rests on %,d samples; a 95%% upper bound of a p99 " +
                    "needs %,d: the true p99 may be well above the reported one", m.key(), d.count(), needed));
            }
        }
        return lines;
    }
}
