package io.tokenclock.report.html;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.report.ClientShaping;
import io.tokenclock.report.QuantileBounds;

/**
 * What a run's report leads with: the cards people compare (requests/s, output tokens/s, TTFT and TPOT p50 and p99
 * with their 95% intervals, goodput against the SLO, errors by class), one sentence that says what the run shows,
 * its warnings, and its grade in one line with a link to what is missing. The same for a tokenclock run, a merged
 * run and a peer's file read into a record.
 */
final class Lead
{
    private Lead()
    {
    }

    /**
     * Appends the lead of the run whose record is {@code record} (a tree) and whose per-request series are {@code s}
     * (empty when there is no per-request file: the p50 intervals are then left out).
     */
    static void run(final Page page, final JsonNode record, final RunSeries s)
    {
        final JsonNode rep = record.path("report");
        final JsonNode d = rep.path("distributions");
        final JsonNode t = rep.path("throughput");
        final JsonNode c = rep.path("counts");
        final List<Page.Card> cards = new ArrayList<>();
        cards.add(new Page.Card("requests/s", Html.headline(t.path("requests_per_s")), Html.value(c.path("ok")) +
            " ok of " + Html.value(c.path("measured")) + " measured, " +
            Html.headline(rep.path("window").path("duration_s")) + " s window"));
        cards.add(new Page.Card("output tokens/s", Html.headline(t.path("output_tokens_per_s")), "input " +
            Html.headline(t.path("input_tokens_per_s")) + " tokens/s"));
        cards.add(median("TTFT p50", d.path("ttft"), s.ttft));
        cards.add(tail("TTFT p99", d.path("ttft")));
        cards.add(median("TPOT p50", d.path("tpot"), s.tpot));
        cards.add(tail("TPOT p99", d.path("tpot")));
        final JsonNode g = rep.path("goodput");
        if (g.isObject())
        {
            cards.add(new Page.Card("goodput req/s", Html.headline(g.path("requests_per_s")), Html.num(100 *
                g.path("good_fraction").asDouble(Double.NaN)) + "% met " + (g.path("slo").isTextual() ?
                g.path("slo").asText() : "the quality rule")));
        }
        cards.add(errors(rep));
        page.cards(cards);
        page.answer(sentence(record));
        ClientShaping.warning(record).ifPresent(page::warning);
        final String tail = tailWarning(rep.path("tail_warnings"));
        if (tail != null)
        {
            page.warning(tail);
        }
        final JsonNode grade = record.path("grade");
        page.grade(grade.path("grade").asText("?"), grade.path("missing").size());
    }

    /**
     * @return the record's tail warnings in one line, as the console says them: one per metric in the record
     * ("p99 of ttft rests on 232 samples; ..."), joined when they say the same of several metrics; null for none.
     */
    static String tailWarning(final JsonNode warnings)
    {
        if (warnings.isEmpty())
        {
            return null;
        }
        final java.util.regex.Pattern one = java.util.regex.Pattern.compile("(p99(?:\\.9)?) of (\\S+) rests on " +
            "(\\d+) samples; (.*)");
        final List<String> metrics = new ArrayList<>();
        String figure = null;
        String rest = null;
        long fewest = Long.MAX_VALUE;
        for (final JsonNode w : warnings)
        {
            final java.util.regex.Matcher m = one.matcher(w.asText());
            if (!m.matches() || figure != null && !figure.equals(m.group(1)))
            {
                return String.join("; ", warnings.valueStream().map(JsonNode::asText).toList());
            }
            figure = m.group(1);
            metrics.add(m.group(2));
            fewest = Math.min(fewest, Long.parseLong(m.group(3)));
            rest = m.group(4);
        }
        return "the " + figure + " of " + String.join(", ", metrics) + " rests on as few as " + fewest + " samples; " +
            rest;
    }

    /** A p50 card, with the distribution-free 95% interval read from the run's own histogram. */
    private static Page.Card median(final String title, final JsonNode dist, final Histogram h)
    {
        if (!dist.isObject() || dist.path("count").asLong(0) == 0)
        {
            return new Page.Card(title, "-", "no samples");
        }
        final double[] ci = QuantileBounds.of(h, 0.5, 1e6);
        return new Page.Card(title, Html.headline(dist.path("p50")) + " ms", (Double.isNaN(ci[0]) ? "n = " :
            "95% [" + Html.headline(ci[0]) + ", " + Html.headline(ci[1]) + "], n = ") + Html.value(dist.path("count")));
    }

