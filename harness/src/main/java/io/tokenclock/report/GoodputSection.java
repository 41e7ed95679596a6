package io.tokenclock.report;

import java.io.PrintStream;
import java.util.Locale;

import io.tokenclock.goodput.GoodputCounts;
import io.tokenclock.goodput.Slo;
import io.tokenclock.metrics.Formulas;
import io.tokenclock.results.record.ReportSection;
import io.tokenclock.run.RunResult;

/**
 * Goodput in the record ({@code report.goodput}, and each segment's), the summary and the record block: good requests
 * against the SLO and the quality rule, per second and as output tokens per second over the window, and what every
 * other request missed, per constraint. Formulas in docs/METRICS.md ("Goodput"). Cold path; stateless.
 */
public final class GoodputSection
{
    private GoodputSection()
    {
    }

    /** @return {@code report.goodput}, or null when the run reports no goodput. */
    public static ReportSection.Goodput json(final RunResult r)
    {
        if (r.goodput() == null)
        {
            return null;
        }
        final ReportSection.Goodput g = json(r.goodput(), r.options().quality().slo(),
            r.options().quality().rule().judgesOutputs(), r.windowSeconds());
        // An agent run's goodput counts tasks (AgentTasks): the same fields, each a task; requests_per_s is tasks/s.
        return r.tasks() == null ? g : new ReportSection.Goodput(g.slo(), g.qualityRule(), g.attempted(), g.good(),
            g.goodFraction(), g.requestsPerS(), g.outputTokensPerS(), g.goodOutputTokens(), g.misses(), g.excluded(),
            g.measured(), g.goodputPerS(), "tasks");
    }

    /**
     * A segment's goodput, when it has goodput: the whole section goes under the segment's {@code goodput}, since
     * the segment's own {@code requests_per_s} and {@code output_tokens_per_s} are its throughput, and the four
     * fields of record format 3 ({@code slo}, {@code good}, {@code good_fraction}, {@code goodput_per_s}) beside it.
     *
     * @return the section, or null when the segment has no goodput.
     */
    public static ReportSection.Goodput group(final RunResult.GroupResult g, final boolean qualityRule)
    {
        return g.goodput() == null ? null : json(g.goodput(), g.slo(), qualityRule, g.windowSeconds());
    }

    private static ReportSection.Goodput json(final GoodputCounts c, final Slo slo, final boolean qualityRule,
        final double windowS)
    {
        // measured and goodput_per_s: aliases of record format 3 (every measured request; requests_per_s).
        return new ReportSection.Goodput(slo == null ? null : slo.describe(), qualityRule, c.attempted(), c.good(),
            c.goodFraction(), Formulas.rate(c.good(), windowS), Formulas.rate(c.goodOutputTokens(), windowS),
            c.goodOutputTokens(), new ReportSection.Misses(c.ttft(), c.tpot(), c.itl(), c.e2e(), c.quality(),
            c.failed(), c.cancelled()), c.excluded(), c.attempted() + c.excluded(), Formulas.rate(c.good(), windowS));
    }

    /**
     * @return the summary's goodput phrase, e.g. {@code 10.90 req/s, 1046.4 output tok/s: 218 of 232 requests met
     * ttft<=500ms (94.0%)}; null when the run has no goodput.
     */
    public static String summary(final RunResult r)
    {
        final GoodputCounts c = r.goodput();
        if (c == null)
        {
            return null;
        }
        final Slo slo = r.options().quality().slo();
        final String rule = (slo == null ? "" : slo.describe()) + (r.options().quality().rule().judgesOutputs() ?
            (slo == null ? "" : " and ") + "the quality rule" : "");
        return String.format(Locale.ROOT, "%.2f req/s, %.1f output tok/s: %d of %d requests met %s (%.1f%%)",
            Formulas.rate(c.good(), r.windowSeconds()), Formulas.rate(c.goodOutputTokens(), r.windowSeconds()),
            c.good(), c.attempted(), rule, 100.0 * c.goodFraction());
    }

    /** Prints what the requests that were not good missed, per constraint ({@code --verbose}). */
    public static void misses(final RunResult r, final PrintStream out)
    {
        final GoodputCounts c = r.goodput();
        if (c == null)
        {
            return;
        }
        out.printf(Locale.ROOT, "goodput missed: ttft %d, tpot %d, itl %d, e2e %d, quality %d; failed %d, " +
            "cancelled %d%s%n", c.ttft(), c.tpot(), c.itl(), c.e2e(), c.quality(), c.failed(), c.cancelled(),
            c.excluded() > 0 ? "; excluded " + c.excluded() : "");
    }

    /** Appends the record block's GOODPUT section, when the record has goodput ({@code g} not null). */
    static void block(final ReportSection.Goodput g, final StringBuilder sb)
    {
        if (g == null)
        {
            return;
        }
        RecordBlock.section(sb, "GOODPUT");
        RecordBlock.line(sb, "rule", (g.slo() != null ? g.slo() : "no latency bound") +
            (g.qualityRule() ? "; quality rule (see QUALITY)" : ""));
        RecordBlock.line(sb, "goodput", String.format(Locale.ROOT, "%.2f req/s, %.1f output tok/s; %d of %d good " +
            "(%.1f%%)", g.requestsPerS(), g.outputTokensPerS(), g.good(), g.attempted(), 100 * g.goodFraction()));
        final ReportSection.Misses m = g.misses() != null ? g.misses() : new ReportSection.Misses(0, 0, 0, 0, 0, 0, 0);
        RecordBlock.line(sb, "missed", String.format(Locale.ROOT, "ttft %d, tpot %d, itl %d, e2e %d, quality %d; " +
            "failed %d, cancelled %d; excluded %d", m.ttft(), m.tpot(), m.itl(), m.e2e(), m.quality(), m.failed(),
            m.cancelled(), g.excluded()));
    }
}
