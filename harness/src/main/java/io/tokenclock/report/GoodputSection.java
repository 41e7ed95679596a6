package io.tokenclock.report;

import java.io.PrintStream;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.metrics.Formulas;
import io.tokenclock.recording.GoodputCounts;
import io.tokenclock.recording.Slo;
import io.tokenclock.result.RunResult;

/**
 * Goodput in the record ({@code report.goodput}, and each segment's), the summary and the record block: good requests
 * against the SLO and the quality rule, per second and as output tokens per second over the window, and what every
 * other request missed, per constraint. Formulas in docs/METRICS.md ("Goodput"). Cold path; stateless.
 */
public final class GoodputSection
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private GoodputSection()
    {
    }

    /** @return {@code report.goodput}, or null when the run reports no goodput. */
    public static ObjectNode json(final RunResult r)
    {
        return r.goodput() == null ? null : json(r.goodput(), r.options().quality().slo(),
            r.options().quality().rule().judgesOutputs(), r.windowSeconds());
    }

    /**
     * Adds a segment's goodput to its object, when it has goodput: the whole section under {@code goodput}, since the
     * segment's own {@code requests_per_s} and {@code output_tokens_per_s} are its throughput, and the four fields of
     * record format 3 ({@code slo}, {@code good}, {@code good_fraction}, {@code goodput_per_s}) beside it.
     */
    public static void group(final ObjectNode segment, final RunResult.GroupResult g, final boolean qualityRule)
    {
        if (g.goodput() != null)
        {
            final ObjectNode goodput = json(g.goodput(), g.slo(), qualityRule, g.windowSeconds());
            segment.set("slo", goodput.get("slo"));
            segment.set("good", goodput.get("good"));
            segment.set("good_fraction", goodput.get("good_fraction"));
            segment.set("goodput_per_s", goodput.get("goodput_per_s"));
            segment.set("goodput", goodput);
        }
    }

    private static ObjectNode json(final GoodputCounts c, final Slo slo, final boolean qualityRule,
        final double windowS)
    {
        final ObjectNode n = JSON.createObjectNode();
        n.put("slo", slo == null ? null : slo.describe());
        n.put("quality_rule", qualityRule);
        n.put("attempted", c.attempted()).put("good", c.good()).put("good_fraction", c.goodFraction());
        n.put("requests_per_s", Formulas.rate(c.good(), windowS));
        n.put("output_tokens_per_s", Formulas.rate(c.goodOutputTokens(), windowS));
        n.put("good_output_tokens", c.goodOutputTokens());
        n.putObject("misses").put("ttft", c.ttft()).put("tpot", c.tpot()).put("itl", c.itl()).put("e2e", c.e2e())
            .put("quality", c.quality()).put("failed", c.failed()).put("cancelled", c.cancelled());
        n.put("excluded", c.excluded());
        // Aliases of record format 3, kept: measured = every measured request; goodput_per_s = requests_per_s.
        n.put("measured", c.attempted() + c.excluded());
        n.put("goodput_per_s", Formulas.rate(c.good(), windowS));
        return n;
    }

    /** Prints the summary's GOODPUT lines, when the run has goodput. */
    public static void print(final RunResult r, final PrintStream out)
    {
        final GoodputCounts c = r.goodput();
        if (c == null)
        {
            return;
        }
        final Slo slo = r.options().quality().slo();
        final String rule = (slo == null ? "" : slo.describe()) + (r.options().quality().rule().judgesOutputs() ?
            (slo == null ? "" : " and ") + "the quality rule" : "");
        out.printf(Locale.ROOT, "goodput %.2f req/s, %.1f output tok/s: %d of %d requests met %s (%.1f%%)%n",
            Formulas.rate(c.good(), r.windowSeconds()), Formulas.rate(c.goodOutputTokens(), r.windowSeconds()),
            c.good(), c.attempted(), rule, 100.0 * c.goodFraction());
        out.printf(Locale.ROOT, "  missed: ttft %d, tpot %d, itl %d, e2e %d, quality %d; failed %d, cancelled %d%s%n",
            c.ttft(), c.tpot(), c.itl(), c.e2e(), c.quality(), c.failed(), c.cancelled(),
            c.excluded() > 0 ? "; excluded " + c.excluded() : "");
    }

    /** Appends the record block's GOODPUT section, when the record has goodput. */
    static void block(final JsonNode record, final StringBuilder sb)
    {
        final JsonNode g = record.path("report").path("goodput");
        if (!g.isObject())
        {
            return;
        }
        RecordBlock.section(sb, "GOODPUT");
        RecordBlock.line(sb, "rule", (g.path("slo").isTextual() ? g.get("slo").asText() : "no latency bound") +
            (g.path("quality_rule").asBoolean() ? "; quality rule (see QUALITY)" : ""));
        RecordBlock.line(sb, "goodput", String.format(Locale.ROOT, "%.2f req/s, %.1f output tok/s; %d of %d good " +
            "(%.1f%%)", g.path("requests_per_s").asDouble(), g.path("output_tokens_per_s").asDouble(),
            g.path("good").asLong(), g.path("attempted").asLong(), 100 * g.path("good_fraction").asDouble()));
        final JsonNode m = g.path("misses");
        RecordBlock.line(sb, "missed", String.format(Locale.ROOT, "ttft %d, tpot %d, itl %d, e2e %d, quality %d; " +
            "failed %d, cancelled %d; excluded %d", m.path("ttft").asLong(), m.path("tpot").asLong(),
            m.path("itl").asLong(), m.path("e2e").asLong(), m.path("quality").asLong(), m.path("failed").asLong(),
            m.path("cancelled").asLong(), g.path("excluded").asLong()));
    }
}
