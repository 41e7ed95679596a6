package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.report.ResultTables;

/**
 * A sweep: offered against achieved rate, goodput, TTFT p99, TPOT p99, errors and energy per token against the
 * offered load, both knees and the SLO-limited rate marked, and one sentence on which knee to trust. A sweep of an API
 * that answers whole (embeddings, rerank: {@code api} in sweep.json) has no TTFT, TPOT or output tokens: its latency
 * is the e2e p50 and p99, its throughput inputs/s, and it has no Pareto plot.
 */
final class SweepSection
{
    private static final List<String[]> FIGURES = List.of(
        new String[] {"goodput_rps", "Goodput", "req/s"},
        new String[] {"errors", "Errors", "requests"},
        // last: per output token, so absent for an answer read whole (render draws the others only)
        new String[] {"energy_j_per_token", "Energy per output token", "J/token"});

    private SweepSection()
    {
    }

    /**
     * The answer first (cards: capacity, the latency knee, the maximum goodput, the highest rate meeting the SLO;
     * one sentence on which knee to trust; the warnings), then the offered-vs-achieved curve, the latency curves with
     * both knees, the Pareto plot, the other figures against load, and the table.
     */
    static void render(final Page page, final JsonNode s)
    {
        page.h2("Saturation sweep");
        final JsonNode knee = s.path("knee");
        final String unit = s.path("offered_unit").asText("req/s");
        final boolean streamed = ResultTables.sweepStreamed(s);
        page.cards(List.of(
            new Page.Card("capacity (throughput knee)", knee.path("throughput_fit").path("saturated").asBoolean(false) ?
                Html.headline(knee.path("throughput_fit").path("offered")) + " " + unit : "not reached",
                "where the achieved rate stopped following the load"),
            new Page.Card("latency knee", knee.path("latency_factor").path("offered").isNumber() ?
                Html.headline(knee.path("latency_factor").path("offered")) + " " + unit : "not reached",
                (streamed ? "TTFT" : "e2e") + " p99 > " + Html.num(knee.path("latency_factor").path("factor")) +
                " x its low-load value"),
            new Page.Card("max goodput", s.path("max_goodput").isObject() ? Html.headline(s.path("max_goodput")
                .path("goodput_rps")) + " req/s" : "-", s.path("max_goodput").isObject() ? "at " +
                Html.headline(s.path("max_goodput").path("offered")) + " " + unit : "no point"),
            new Page.Card("max rate meeting the SLO", s.path("max_rate_meeting_slo").isNumber() ?
                Html.headline(s.path("max_rate_meeting_slo")) + " req/s" : "not searched", s.path("slo").isTextual() ?
                s.path("slo").asText() : "no SLO given"),
            new Page.Card("points", Integer.toString(s.path("points").size()), Html.num(s.path("point_duration_s")) +
                " s each")));
        page.answer(s.path("knee").path("advice").isTextual() ? s.path("knee").path("advice").asText() : knees(s));
        for (final JsonNode w : knee.path("warnings"))
        {
            page.warning(w.asText());
        }
        final List<JsonNode> points = new ArrayList<>();
        s.path("points").forEach(points::add);
        final double[] x = points.stream().mapToDouble(p -> p.path("offered").asDouble()).toArray();
        final Chart rate = marks(Chart.of(page.id("achieved"), "Offered and achieved rate", "offered (" + unit + ")",
            "req/s").points().x(x), s).series("achieved", column(points, "achieved_rps"));
        if (s.path("loop").asText("rate").equals("rate"))
        {
            rate.series("offered (y = x)", points.stream().map(p -> p.path("offered").asDouble()).toList());
        }
        page.chart(rate, "Achieved: " + s.path("achieved_definition").asText("requests that ended ok per second") +
            "; against the offered load, with both knees and the SLO-limited rate marked");
        if (streamed)
        {
            latency(page, s, points, x, unit);
            pareto(page, points, unit);
        }
        else
        {
            wholeLatency(page, s, points, x, unit);
        }
        for (final String[] f : streamed ? FIGURES : FIGURES.subList(0, 2))
        {
            page.chart(marks(Chart.of(page.id(f[0]), f[1] + " against load", "offered (" + unit + ")", f[2])
                .points().x(x), s).series(f[1], column(points, f[0])), f[1] + " (" + f[2] + ") at each point");
        }
        page.raw(streamed ? table(points) : wholeTable(points));
    }

    /** An answer read whole: the e2e p50 and p99 against the load (the latency knee is on the p99), and inputs/s. */
    private static void wholeLatency(final Page page, final JsonNode s, final List<JsonNode> points, final double[] x,
        final String unit)
    {
        page.chart(marks(Chart.of(page.id("e2e-load"), "End-to-end latency against load", "offered (" + unit + ")",
            "ms").points().x(x), s).series("e2e p50", column(points, "e2e_p50_ms"))
            .series("e2e p99", column(points, "e2e_p99_ms")), "e2e p50 and p99 (ms) at each point (the API answers " +
            "whole: no TTFT or TPOT); the latency knee is where the p99 passed its factor times the lowest load's");
        page.chart(marks(Chart.of(page.id("inputs-load"), "Inputs per second against load", "offered (" + unit +
            ")", "inputs/s").points().x(x), s).series("inputs/s", column(points, "inputs_per_s")), "Inputs (texts " +
            "embedded, documents ranked) of the requests that ended ok in each point's window, per second");
    }

