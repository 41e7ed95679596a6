package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.PooledRecord;
import io.tokenclock.report.AbReport;
import io.tokenclock.report.Repetitions;
import io.tokenclock.report.ResultTables;

/** Repetitions (each figure's dispersion with its interval) and A/B comparisons (each difference and verdict). */
final class SpreadSection
{
    private SpreadSection()
    {
    }

    /**
     * The answer first (cards: each headline figure's mean over the repetitions with what its interval can say, the
     * pooled TTFT and TPOT, the errors; one sentence), then pooled.json's figures (every pooled request as one
     * sample), then repetitions.json: a table of every figure, and one chart per figure of its values.
     */
    static void repetitions(final Page page, final JsonNode r, final PooledRecord pooled)
    {
        final JsonNode figures = r.path("figures");
        final int n = figures.path("requests_per_s").path("values").size();
        final Dist ttft = pooled.distributions().get("ttft");
        final Dist tpot = pooled.distributions().get("tpot");
        page.h2("Repetitions");
        page.cards(List.of(spreadCard("requests/s", figures.path("requests_per_s")),
            spreadCard("output tok/s", figures.path("output_tokens_per_s")),
            pooledCard("TTFT p50 (pooled)", ttft, "p50"), pooledCard("TTFT p99 (pooled)", ttft, "p99"),
            pooledCard("TPOT p50 (pooled)", tpot, "p50"), pooledCard("TPOT p99 (pooled)", tpot, "p99"),
            spreadCard("errors per repetition", figures.path("errors"))));
        page.answer(repetitionsSentence(figures, n));
        page.h3("Pooled: every request of every repetition as one sample");
        page.p("Pooled: " + pooled.pooledRepetitions().size() + " of " + pooled.repetitions() + " repetitions (" +
            "partial, left out: " + (pooled.partialRepetitions().isEmpty() ? "none" : pooled.partialRepetitions()) +
            "); " + pooled.pooled() + ".");
        final List<List<String>> pooledRows = new ArrayList<>();
        for (final Map.Entry<String, Dist> e : pooled.distributions().entrySet())
        {
            final Dist d = e.getValue();
            if (d.count() > 0)
            {
                pooledRows.add(List.of(e.getKey(), d.unit(), Long.toString(d.count()), Html.num(d.figure("p50")),
                    Html.num(d.figure("p90")), Html.num(d.figure("p99")), Html.num(d.figure("p99_9")),
                    Html.num(d.figure("max")), interval(d.p99Ci95())));
            }
        }
        page.raw(Html.table(List.of("metric", "unit", "n", "p50", "p90", "p99", "p99.9", "max", "p99 95% interval"),
            pooledRows));
        pooled.notPooled().forEach(x -> page.p("Not pooled: " + x));
        page.h3("Run to run: each figure over the repetitions");
        page.p(r.path("repetitions").asText("?") + " repetitions. Intervals of the mean: " + r.path("ci").asText("-") +
            ", and Student's t beside it. Below about " + AbReport.RUNS_NEAR_NOMINAL + " repetitions the " +
            "bootstrap covers less than it says: the column beside it says how much (range: with 2 or 3 it is " +
            "exactly [min, max]). Outliers: " + r.path("outlier_rule").asText("-") + ".");
        final List<List<String>> rows = new ArrayList<>();
        final Iterator<Map.Entry<String, JsonNode>> it = figures.properties().iterator();
        while (it.hasNext())
        {
            final Map.Entry<String, JsonNode> e = it.next();
            final JsonNode f = e.getValue();
            rows.add(List.of(e.getKey(), values(f.path("values")), Html.num(f.path("mean")),
                Html.num(f.path("stdev")), Html.num(f.path("cv")), Html.interval(f.path("ci95")), caveat(f),
                Html.interval(f.path("ci95_t")), Html.value(f.path("excluded_repetitions"))));
        }
        page.raw(Html.table(List.of("figure", "values", "mean", "stdev", "cv", "bootstrap 95% of the mean",
            "what it covers", "Student's t 95%", "excluded"), rows));
        final Iterator<Map.Entry<String, JsonNode>> charts = figures.properties().iterator();
        while (charts.hasNext())
        {
            final Map.Entry<String, JsonNode> e = charts.next();
            dispersion(page, e.getKey(), e.getValue());
        }
    }

    /** @return the values, each to about 4 significant digits: 100.5742553631737 is 100.6. */
    private static String values(final JsonNode values)
    {
        final List<String> each = new ArrayList<>();
        values.forEach(v -> each.add(Html.headline(v)));
        return String.join(", ", each);
    }

