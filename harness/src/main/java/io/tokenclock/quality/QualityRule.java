package io.tokenclock.quality;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The quality contract: what a measured request's output must pass to count as a success. A request succeeds when it
 * ended ok, passes every check, and then (when there is one) the judge says PASS; the judge sees only outputs that
 * passed every check. Fixed before the run; immutable.
 *
 * @param success the declared success criterion: {@code none}, {@code completed} or {@code finish_stop} (which adds
 *                the {@code finish_stop} check), or null when none was declared.
 * @param checks  the built-in checks, in the order declared.
 * @param judge   the LLM judge, or null.
 */
public record QualityRule(String success, List<Check> checks, JudgeSpec judge)
{
    /** The success criteria a contract's {@code quality.success} accepts. */
    public static final List<String> SUCCESS = List.of("none", "completed", "finish_stop");
    /** No rule: every request that ended ok succeeds. */
    public static final QualityRule NONE = new QualityRule(null, List.of(), null);

    public QualityRule
    {
        checks = List.copyOf(checks);
        if (success != null && !SUCCESS.contains(success))
        {
            throw new IllegalArgumentException("quality.success must be one of " + SUCCESS + ": " + success);
        }
    }

    /** @return the checks run: the declared ones, and {@code finish_stop} for {@code success: finish_stop}. */
    public List<Check> effectiveChecks()
    {
        if (!"finish_stop".equals(success) || checks.stream().anyMatch(c -> c.name().equals("finish_stop")))
        {
            return checks;
        }
        final List<Check> all = new ArrayList<>(checks);
        all.add(new Checks.FinishStop());
        return List.copyOf(all);
    }

    /** @return whether the rule looks at outputs at all (a check or a judge): they are judged after the window. */
    public boolean judgesOutputs()
    {
        return judge != null || !effectiveChecks().isEmpty();
    }

    /** @return whether the rule reads output text, which the run then keeps in memory until it is judged. */
    public boolean needsText()
    {
        return judge != null || effectiveChecks().stream().anyMatch(Check::needsText);
    }

    /**
     * @return whether {@code other} judges outputs exactly as this rule does: the same success criterion, checks and
     * judge, a rubric compared by its content wherever it was read from.
     */
    public boolean sameAs(final QualityRule other)
    {
        final ObjectNode mine = describe();
        final ObjectNode theirs = other.describe();
        for (final ObjectNode n : List.of(mine, theirs))
        {
            if (n.get("judge") instanceof ObjectNode j)
            {
                j.remove("rubric_file");
            }
        }
        return mine.equals(theirs);
    }

    /** @return the rule as the record states it ({@code report.quality.rule}). */
    public ObjectNode describe()
    {
        final ObjectNode n = Checks.JSON.createObjectNode();
        n.put("success", success);
        final ArrayNode list = n.putArray("checks");
        effectiveChecks().forEach(c -> list.add(c.describe()));
        n.set("judge", judge == null ? null : judge.describe());
        n.put("combine", judgesOutputs() ? "a measured request succeeds when it ended ok, passes every check and " +
            "then the judge (which sees only outputs that passed every check)" : "a measured request succeeds when " +
            "it ended ok (no check of its output)");
        return n;
    }
}
