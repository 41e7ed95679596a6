package io.tokenclock.report;

import java.io.IOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.api.Api;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Metric;
import io.tokenclock.peers.PeerRun;
import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.PooledRecord;
import io.tokenclock.results.record.ReportSection;
import io.tokenclock.results.AbResult;
import io.tokenclock.results.Imported;
import io.tokenclock.results.Merged;
import io.tokenclock.results.RepetitionSet;
import io.tokenclock.results.Result;
import io.tokenclock.results.RunResultDir;
import io.tokenclock.results.Sweep;
import io.tokenclock.text.UntrustedText;

/**
 * What {@code tokenclock record DIR} prints for any result: a run's (or a merged run's) record block; a repetition
 * set's pooled figures ({@link PooledRepetitions}) and, as the run printed them, its spread from
 * {@code repetitions.json}; an A/B's table as {@code ab} printed it, from {@code ab.json}; a
 * sweep's table and knees from {@code sweep.json}; an imported peer file's figures beside tokenclock's recomputation.
 * Cold path; stateless.
 */
public final class ResultTables
{
    private static final String SWEEP_ROW = "%10s %9s %9s %9s %9s %9s %10s %9s %7s %7s%n";
    /** A sweep of an API that answers whole (embeddings, rerank): e2e and inputs/s, no TTFT or TPOT. */
    private static final String WHOLE_SWEEP_ROW = "%10s %9s %9s %9s %9s %10s %9s %7s %7s%n";
    private static final String AB_ROW = "%-22s %12s %12s %12s %9s %21s %21s %s%n";
    private static final String REPETITION_ROW = "%-22s %12s %12s %8s %21s %-11s %21s %s%n";

    private ResultTables()
    {
    }

    private static final String POOLED_ROW = "%-22s %9s %12s %12s %12s %12s %12s %s%n";
    private static final int NOT_POOLED_LINES = 3;

    /**
     * @return the text for {@code result}. Every string in it came from a file (a peer's, or one anyone may edit), so
     * a field that must keep to its line is escaped where it is set ({@link UntrustedText#oneLine}), and the whole is
     * escaped again but for its line feeds: no byte of a file acts on the terminal, whichever field carried it. A set
     * that is not whole (stopped by a signal, or by {@code kill -9} while it was in progress) says so first, as a
     * partial run's record does.
     */
    public static String render(final Result result) throws IOException
    {
        return UntrustedText.lines(layout(result));
    }

    private static String layout(final Result result) throws IOException
    {
        return switch (result)
        {
            case RunResultDir run -> RecordBlock.render(run.record());
            case Merged merged -> RecordBlock.render(merged.record());
            case RepetitionSet reps -> partialSet(reps) + repetitions(reps);
            case AbResult ab -> partialSet(ab) + ab(ab);
            case Sweep sweep -> partialSet(sweep) + sweep(sweep);
            case Imported imported -> imported(imported);
        };
    }

    /** @return {@code PARTIAL SET: why} and a newline for a set that is not whole, else nothing. */
    private static String partialSet(final Result set)
    {
        return set.partial() == null ? "" : "PARTIAL SET: " + UntrustedText.escaped(set.partial(),
            Integer.MAX_VALUE) + "\n";
    }

