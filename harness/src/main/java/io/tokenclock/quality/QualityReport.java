package io.tokenclock.quality;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The run's quality, over its measured requests that ended ok. Immutable.
 *
 * @param rule             the rule, as the record states it.
 * @param checked          outputs judged (excluded ones not counted).
 * @param success          outputs that passed.
 * @param excluded         outputs left out (an abstention or a judge failure, under {@code exclude}).
 * @param failuresByReason failed checks by reason, a request counted once per check it failed.
 * @param unjudged         outputs not judged because judging was stopped (the grace period after a signal ran
 *                         out): neither passed nor failed, and not in {@code checked}.
 */
public record QualityReport(ObjectNode rule, long checked, long success, long excluded,
    Map<String, Long> failuresByReason, long unjudged)
{
    /** A report in which every output was judged. */
    public QualityReport(final ObjectNode rule, final long checked, final long success, final long excluded,
        final Map<String, Long> failuresByReason)
    {
        this(rule, checked, success, excluded, failuresByReason, 0);
    }

    public QualityReport
    {
        rule = rule.deepCopy();
        failuresByReason = Collections.unmodifiableMap(new TreeMap<>(failuresByReason));
    }

    /** @return success / checked, 0 when nothing was checked. */
    public double successFraction()
    {
        return checked > 0 ? (double)success / checked : 0;
    }
}
