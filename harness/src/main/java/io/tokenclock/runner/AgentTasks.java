package io.tokenclock.runner;

import io.tokenclock.goodput.GoodputCounts;
import io.tokenclock.goodput.GoodputTally;
import io.tokenclock.workload.AgentWorkload;

/**
 * An agent run's tasks judged by their final answers, and its goodput counted in tasks: a task is good when it gave a
 * final answer within its step limit with every request ok, the answer passed the quality rule (when one judges
 * outputs), and none of its ok steps missed an SLO bound. A task that failed or hit its step limit counts as failed; a
 * final answer the rule left out leaves its task out of goodput, as an excluded request is. Stateless.
 */
final class AgentTasks
{
    private AgentTasks()
    {
    }

    /** @return {@code tasks} with every final answer judged by {@code quality}, or as they are without a rule. */
    static AgentWorkload.Report judged(final AgentWorkload.Report tasks, final QualityPhase quality)
    {
        return quality == null ? tasks : tasks.judged(quality::answerVerdict);
    }

    /** @return the run's goodput in tasks, each task one verdict (docs/METRICS.md, "Agent tasks"). */
    static GoodputCounts goodput(final AgentWorkload.Report tasks, final QualityPhase quality)
    {
        final GoodputTally tally = new GoodputTally();
        final AgentWorkload.Ledger ledger = tasks.ledger();
        for (int k = 0; k < ledger.outcomes().length; k++)
        {
            int verdict = GoodputCounts.FAILED;
            if (ledger.outcomes()[k] == AgentWorkload.Outcome.ANSWERED)
            {
                final int answer = quality == null ? 0 : quality.answerVerdict(ledger.finalRequestIds()[k]);
                verdict = ledger.sloMisses()[k] | (answer == 1 ? GoodputCounts.MISS_QUALITY : 0) |
                    (answer == 2 ? GoodputCounts.EXCLUDED : 0);
            }
            tally.add(verdict, ledger.outputTokens()[k]);
        }
        return tally.counts();
    }
}
