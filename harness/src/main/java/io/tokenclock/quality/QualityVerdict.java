package io.tokenclock.quality;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One request's quality verdict. Immutable.
 *
 * @param pass     whether the output passed the rule (false when excluded).
 * @param excluded left out: the judge abstained or failed, and the rule says {@code exclude}.
 * @param reasons  why it failed: one reason per failed check or judge verdict (empty when it passed).
 * @param details  a short note per failed check, in the order of {@code reasons}.
 * @param judge    the judge's verdict, or null when no judge was asked.
 */
public record QualityVerdict(boolean pass, boolean excluded, List<String> reasons, List<String> details,
    Judge.Verdict judge)
{
    public QualityVerdict
    {
        reasons = List.copyOf(reasons);
        details = List.copyOf(details);
    }

    /**
     * @return the verdict of an output that judging did not reach (stopped at the grace period after a signal): left
     * out, like an exclusion, with no reason, so that it is counted neither passed nor failed.
     */
    public static QualityVerdict unjudged()
    {
        return new QualityVerdict(false, true, List.of(), List.of("unjudged: judging stopped at the grace period " +
            "after a signal"), null);
    }

    /** @return the verdict as requests.jsonl writes it in {@code quality}. */
    public ObjectNode toJson()
    {
        final ObjectNode n = Checks.JSON.createObjectNode();
        n.put("pass", pass).put("excluded", excluded);
        final ArrayNode failed = n.putArray("failed");
        reasons.forEach(failed::add);
        final ArrayNode notes = n.putArray("details");
        details.forEach(notes::add);
        if (judge != null)
        {
            final ObjectNode j = n.putObject("judge");
            j.put("vote", judge.vote().name().toLowerCase(Locale.ROOT));
            final ArrayNode replies = j.putArray("replies");
            judge.replies().forEach(v -> replies.add(v.name().toLowerCase(Locale.ROOT)));
            j.put("error", judge.error());
        }
        return n;
    }
}