    /** A p99 card, with record.json's interval and, when it has no upper end, the samples it would need. */
    private static Page.Card tail(final String title, final JsonNode dist)
    {
        if (!dist.isObject() || dist.path("count").asLong(0) == 0)
        {
            return new Page.Card(title, "-", "no samples");
        }
        final JsonNode ci = dist.path("p99_ci95");
        final boolean open = !ci.path(1).isNumber();
        return new Page.Card(title, Html.headline(dist.path("p99")) + " ms", "95% [" + Html.headline(ci.path(0)) +
            ", " + (open ? "none]: too few samples for an upper end (368)" : Html.headline(ci.path(1)) + "]"));
    }

    private static Page.Card errors(final JsonNode rep)
    {
        final JsonNode byClass = rep.path("errors_by_class");
        final long failed = rep.path("counts").path("error").asLong(0) + rep.path("counts").path("cancelled")
            .asLong(0);
        if (failed == 0 && byClass.isEmpty())
        {
            return new Page.Card("errors", "0", "no request failed");
        }
        final StringBuilder detail = new StringBuilder();
        final Iterator<Map.Entry<String, JsonNode>> it = byClass.properties().iterator();
        while (it.hasNext())
        {
            final Map.Entry<String, JsonNode> e = it.next();
            detail.append(detail.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(Html.value(e.getValue()));
        }
        return new Page.Card("errors", Long.toString(failed), detail.isEmpty() ? rep.path("counts").path("cancelled")
            .asLong(0) + " cancelled" : detail.toString());
    }

    /** @return what the run shows, in one sentence: the load, what the server did with it, the latencies a user saw. */
    static String sentence(final JsonNode record)
    {
        final JsonNode rep = record.path("report");
        final JsonNode ttft = rep.path("distributions").path("ttft");
        final JsonNode tpot = rep.path("distributions").path("tpot");
        final JsonNode c = rep.path("counts");
        final StringBuilder sb = new StringBuilder(load(record.path("load")));
        sb.append(String.format(Locale.ROOT, ", the server completed %s req/s (%s output tokens/s); %s of %s " +
            "measured requests ended ok", Html.headline(rep.path("throughput").path("requests_per_s")),
            Html.headline(rep.path("throughput").path("output_tokens_per_s")), Html.value(c.path("ok")),
            Html.value(c.path("measured"))));
        if (ttft.path("count").asLong(0) > 0)
        {
            sb.append(String.format(Locale.ROOT, ". Half of them waited under %s ms for the first token, 1 in 100 " +
                "over %s ms%s", Html.headline(ttft.path("p50")), Html.headline(ttft.path("p99")),
                ttft.path("p99_ci95").path(1).isNumber() ? "" : " (from " + ttft.path("count").asLong() +
                    " requests, too few to bound it: it may be higher)"));
        }
        if (tpot.path("count").asLong(0) > 0 && tpot.path("p50").asDouble(0) > 0)
        {
            sb.append(String.format(Locale.ROOT, "; then a token every %s ms at the median (%s tokens/s a request)",
                Html.headline(tpot.path("p50")), Html.headline(1000 / tpot.path("p50").asDouble())));
        }
        return sb.append('.').toString();
    }

    /** @return the load as a sentence's opening: "Under an open loop of 12 req/s (Poisson)", "At concurrency 8". */
    private static String load(final JsonNode load)
    {
        if ("open".equals(load.path("mode").asText()) && load.path("rate_per_s").isNumber())
        {
            final String arrival = load.path("arrival").asText("");
            return "Under an open loop of " + Html.headline(load.path("rate_per_s")) + " req/s" +
                (arrival.isEmpty() || "?".equals(arrival) || "null".equals(arrival) ? "" : " (" + arrival +
                    " arrivals)");
        }
        if (load.path("concurrency").isNumber())
        {
            return "With " + Html.value(load.path("concurrency")) + " requests kept in flight";
        }
        return "Over the run";
    }
}
