package io.tokenclock.workload;

import java.util.Locale;
import java.util.SplittableRandom;

import io.tokenclock.recording.RequestSlot;

/**
 * Users abandon answers: a fraction of requests is cancelled on purpose, after a delay or after some tokens, and the
 * tokens already streamed are wasted work the server still paid for. Which requests are cancelled depends only on
 * (seed, request number), on a random stream of its own, so adding a rule never changes the prompts.
 * <p>
 * Example: {@code rate 0.1, afterTokens 20} cancels one request in ten once its 20th content-bearing chunk arrives
 * (the 20th token on one-token-per-chunk servers); such requests end {@code cancelled} with class
 * {@code cancel_rule} and keep every stamp they received.
 */
public final class CancellationRule
{
    private static final long SALT = 0x5DEECE66DL;

    private final double rate;
    private final long afterNs;
    private final int afterTokens;
    private final long seed;

    /**
     * @param rate        fraction of requests to cancel, in [0, 1].
     * @param afterMs     cancel this long after the send (0: not by time).
     * @param afterTokens cancel when this many content-bearing chunks arrived (0: not by tokens).
     */
    public CancellationRule(final double rate, final double afterMs, final int afterTokens, final long seed)
    {
        if (!(rate >= 0 && rate <= 1))
        {
            throw new IllegalArgumentException("cancellation rate must be in [0, 1]: " + rate);
        }
        if (!saysWhen(rate, afterMs, afterTokens))
        {
            throw new IllegalArgumentException("a cancellation rule needs after_ms > 0 or after_tokens >= 1");
        }
        if (afterMs < 0 || afterTokens < 0)
        {
            throw new IllegalArgumentException("cancellation after_ms and after_tokens must not be negative");
        }
        this.rate = rate;
        this.afterNs = (long)(afterMs * 1e6);
        this.afterTokens = afterTokens;
        this.seed = seed;
    }

    /**
     * @return whether a rule that cancels ({@code rate > 0}) says when: after a time or after a token count. The one
     * test of it; {@code config.RunRules} asks it to refuse with the names the user wrote.
     */
    public static boolean saysWhen(final double rate, final double afterMs, final int afterTokens)
    {
        return !(rate > 0) || afterMs > 0 || afterTokens >= 1;
    }

    /** Marks request {@code i}'s slot for cancellation if the rule picks it. */
    public void apply(final RequestSlot slot, final long i)
    {
        if (rate > 0 && new SplittableRandom(Seeds.mix(seed ^ SALT, i)).nextDouble() < rate)
        {
            slot.cancelAfterNs = afterNs;
            slot.cancelAfterChunks = afterTokens;
        }
    }

    /** @return a one-line description for the record. */
    public String describe()
    {
        return String.format(Locale.ROOT, "cancel %.1f%% of requests%s%s", rate * 100,
            afterNs > 0 ? " after " + afterNs / 1e6 + " ms" : "", afterTokens > 0 ? " after " + afterTokens +
            " tokens" : "");
    }
}