    /**
     * @return the pooled record's figures: what was pooled, the requests, and each latency metric with samples, its
     * percentiles over every pooled request; then what could not be pooled.
     */
    public static String pooled(final PooledRecord p)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "pooled (%d of %d repetitions; partial, left out: %s): %s%n",
            p.pooledRepetitions().size(), p.repetitions(), p.partialRepetitions().isEmpty() ? "none" :
                p.partialRepetitions(), p.pooled()));
        final ReportSection.Counts c = p.counts();
        sb.append(String.format(Locale.ROOT, "  requests: %d measured: %d ok, %d error, %d cancelled%n",
            c.measured(), c.get(Counter.OK), c.get(Counter.ERRORS), c.get(Counter.CANCELLED)));
        sb.append(String.format(Locale.ROOT, POOLED_ROW, "metric (pooled)", "n", "p50", "p90", "p99", "p99.9", "max",
            "p99 ci95"));
        for (final Metric m : Metric.values())
        {
            final Dist d = p.distributions().get(m.key());
            if (d != null && d.count() > 0 && "ms".equals(d.unit()))
            {
                sb.append(String.format(Locale.ROOT, POOLED_ROW, m.key() + " (ms)", d.count(), number(d.p50()),
                    number(d.p90()), number(d.p99()), number(d.p999()), number(d.max()), d.p99Ci95() == null ? "-" :
                    "[" + number(d.p99Ci95().get(0)) + ", " + number(d.p99Ci95().get(1)) + "]"));
            }
        }
        // A set written before its repetitions had .hlog files misses every metric's: three lines say so.
        p.notPooled().stream().limit(NOT_POOLED_LINES).forEach(n -> sb.append("  not pooled: ").append(n).append('\n'));
        if (p.notPooled().size() > NOT_POOLED_LINES)
        {
            sb.append(String.format(Locale.ROOT, "  not pooled: %d more metrics (pooled.json lists them)%n",
                p.notPooled().size() - NOT_POOLED_LINES));
        }
        return sb.toString();
    }

    private static String repetitions(final RepetitionSet reps) throws IOException
    {
        final StringBuilder sb = new StringBuilder();
        final JsonNode s = reps.spread();
        sb.append(String.format(Locale.ROOT, "repetitions: %s, %d runs (95%% interval of the mean: bootstrap, and " +
            "Student's t; outliers: Tukey)%n", reps.path(), reps.repetitions().size()));
        sb.append(pooled(PooledRepetitions.of(reps)));
        if (s == null)
        {
            return sb.append("  no repetitions.json: the set was stopped before its end\n").toString();
        }
        sb.append("run to run (repetitions.json: each figure's spread over the repetitions)\n");
        sb.append(String.format(Locale.ROOT, REPETITION_ROW, "figure", "mean", "stdev", "cv", "bootstrap ci95", "",
            "t ci95", "excluded"));
        for (final Iterator<Map.Entry<String, JsonNode>> it = s.path("figures").properties().iterator(); it.hasNext(); )
        {
            final Map.Entry<String, JsonNode> e = it.next();
            final JsonNode f = e.getValue();
            final double mean = f.path("mean").asDouble(Double.NaN);
            final double stdev = f.path("stdev").asDouble(Double.NaN);
            sb.append(String.format(Locale.ROOT, REPETITION_ROW, field(e.getKey()), number(mean), number(stdev),
                mean != 0 ? String.format(Locale.ROOT, "%.1f%%", 100 * stdev / mean) : "-", interval(f.path("ci95")),
                caveat(f), interval(f.path("ci95_t")), f.path("excluded_repetitions").isEmpty() ? "-" : "reps " +
                    f.path("excluded_repetitions")));
        }
        return sb.toString();
    }

    /**
     * @return what a repetition figure's bootstrap interval may be said to show: the file's own words
     * ({@code ci95_caveat}), else, for a file written before them, {@code range} where {@code ci95_is_range}.
     */
    private static String caveat(final JsonNode f)
    {
        if (f.path("ci95_caveat").isTextual())
        {
            return field(f.path("ci95_caveat").asText());
        }
        return f.path("ci95_is_range").asBoolean(false) ? "range" : "";
    }

    private static String ab(final AbResult ab)
    {
        final StringBuilder sb = new StringBuilder();
        final JsonNode j = ab.ab();
        sb.append(String.format(Locale.ROOT, "A/B: %s, %d + %d runs%s (B - A, 95%% intervals: bootstrap, and " +
            "Welch's t)%n", ab.path(), ab.a().size(), ab.b().size(), j == null ? "" : ", order " + j.path("order")));
        if (j == null)
        {
            return sb.append("  no ab.json: the A/B was stopped before its end\n").toString();
        }
        sb.append(String.format(Locale.ROOT, "  A = %s, B = %s%n", field(j.path("variants").path("A").asText()),
            field(j.path("variants").path("B").asText())));
        sb.append(String.format(Locale.ROOT, AB_ROW, "figure", "mean A", "mean B", "B - A", "rel", "bootstrap ci95",
            "t ci95", "verdict"));
        for (final Iterator<Map.Entry<String, JsonNode>> it = j.path("figures").properties().iterator(); it.hasNext(); )
        {
            final Map.Entry<String, JsonNode> e = it.next();
            final JsonNode f = e.getValue();
            sb.append(String.format(Locale.ROOT, AB_ROW, field(e.getKey()),
                number(f.path("mean_a").asDouble(Double.NaN)), number(f.path("mean_b").asDouble(Double.NaN)),
                number(f.path("difference").asDouble(Double.NaN)), f.path("relative").isNumber() ?
                    String.format(Locale.ROOT, "%.1f%%", 100 * f.path("relative").asDouble()) :
                    f.path("mean_b").asDouble(Double.NaN) == 0 ? "0 vs 0" : "base 0",
                interval(f.path("ci95")), interval(f.path("ci95_t")), field(verdict(f))));
        }
        return sb.toString();
    }

    /**
     * @return a figure's verdict: the file's own ({@code verdict}); none where the file has no interval (fewer than 2
     * whole runs a side); for a file written before Welch's check, from {@code exceeds_noise}, said to rest on the
     * bootstrap alone.
     */
    public static String verdict(final JsonNode f)
    {
        if (f.path("verdict").isTextual())
        {
            return f.path("verdict").asText();
        }
        if (!f.path("exceeds_noise").isBoolean())
        {
            return AbReport.NO_VERDICT;
        }
        return f.path("exceeds_noise").asBoolean(false) ? "differs (bootstrap alone: written before the t check)" :
            "within noise";
    }

    /**
     * @return whether the API a {@code sweep.json} names ({@code api}) streams: false for embeddings and rerank, whose
     * points have the e2e latency and inputs/s and no TTFT or TPOT; a sweep.json without it was a streamed API's.
     */
    public static boolean sweepStreamed(final JsonNode sweep)
    {
        return Api.streams(sweep.path("api").asText("chat"));
    }

    private static String sweep(final Sweep sweep)
    {
        final StringBuilder sb = new StringBuilder();
        final JsonNode j = sweep.sweep();
        sb.append(String.format(Locale.ROOT, "sweep: %s, %s loop, %d points of %s s%s%n", sweep.path(),
            field(j.path("loop").asText(j.path("mode").asText("?"))), j.path("points").size(),
            load(j.path("point_duration_s")), j.path("slo").isTextual() ? ", SLO " +
            field(j.get("slo").asText()) : ""));
        final boolean streamed = sweepStreamed(j);
        sb.append(streamed ? String.format(Locale.ROOT, SWEEP_ROW, "offered", "req/s", "ttft p50", "ttft p99",
            "tpot p50", "tpot p99", "out tok/s", "goodput", "errors", "cancel") : String.format(Locale.ROOT,
            WHOLE_SWEEP_ROW, "offered", "req/s", "e2e p50", "e2e p99", "inputs/s", "in tok/s", "goodput", "errors",
            "cancel"));
        for (final JsonNode p : j.path("points"))
        {
            sb.append(streamed ? String.format(Locale.ROOT, SWEEP_ROW, load(p.path("offered")),
                fixed(p, "achieved_rps", 2), fixed(p, "ttft_p50_ms", 1), fixed(p, "ttft_p99_ms", 1),
                fixed(p, "tpot_p50_ms", 2), fixed(p, "tpot_p99_ms", 2), fixed(p, "output_tokens_per_s", 1),
                fixed(p, "goodput_rps", 2), p.path("errors").asText("-"), p.path("cancelled").asText("-")) :
                String.format(Locale.ROOT, WHOLE_SWEEP_ROW, load(p.path("offered")), fixed(p, "achieved_rps", 2),
                fixed(p, "e2e_p50_ms", 1), fixed(p, "e2e_p99_ms", 1), fixed(p, "inputs_per_s", 1),
                fixed(p, "input_tokens_per_s", 1), fixed(p, "goodput_rps", 2), p.path("errors").asText("-"),
                p.path("cancelled").asText("-")));
        }
        final JsonNode k = j.path("knee");
        sb.append("knee (").append(streamed ? "TTFT" : "e2e").append(" p99 factor): ")
            .append(k.path("latency_factor").path("offered").isNumber() ?
            load(k.path("latency_factor").path("offered")) : "not reached").append('\n');
        sb.append("knee (two-segment fit): ").append(k.path("throughput_fit").path("offered").isNumber() ?
            load(k.path("throughput_fit").path("offered")) + (k.path("throughput_fit").path("saturated")
            .asBoolean(true) ? "" : " (not saturated: no knee)") : "none").append('\n');
        k.path("warnings").forEach(w -> sb.append("warning: ").append(field(w.asText())).append('\n'));
        if (k.path("advice").isTextual())
        {
            sb.append("which knee: ").append(field(k.get("advice").asText())).append('\n');
        }
        sb.append("max goodput: ").append(j.path("max_goodput").isObject() ? String.format(Locale.ROOT,
            "%.2f req/s at %s", j.get("max_goodput").path("goodput_rps").asDouble(),
            load(j.get("max_goodput").path("offered"))) : "none").append('\n');
        sb.append("max rate meeting the SLO: ").append(j.path("max_rate_meeting_slo").isNumber() ?
            load(j.get("max_rate_meeting_slo")) + " req/s" : "none").append('\n');
        return sb.toString();
    }

    /** @return a load as the sweep names it: 4 significant digits, no trailing zeros (2.5646... is 2.565). */
    static String load(final JsonNode n)
    {
        if (!n.isNumber())
        {
            return field(n.asText("-"));
        }
        final String s = String.format(Locale.ROOT, "%.4g", n.asDouble());
        return s.contains("e") || !s.contains(".") ? s : s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /** A peer's figures as it computed them, beside tokenclock's recomputation from its per-request data. */
    private static String imported(final Imported imported)
    {
        final StringBuilder sb = new StringBuilder();
        for (final PeerRun run : imported.peers())
        {
            sb.append(String.format(Locale.ROOT, "imported: %s (%s)%n", imported.path(), field(run.shape())));
            sb.append(String.format(Locale.ROOT, "%-22s %12s %12s %12s %12s  %s%n", "metric (ms)", "peer p50",
                "peer p99", "tokenclock p50", "tokenclock p99", "peer's definition"));
            for (final Map.Entry<String, Dist> e : run.reported().entrySet())
            {
                final Dist ours = run.record() == null || run.record().report() == null ? null :
                    run.record().report().distributions().get(e.getKey());
                sb.append(String.format(Locale.ROOT, "%-22s %12s %12s %12s %12s  %s%n", field(e.getKey()),
                    number(e.getValue().figure("p50")), number(e.getValue().figure("p99")),
                    ours == null ? "-" : number(ours.figure("p50")), ours == null ? "-" : number(ours.figure("p99")),
                    field(run.definitions().getOrDefault(e.getKey(), "as tokenclock"))));
            }
            // a note quotes the file (AIPerf's start_time): one line each
            run.notes().forEach(n -> sb.append("  note: ").append(field(n)).append('\n'));
        }
        return sb.toString();
    }

    /** @return a string field of a file, kept to its line. */
    private static String field(final String s)
    {
        return UntrustedText.escaped(s, Integer.MAX_VALUE);
    }

    private static String interval(final JsonNode ci)
    {
        return !ci.isArray() || !ci.path(0).isNumber() || !ci.path(1).isNumber() ? "-" : String.format(Locale.ROOT,
            "[%.3f, %.3f]", ci.path(0).asDouble(), ci.path(1).asDouble());
    }

    private static String fixed(final JsonNode n, final String key, final int digits)
    {
        return n.path(key).isNumber() ? String.format(Locale.ROOT, "%." + digits + "f", n.get(key).asDouble()) : "-";
    }

    private static String number(final double v)
    {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String number(final Double v)
    {
        return v == null ? "-" : number(v.doubleValue());
    }
}
