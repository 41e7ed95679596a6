package io.tokenclock.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;

/**
 * The warning a run too short for its p99 gets, in the summary and in the record alike: with fewer than 368
 * samples the p99's two-sided 95% interval ({@link Distribution#p99High()}) has no upper end, so the reported p99 (the
 * largest sample or near it) may be far below the true one. One line per metric users read the tail of: TTFT,
 * TPOT, token ITL and e2e. Stateless.
 */
final class TailWarnings
{
    private static final List<Metric> TAILS = List.of(Metric.TTFT, Metric.TPOT, Metric.TOKEN_ITL, Metric.E2E);

    private TailWarnings()
    {
    }

    /**
     * @return the console's one line for all of {@link #of}'s (one problem: the run is too short for its p99s), or
     * null when no tail is short; the record keeps one line per metric ({@code report.tail_warnings}).
     */
    static String consoleLine(final Map<Metric, Distribution> distributions)
    {
        final List<String> names = new ArrayList<>();
        long fewest = Long.MAX_VALUE;
        for (final Metric m : TAILS)
        {
            final Distribution d = distributions.get(m);
            if (d != null && d.count() > 0 && !d.p99Bounded())
            {
                names.add(m.key());
                fewest = Math.min(fewest, d.count());
            }
        }
        if (names.isEmpty())
        {
            return null;
        }
        return String.format(Locale.ROOT, "the p99 of %s rests on %s%,d samples; a p99's 95%% interval has an upper " +
            "end from %,d: the true p99 may be well above the one shown (run more requests, e.g. --min-samples-for " +
            "p99; per metric: record.json report.tail_warnings)", String.join(", ", names),
            names.size() > 1 ? "as few as " : "", fewest, Distribution.samplesForUpperEnd(0.99));
    }

    /** @return one line per tail metric whose p99 rests on too few samples to be bounded; empty when none. */
    static List<String> of(final Map<Metric, Distribution> distributions)
    {
        final long needed = Distribution.samplesForUpperEnd(0.99);
        final List<String> lines = new ArrayList<>();
        for (final Metric m : TAILS)
        {
            final Distribution d = distributions.get(m);
            if (d != null && d.count() > 0 && !d.p99Bounded())
            {
                lines.add(String.format(Locale.ROOT, "p99 of %s rests on %,d samples; its 95%% interval has an upper " +
                    "end from %,d: the true p99 may be well above the reported one", m.key(), d.count(), needed));
            }
        }
        return lines;
    }
}