    private static String wholeTable(final List<JsonNode> points)
    {
        final List<List<String>> rows = new ArrayList<>();
        for (final JsonNode p : points)
        {
            rows.add(List.of(Html.num(p.path("offered")), Html.num(p.path("achieved_rps")),
                Html.num(p.path("goodput_rps")), Html.num(p.path("e2e_p50_ms")), Html.num(p.path("e2e_p99_ms")),
                Html.num(p.path("inputs_per_s")), Html.num(p.path("input_tokens_per_s")), Html.value(p.path("ok")),
                Html.value(p.path("errors")), p.path("short_window").asBoolean(false) ? "short" : "",
                Html.value(p.path("run_dir"))));
        }
        return Html.table(List.of("offered", "achieved req/s", "goodput req/s", "e2e p50", "e2e p99", "inputs/s",
            "input tok/s", "ok", "errors", "window", "run"), rows);
    }

    /** TTFT and TPOT, p50 and p99, against the load, both knees marked. */
    private static void latency(final Page page, final JsonNode s, final List<JsonNode> points, final double[] x,
        final String unit)
    {
        page.chart(marks(Chart.of(page.id("ttft-load"), "TTFT against load", "offered (" + unit + ")", "ms")
            .points().x(x), s).series("TTFT p50", column(points, "ttft_p50_ms"))
            .series("TTFT p99", column(points, "ttft_p99_ms")), "TTFT p50 and p99 (ms) at each point; the latency " +
            "knee is where the p99 passed its factor times the lowest load's");
        page.chart(marks(Chart.of(page.id("tpot-load"), "TPOT against load", "offered (" + unit + ")", "ms")
            .points().x(x), s).series("TPOT p50", column(points, "tpot_p50_ms"))
            .series("TPOT p99", column(points, "tpot_p99_ms")), "TPOT p50 and p99 (ms) at each point");
    }

    /**
     * The Pareto plot of vLLM's {@code sweep plot_pareto} and InferenceX: output tokens/s of the server against
     * output tokens/s of one user (the median request's decode rate), one point per load, the frontier (the points no
     * other beats on both) joined.
     */
    private static void pareto(final Page page, final List<JsonNode> points, final String unit)
    {
        final List<JsonNode> drawn = new ArrayList<>(points.stream().filter(p -> p.path("output_tps_per_user")
            .isNumber() && p.path("output_tokens_per_s").isNumber()).toList());
        if (drawn.isEmpty())
        {
            page.p("Pareto plot: the points have no per-user rate (sweep.json written before output_tps_per_user).");
            return;
        }
        drawn.sort(java.util.Comparator.comparingDouble(p -> p.path("output_tps_per_user").asDouble()));
        final double[] x = drawn.stream().mapToDouble(p -> p.path("output_tps_per_user").asDouble()).toArray();
        final List<Double> all = column(drawn, "output_tokens_per_s");
        final List<Double> frontier = new ArrayList<>();
        double best = Double.NEGATIVE_INFINITY;
        for (int i = drawn.size() - 1; i >= 0; i--)
        {
            final double y = all.get(i);
            frontier.add(0, y > best ? y : null);
            best = Math.max(best, y);
        }
        page.chart(Chart.of(page.id("pareto"), "Pareto: throughput against per-user speed", "output tokens/s per " +
            "user (median request)", "output tokens/s").x(x).scatter("each point", all)
            .series("frontier", frontier), "Each point's output tokens/s against its median request's decode rate; " +
            "the frontier joins the points no other beats on both. Offered loads, left to right: " + String.join(", ",
            drawn.stream().map(p -> Html.num(p.path("offered")) + " " + unit).toList()));
    }

    static List<Double> column(final List<JsonNode> points, final String field)
    {
        return points.stream().map(p -> p.path(field).isNumber() ? p.path(field).asDouble() : null).toList();
    }

    static Chart marks(final Chart c, final JsonNode s)
    {
        if ("concurrency".equals(s.path("loop").asText()))
        {
            c.xInt(); // a closed loop's loads are whole numbers of requests in flight
        }
        final JsonNode knee = s.path("knee");
        // The fit's breakpoint is a knee only when the fit saw saturation: otherwise it marks nothing (issue 38).
        return c.mark(number(knee.path("latency_factor").path("offered")), "latency knee")
            .mark(knee.path("throughput_fit").path("saturated").asBoolean(false) ?
                number(knee.path("throughput_fit").path("offered")) : null, "throughput knee")
            .mark(number(s.path("max_rate_meeting_slo")), "SLO-limited rate");
    }

    private static Double number(final JsonNode n)
    {
        return n.isNumber() ? n.asDouble() : null;
    }

    /** @return one plain sentence: which knee to trust, and why. */
    static String knees(final JsonNode s)
    {
        if (s.path("points").isEmpty())
        {
            return "No point was measured, so there is no knee to trust.";
        }
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
                Html.num(p.path("tpot_p50_ms")), Html.num(p.path("tpot_p99_ms")),
                Html.num(p.path("output_tokens_per_s")),
                Html.num(p.path("output_tps_per_user")), Html.value(p.path("ok")), Html.value(p.path("errors")),
                Html.num(p.path("energy_j_per_token")), p.path("short_window").asBoolean(false) ? "short" : "",
                Html.value(p.path("run_dir"))));
        }
        return Html.table(List.of("offered", "achieved req/s", "goodput req/s", "TTFT p50", "TTFT p99", "TPOT p50",
            "TPOT p99", "output tok/s", "tok/s per user", "ok", "errors", "J/token", "window", "run"), rows);
    }
}
