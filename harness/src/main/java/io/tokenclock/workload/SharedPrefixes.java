package io.tokenclock.workload;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Shared prompt prefixes, so that a prefix cache sees realistic reuse: every prompt may start with one system block,
 * and a share of prompts then continues with one of N group blocks (a document, a persona, a few-shot set), the same
 * text whenever the same group is drawn. The rest of each prompt is unique.
 * <p>
 * Example: {@code systemTokens 300, groups 8, groupTokens 2000, sharing 0.75}: every prompt starts with the same 300
 * tokens; three prompts in four then carry one of 8 documents of 2,000 tokens; the prompt is filled to its drawn
 * length after that, so a drawn length below the shared prefix cannot be met (the record counts such residuals).
 *
 * @param systemTokens tokens of the block every prompt starts with (0: none).
 * @param groups       number of group blocks (0: none).
 * @param groupTokens  tokens of each group block.
 * @param sharing      share of prompts that carry a group block, in [0, 1].
 */
public record SharedPrefixes(int systemTokens, int groups, int groupTokens, double sharing)
{
    public SharedPrefixes
    {
        if (systemTokens < 0 || groups < 0 || groupTokens < 0)
        {
            throw new IllegalArgumentException("shared prefix sizes must not be negative");
        }
        if (groups > 0 && groupTokens < 1)
        {
            throw new IllegalArgumentException("prefix groups need group_tokens >= 1");
        }
        if (!(sharing >= 0 && sharing <= 1))
        {
            throw new IllegalArgumentException("prefix sharing must be in [0, 1]: " + sharing);
        }
    }

    /** Block id of the system block. */
    static final long SYSTEM_BLOCK = -1;

    /**
     * @return the block ids request's prompt starts with, drawn from {@code random}: the system block (if any), then
     * a group block with probability {@code sharing}.
     */
    long[] draw(final SplittableRandom random)
    {
        final boolean grouped = groups > 0 && random.nextDouble() < sharing;
        final int group = grouped ? random.nextInt(groups) : -1;
        if (systemTokens > 0)
        {
            return grouped ? new long[] {SYSTEM_BLOCK, group} : new long[] {SYSTEM_BLOCK};
        }
        return grouped ? new long[] {group} : new long[0];
    }

    int tokensOf(final long block)
    {
        return block == SYSTEM_BLOCK ? systemTokens : groupTokens;
    }

    /** @return a one-line description for the record. */
    public String describe()
    {
        return String.format(Locale.ROOT, "shared prefixes: system %d tokens; %d groups of %d tokens on " +
            "%.0f%% of prompts", systemTokens, groups, groupTokens, sharing * 100);
    }
}
