package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.record.Dist;
import io.tokenclock.record.PooledRecord;
import io.tokenclock.report.AbReport;

/** Repetitions (each figure's dispersion with its interval) and A/B comparisons (each difference and verdict). */
final class SpreadSection
{
    private SpreadSection()
    {
    }

    /**
     * pooled.json's figures (every pooled request as one sample), then repetitions.json: a table of every figure,
     * and one chart per figure of its values with the interval.
     */
    static void repetitions(final Page page, final JsonNode r, final PooledRecord pooled)
    {
        page.h2("Repetitions pooled");
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
        pooled.notPooled().forEach(n -> page.p("Not pooled: " + n));
        page.h2("Repetitions");
        page.p(r.path("repetitions").asText("?") + " repetitions. Interval: " + r.path("ci").asText("-") +
            ". Outliers: " + r.path("outlier_rule").asText("-") + ".");
        final List<List<String>> rows = new ArrayList<>();
        final Iterator<Map.Entry<String, JsonNode>> it = r.path("figures").properties().iterator();
        while (it.hasNext())
        {
            final Map.Entry<String, JsonNode> e = it.next();
            final JsonNode f = e.getValue();
            rows.add(List.of(e.getKey(), Html.value(f.path("values")), Html.num(f.path("mean")),
                Html.num(f.path("stdev")), Html.num(f.path("cv")), Html.interval(f.path("ci95")),
                Html.value(f.path("excluded_repetitions"))));
            dispersion(page, e.getKey(), f);
        }
        page.raw(Html.table(List.of("figure", "values", "mean", "stdev", "cv", "95% interval of the mean",
            "excluded"), rows));
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
        page.chart(Chart.of(page.id(name), name, "repetition", name).points().x(x).series(name, y)
            .series("mean", mean).series("95% low", low).series("95% high", high),
            name + " in each repetition, with the mean and its 95% interval");
    }

    /** ab.json: each difference B - A with its interval and verdict, as a table and as a chart. */
    static void ab(final Page page, final JsonNode ab)
    {
        page.h2("A/B comparison");
        page.p("A: " + Html.value(ab.path("variants").path("A")) + "; B: " + Html.value(ab.path("variants")
            .path("B")) + "; run order " + Html.value(ab.path("order")) + ". Interval: " + ab.path("ci")
            .asText("-") + ".");
        final List<List<String>> rows = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        final List<Double> rel = new ArrayList<>();
        final List<Double> low = new ArrayList<>();
        final List<Double> high = new ArrayList<>();
        final Iterator<Map.Entry<String, JsonNode>> it = ab.path("figures").properties().iterator();
        while (it.hasNext())
        {
            final Map.Entry<String, JsonNode> e = it.next();
            final JsonNode f = e.getValue();
            final boolean differs = f.path("exceeds_noise").asBoolean(false);
            rows.add(List.of(e.getKey(), Html.num(f.path("mean_a")), Html.num(f.path("mean_b")),
                Html.num(f.path("difference")), Html.interval(f.path("ci95")), percent(f.path("relative")),
                !f.path("exceeds_noise").isBoolean() ? AbReport.NO_VERDICT : differs ? "differs" : "within noise"));
            final double meanA = f.path("mean_a").asDouble(Double.NaN);
            names.add(e.getKey());
            rel.add(100 * f.path("relative").asDouble(Double.NaN));
            low.add(100 * f.path("ci95").path(0).asDouble(Double.NaN) / meanA);
            high.add(100 * f.path("ci95").path(1).asDouble(Double.NaN) / meanA);
        }
        page.raw(Html.table(List.of("figure", "mean A", "mean B", "B - A", "95% interval", "relative", "verdict"),
            rows));
        final double[] x = new double[names.size()];
        for (int i = 0; i < x.length; i++)
        {
            x[i] = i + 1;
        }
        page.chart(Chart.of(page.id("ab"), "B - A relative to A, with the 95% interval", "figure (numbered as in " +
            "the table)", "% of A").points().x(x).series("B - A", rel).series("95% low", low)
            .series("95% high", high), "Each figure's difference in % of A (1 = the table's first row); a figure " +
            "differs when its interval excludes 0: " + String.join(", ", names));
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
