package io.tokenclock.report;

import java.io.PrintStream;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.quality.QualityReport;
import io.tokenclock.quality.QualityRule;
import io.tokenclock.run.RunResult;

/**
 * Quality in the record ({@code report.quality}), the summary and the record block: the rule the outputs were judged
 * by, how many were checked and passed, and why the others failed. Also the grade's two gaps that a comparison claim
 * must close besides the declared sections: a quality rule, and more than one repetition. Cold path; stateless.
 */
public final class QualitySection
{
    private static final ObjectMapper JSON = Json.MAPPER;

    private QualitySection()
    {
    }

    /** @return {@code report.quality}, or null when no rule judged the outputs. */
    public static ObjectNode json(final RunResult r)
    {
        final QualityReport q = r.quality();
        if (q == null)
        {
            return null;
        }
        final ObjectNode n = JSON.createObjectNode();
        n.set("rule", q.rule().deepCopy());
        n.put("checked", q.checked()).put("success", q.success()).put("success_fraction", q.successFraction());
        n.put("excluded", q.excluded());
        n.put("unjudged", q.unjudged());
        final ObjectNode reasons = n.putObject("failures_by_reason");
        q.failuresByReason().forEach(reasons::put);
        return n;
    }

    /** Adds what a comparison-grade claim still lacks of quality and repetitions to {@code gaps}. */
    public static void gaps(final RunResult r, final List<String> gaps)
    {
        final QualityRule rule = r.options().quality().rule();
        if (!rule.judgesOutputs())
        {
            gaps.add("report.quality.rule: no quality rule judges the outputs (contract: quality.checks, " +
                "quality.judge or quality.success: finish_stop; or --quality-check)");
        }
        if (rule.judge() != null && rule.judge().revision() == null)
        {
            gaps.add("report.quality.rule.judge.revision (contract: quality.judge.revision)");
        }
        if (r.options().state().repetitions() < 2)
        {
            gaps.add("report.repetitions: one run measures no run-to-run variance (contract: state.repetitions " +
                ">= 2, or --repetitions)");
        }
    }

    /** Prints the summary's QUALITY line, when a rule judged the outputs. */
    public static void print(final RunResult r, final PrintStream out)
    {
        final QualityReport q = r.quality();
        if (q == null)
        {
            return;
        }
        out.printf(Locale.ROOT, "quality: %d of %d outputs passed (%.1f%%)%s%s%s%n", q.success(), q.checked(),
            100.0 * q.successFraction(), q.excluded() > 0 ? ", " + q.excluded() + " excluded" : "",
            q.unjudged() > 0 ? ", " + q.unjudged() + " unjudged (judging stopped at the grace period after a " +
                "signal: neither passed nor failed)" : "",
            q.failuresByReason().isEmpty() ? "" : "; failed: " + q.failuresByReason());
    }

    /**
     * Appends the record block's QUALITY section from {@code report.quality}, when the record has one. The section is
     * a tree in the typed record (its rule is the contract's declaration), so it is read as one.
     */
    static void block(final JsonNode q, final StringBuilder sb)
    {
        if (q == null || !q.isObject())
        {
            return;
        }
        RecordBlock.section(sb, "QUALITY");
        final JsonNode rule = q.path("rule");
        final StringBuilder checks = new StringBuilder();
        for (final JsonNode c : rule.path("checks"))
        {
            checks.append(checks.isEmpty() ? "" : ", ").append(c.path("type").asText());
        }
        RecordBlock.line(sb, "checks", checks.isEmpty() ? "none" : checks.toString());
        final JsonNode judge = rule.path("judge");
        RecordBlock.line(sb, "judge", judge.isObject() ? String.format(Locale.ROOT, "%s @ %s, rubric sha256 %s, " +
            "%s of %d, abstain %s, on error %s", judge.path("model").asText(), judge.path("revision").asText("?"),
            judge.path("rubric_sha256").asText(), judge.path("aggregation").asText(), judge.path("sampling")
                .path("samples").asInt(), judge.path("abstain").asText(), judge.path("on_error").asText()) : "none");
        RecordBlock.line(sb, "success", String.format(Locale.ROOT, "%d of %d outputs (%.1f%%), %d excluded",
            q.path("success").asLong(), q.path("checked").asLong(), 100 * q.path("success_fraction").asDouble(),
            q.path("excluded").asLong()));
        final StringBuilder reasons = new StringBuilder();
        for (final Iterator<Map.Entry<String, JsonNode>> it = q.path("failures_by_reason").properties().iterator();
            it.hasNext(); )
        {
            final Map.Entry<String, JsonNode> e = it.next();
            reasons.append(reasons.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue().asLong());
        }
        RecordBlock.line(sb, "failures", reasons.isEmpty() ? "none" : reasons.toString());
    }
}