    /** @return what a figure's bootstrap interval may be said to show: the file's own words, else from n. */
    private static String caveat(final JsonNode f)
    {
        if (f.path("ci95_caveat").isTextual())
        {
            return f.path("ci95_caveat").asText().isEmpty() ? "about 91%" : f.path("ci95_caveat").asText();
        }
        final int kept = f.path("values").size() - f.path("excluded_repetitions").size();
        return kept < 2 ? "-" : Repetitions.caveat(kept);
    }

    private static Page.Card spreadCard(final String title, final JsonNode f)
    {
        if (!f.isObject())
        {
            return new Page.Card(title, "-", "not measured");
        }
        final String ci = Html.interval(f.path("ci95"));
        return new Page.Card(title, Html.headline(f.path("mean")), "mean; " + ("-".equals(ci) ? "no interval" : "[" +
            Html.headline(f.path("ci95").path(0)) + ", " + Html.headline(f.path("ci95").path(1)) + "] " + caveat(f)));
    }

    private static Page.Card pooledCard(final String title, final Dist d, final String figure)
    {
        if (d == null || d.count() == 0)
        {
            return new Page.Card(title, "-", "no samples");
        }
        return new Page.Card(title, Html.headline(d.figure(figure)) + " ms", "p99".equals(figure) ? "95% " +
            interval(d.p99Ci95()) + ", n = " + d.count() : "n = " + d.count());
    }

    /** @return one sentence: the throughput over the repetitions, how much it varied, and what n allows. */
    static String repetitionsSentence(final JsonNode figures, final int n)
    {
        final JsonNode rps = figures.path("requests_per_s");
        final JsonNode ttft = figures.path("ttft_p99_ms");
        final StringBuilder sb = new StringBuilder(String.format(java.util.Locale.ROOT, "Over %d repetitions the " +
            "server completed %s req/s on average (run to run: cv %s%%)", n, Html.headline(rps.path("mean")),
            Html.headline(100 * rps.path("cv").asDouble(Double.NaN))));
        if (ttft.isObject())
        {
            sb.append(" and the TTFT p99 averaged ").append(Html.headline(ttft.path("mean"))).append(" ms (cv ")
                .append(Html.headline(100 * ttft.path("cv").asDouble(Double.NaN))).append("%)");
        }
        if (n < 2)
        {
            return sb.append("; one repetition has no interval.").toString();
        }
        final String caveat = Repetitions.caveat(n);
        return sb.append("range".equals(caveat) ? "; with " + n + " repetitions every interval is just the range of " +
            "the values: n is too small to tell more." : caveat.isEmpty() ? "." : "; with " + n + " repetitions " +
            "the bootstrap interval " + caveat + " of the time: quote the t interval.").toString();
    }

    private static void dispersion(final Page page, final String name, final JsonNode f)
    {
        final JsonNode values = f.path("values");
        final double[] x = new double[values.size()];
        final List<Double> y = new ArrayList<>();
        final List<Double> mean = new ArrayList<>();
        final List<Double> low = new ArrayList<>();
        final List<Double> high = new ArrayList<>();
        for (int i = 0; i < x.length; i++)
        {
            x[i] = i + 1;
            y.add(values.get(i).isNumber() ? values.get(i).asDouble() : null);
            mean.add(f.path("mean").asDouble());
            low.add(f.path("ci95").path(0).isNumber() ? f.path("ci95").path(0).asDouble() : null);
            high.add(f.path("ci95").path(1).isNumber() ? f.path("ci95").path(1).asDouble() : null);
        }
        page.chart(Chart.of(page.id(name), name, "repetition", name).points().xInt().x(x).series(name, y)
            .series("mean", mean).series("bootstrap 95% low", low).series("bootstrap 95% high", high),
            name + " in each repetition, with the mean and its bootstrap 95% interval (see the table for what it " +
                "covers at this n)");
    }

