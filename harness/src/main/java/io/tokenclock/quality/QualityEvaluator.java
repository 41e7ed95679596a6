package io.tokenclock.quality;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges stored outputs under a {@link QualityRule}, after the window: every check on every sample (so that each
 * failed check is counted), then the judge on the samples that passed them all.
 */
public final class QualityEvaluator
{
    /**
     * @param verdicts each sample's verdict, by request id.
     * @param report   the totals.
     */
    public record Result(Map<Long, QualityVerdict> verdicts, QualityReport report)
    {
    }

    private QualityEvaluator()
    {
    }

    /** @return every sample's verdict under {@code rule}, and the totals. */
    public static Result evaluate(final QualityRule rule, final List<Sample> samples) throws InterruptedException
    {
        final List<Check> checks = rule.effectiveChecks();
        final Map<Long, List<Outcome>> failures = new HashMap<>();
        final List<Sample> toJudge = new ArrayList<>();
        for (final Sample s : samples)
        {
            final List<Outcome> failed = new ArrayList<>();
            for (final Check c : checks)
            {
                final Outcome o = c.check(s);
                if (!o.pass())
                {
                    failed.add(o);
                }
            }
            failures.put(s.id(), failed);
            if (failed.isEmpty() && rule.judge() != null)
            {
                toJudge.add(s);
            }
        }
        final Map<Long, Judge.Verdict> judged = rule.judge() == null || toJudge.isEmpty() ? Map.of() :
            new Judge(rule.judge()).judge(toJudge);
        return combine(rule, samples, failures, judged);
    }

    private static Result combine(
        final QualityRule rule, final List<Sample> samples, final Map<Long, List<Outcome>> failures,
        final Map<Long, Judge.Verdict> judged)
    {
        final Map<Long, QualityVerdict> verdicts = new HashMap<>();
        final Map<String, Long> byReason = new HashMap<>();
        long checked = 0;
        long success = 0;
        long excluded = 0;
        for (final Sample s : samples)
        {
            final List<String> reasons = new ArrayList<>();
            final List<String> details = new ArrayList<>();
            for (final Outcome o : failures.get(s.id()))
            {
                reasons.add(o.reason());
                details.add(o.detail() == null ? "" : o.detail());
            }
            final Judge.Verdict j = judged.get(s.id());
            boolean exclude = false;
            if (j != null && j.vote() != Judge.Vote.PASS)
            {
                final String treatment = j.vote() == Judge.Vote.ERROR ? rule.judge().onError() :
                    j.vote() == Judge.Vote.ABSTAIN ? rule.judge().abstain() : "fail";
                exclude = treatment.equals("exclude");
                reasons.add(judgeReason(j.vote()));
                details.add(j.error() == null ? "judge: " + j.replies() : "judge: " + j.error());
            }
            final boolean pass = reasons.isEmpty();
            verdicts.put(s.id(), new QualityVerdict(pass, exclude, reasons, details, j));
            if (exclude)
            {
                excluded++;
                continue;
            }
            checked++;
            success += pass ? 1 : 0;
            reasons.forEach(r -> byReason.merge(r, 1L, Long::sum));
        }
        return new Result(verdicts, new QualityReport(rule.describe(), checked, success, excluded, byReason));
    }

    private static String judgeReason(final Judge.Vote vote)
    {
        return switch (vote)
        {
            case ERROR -> "judge_error";
            case ABSTAIN -> "judge_abstain";
            default -> "judge";
        };
    }
}
