package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A sweep: offered against achieved rate, goodput, TTFT p99, TPOT p99, errors and energy per token against the
 * offered load, both knees and the SLO-limited rate marked, and one sentence on which knee to trust.
 */
final class SweepSection
{
    private static final List<String[]> FIGURES = List.of(
        new String[] {"goodput_rps", "Goodput", "req/s"},
        new String[] {"ttft_p99_ms", "TTFT p99", "ms"},
        new String[] {"tpot_p99_ms", "TPOT p99", "ms"},
        new String[] {"errors", "Errors", "requests"},
        new String[] {"energy_j_per_token", "Energy per output token", "J/token"});

    private SweepSection()
    {
    }

    static void render(final Page page, final JsonNode s)
    {
        page.h2("Saturation sweep");
        page.p(knees(s));
        final List<JsonNode> points = new ArrayList<>();
        s.path("points").forEach(points::add);
        final String unit = s.path("offered_unit").asText("req/s");
        final double[] x = points.stream().mapToDouble(p -> p.path("offered").asDouble()).toArray();
        final Chart rate = marks(Chart.of(page.id("achieved"), "Offered and achieved rate", "offered (" + unit + ")",
            "req/s").points().x(x), s).series("achieved", column(points, "achieved_rps"));
        if (s.path("loop").asText("rate").equals("rate"))
        {
            rate.series("offered (y = x)", points.stream().map(p -> p.path("offered").asDouble()).toList());
        }
        page.chart(rate, "Requests that ended ok per second against the offered load; the knees and the " +
            "SLO-limited rate are marked");
        for (final String[] f : FIGURES)
        {
            page.chart(marks(Chart.of(page.id(f[0]), f[1] + " against load", "offered (" + unit + ")", f[2])
                .points().x(x), s).series(f[1], column(points, f[0])), f[1] + " (" + f[2] + ") at each point");
        }
        page.raw(table(points));
    }

    static List<Double> column(final List<JsonNode> points, final String field)
    {
        return points.stream().map(p -> p.path(field).isNumber() ? p.path(field).asDouble() : null).toList();
    }

    static Chart marks(final Chart c, final JsonNode s)
    {
        final JsonNode knee = s.path("knee");
        return c.mark(number(knee.path("latency_factor").path("offered")), "latency knee")
            .mark(number(knee.path("throughput_fit").path("offered")), "throughput knee")
            .mark(number(s.path("max_rate_meeting_slo")), "SLO-limited rate");
    }

    private static Double number(final JsonNode n)
    {
        return n.isNumber() ? n.asDouble() : null;
    }

    /** @return one plain sentence: which knee to trust, and why. */
    static String knees(final JsonNode s)
    {
        final JsonNode latency = s.path("knee").path("latency_factor");
        final JsonNode fit = s.path("knee").path("throughput_fit");
        final boolean saturated = fit.path("saturated").asBoolean(false) && fit.path("offered").isNumber();
        final String slo = s.path("max_rate_meeting_slo").isNumber() ? String.format(Locale.ROOT,
            " The highest rate confirmed to meet the SLO is %s req/s.", Html.num(s.path("max_rate_meeting_slo"))) : "";
        if (saturated)
        {
            return String.format(Locale.ROOT, "Trust the throughput knee at %s: there the achieved rate stopped " +
                "following the offered load (slope %s above it against %s below), which does not depend on a " +
                "chosen factor; the latency knee%s only says where TTFT p99 passed %s times its low-load value.",
                Html.num(fit.path("offered")), Html.num(fit.path("slope_above")), Html.num(fit.path("slope_below")),
                latency.path("offered").isNumber() ? " at " + Html.num(latency.path("offered")) : " (none)",
                Html.num(latency.path("factor"))) + slo;
        }
        if (latency.path("offered").isNumber())
        {
            return String.format(Locale.ROOT, "Trust the latency knee at %s: the throughput never stopped " +
                "following the load in this sweep, so the two-segment fit's breakpoint is no knee; past %s the TTFT " +
                "p99 exceeds %s times its value at the lowest load.", Html.num(latency.path("offered")),
                Html.num(latency.path("offered")), Html.num(latency.path("factor"))) + slo;
        }
        return "No knee: neither did the TTFT p99 rise past its factor nor did the throughput stop following the " +
            "load; the sweep did not reach saturation (raise the highest load)." + slo;
    }

    private static String table(final List<JsonNode> points)
    {
        final List<List<String>> rows = new ArrayList<>();
        for (final JsonNode p : points)
        {
            rows.add(List.of(Html.num(p.path("offered")), Html.num(p.path("achieved_rps")),
                Html.num(p.path("goodput_rps")), Html.num(p.path("ttft_p50_ms")), Html.num(p.path("ttft_p99_ms")),
                Html.num(p.path("tpot_p99_ms")), Html.num(p.path("output_tokens_per_s")), Html.value(p.path("ok")),
                Html.value(p.path("errors")), Html.num(p.path("energy_j_per_token")), Html.value(p.path("run_dir"))));
        }
        return Html.table(List.of("offered", "achieved req/s", "goodput req/s", "TTFT p50", "TTFT p99", "TPOT p99",
            "output tok/s", "ok", "errors", "J/token", "run"), rows);
    }
}