    /**
     * ab.json: the answer first (how many figures differ, cards of the headline differences, one sentence), then a
     * forest plot of every difference with both intervals and the verdict coloured, then the table.
     */
    static void ab(final Page page, final JsonNode ab)
    {
        final List<Forest.Row> rows = new ArrayList<>();
        final List<List<String>> table = new ArrayList<>();
        final Map<String, List<String>> byVerdict = new java.util.LinkedHashMap<>();
        final Iterator<Map.Entry<String, JsonNode>> it = ab.path("figures").properties().iterator();
        while (it.hasNext())
        {
            final Map.Entry<String, JsonNode> e = it.next();
            final JsonNode f = e.getValue();
            final String verdict = ResultTables.verdict(f);
            byVerdict.computeIfAbsent(verdict, k -> new ArrayList<>()).add(e.getKey());
            final double meanA = f.path("mean_a").asDouble(Double.NaN);
            final double scale = meanA != 0 ? 100 / meanA : Double.NaN;
            rows.add(new Forest.Row(e.getKey(), 100 * f.path("relative").asDouble(Double.NaN),
                scale * f.path("ci95").path(0).asDouble(Double.NaN),
                scale * f.path("ci95").path(1).asDouble(Double.NaN),
                scale * f.path("ci95_t").path(0).asDouble(Double.NaN),
                scale * f.path("ci95_t").path(1).asDouble(Double.NaN), verdict));
            table.add(List.of(e.getKey(), Html.num(f.path("mean_a")), Html.num(f.path("mean_b")),
                Html.num(f.path("difference")), percent(f.path("relative")), Html.interval(f.path("ci95")),
                Html.interval(f.path("ci95_t")), verdict));
        }
        final int n = Math.min(ab.path("figures").properties().stream().findFirst().map(e -> e.getValue().path("a")
            .size()).orElse(0), ab.path("figures").properties().stream().findFirst().map(e -> e.getValue().path("b")
            .size()).orElse(0));
        page.h2("A/B comparison");
        page.cards(List.of(new Page.Card("differ", count(byVerdict, "differs"), "both intervals exclude 0"),
            new Page.Card("n too small to tell", count(byVerdict, "n too small to tell"), "the bootstrap alone " +
                "would say differs"), new Page.Card("within noise", count(byVerdict, "within noise"),
                "the bootstrap holds 0"), new Page.Card("runs a side", Integer.toString(n), n < 2 ? "no interval" :
                "bootstrap covers ~" + AbReport.coveragePercent(n) + "% here")));
        page.answer(abSentence(byVerdict, n));
        page.p("A: " + Html.value(ab.path("variants").path("A")) + "; B: " + Html.value(ab.path("variants")
            .path("B")) + "; run order " + Html.value(ab.path("order")) + ". Intervals: " + ab.path("ci")
            .asText("-") + "; " + ab.path("ci_t").asText("Welch's t: not in this file") + ". Rule: " +
            ab.path("verdict_rule").asText("differs when the bootstrap interval excludes 0 (written before the t " +
                "check)") + ".");
        page.svg(Forest.svg(rows), "Each figure's difference B - A in % of A's mean, with its two 95% intervals; " +
            "the verdict's colour: red differs, amber n too small to tell, grey within noise");
        page.raw(verdictTable(List.of("figure", "mean A", "mean B", "B - A", "relative", "bootstrap 95%",
            "Welch t 95%", "verdict"), table));
    }

    private static String count(final Map<String, List<String>> byVerdict, final String verdict)
    {
        return Integer.toString(byVerdict.getOrDefault(verdict, List.of()).size());
    }

    /** @return one sentence: which figures differ, which moved but n is too small to tell, how many are noise. */
    static String abSentence(final Map<String, List<String>> byVerdict, final int n)
    {
        final List<String> differ = byVerdict.getOrDefault("differs", List.of());
        final List<String> tooFew = byVerdict.getOrDefault("n too small to tell", List.of());
        final StringBuilder sb = new StringBuilder(differ.isEmpty() ? "B does not differ from A in any figure" :
            "B differs from A in " + String.join(", ", differ));
        if (!tooFew.isEmpty())
        {
            sb.append("; ").append(String.join(", ", tooFew)).append(tooFew.size() == 1 ? " moved" : " moved")
                .append(", but ").append(n).append(" run").append(n == 1 ? "" : "s")
                .append(" a side are too few to tell (Welch's t interval holds 0)");
        }
        return sb.append(n > 0 && n < AbReport.RUNS_NEAR_NOMINAL ? "; with " + n +
            " runs a side the bootstrap's 95% covers about " +
            AbReport.coveragePercent(n) + "%." : ".").toString();
    }

    /** @return a table whose last cell (the verdict) carries its colour class. */
    private static String verdictTable(final List<String> head, final List<List<String>> rows)
    {
        final StringBuilder sb = new StringBuilder("<table><thead><tr>");
        head.forEach(h -> sb.append("<th>").append(Html.text(h)).append("</th>"));
        sb.append("</tr></thead><tbody>\n");
        for (final List<String> row : rows)
        {
            sb.append("<tr>");
            for (int i = 0; i < row.size(); i++)
            {
                sb.append(i == row.size() - 1 ? "<td class=\"" + Forest.verdictClass(row.get(i)) + "\">" : "<td>")
                    .append(Html.text(row.get(i))).append("</td>");
            }
            sb.append("</tr>\n");
        }
        return sb.append("</tbody></table>\n").toString();
    }

    /** @return a record interval [low, high], "none" for a side the samples cannot bound. */
    private static String interval(final List<Double> ci)
    {
        return ci == null ? "-" : "[" + (ci.get(0) == null ? "none" : Html.num(ci.get(0))) + ", " +
            (ci.get(1) == null ? "none" : Html.num(ci.get(1))) + "]";
    }

    private static String percent(final JsonNode n)
    {
        return n.isNumber() ? Html.num(100 * n.asDouble()) + "%" : "-";
    }
}
