package io.tokenclock.workload;

import java.util.List;
import java.util.SplittableRandom;

import io.tokenclock.api.BodyShape;
import io.tokenclock.clock.NanoClock;
import io.tokenclock.load.LoadGenerator;
import io.tokenclock.load.LoadPlan;
import io.tokenclock.load.SessionFiller;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.workload.tokenizer.Tokenizer;

/**
 * What user-centric workloads (multi-turn chat, tool-using agents) share: per-user seeded randomness, prompt
 * synthesis with residual counting, and a workload hash that does not depend on the order in which users' turns
 * interleave (that order is set by the server's timing): per-message SHA-256 digests are summed mod 2^256. The hash
 * therefore cannot be regenerated offline ({@link #offlineFiller()} is null).
 * Called on the load generator's thread only.
 */
public abstract class UserWorkload implements Workload, SessionFiller
{
    protected final long seed;
    protected final Tokenizer tokenizer;
    private final PromptSynthesizer synthesizer = new PromptSynthesizer();
    private final OrderFreeDigest digest = new OrderFreeDigest();
    private long requests;
    private long residualRequests;

    protected UserWorkload(final long seed, final Tokenizer tokenizer)
    {
        this.seed = seed;
        this.tokenizer = tokenizer;
    }

    /** @return a generator that depends only on the seed and these coordinates (user, unit, step, purpose). */
    protected final SplittableRandom random(final int user, final int unit, final int step, final long salt)
    {
        return new SplittableRandom(((seed * 31 + user) * 1_000_003L + unit) * 1_009L + step + salt);
    }

    /**
     * Synthesizes a message of {@code tokens} tokens (exact when possible) after {@code prefix}, and hashes it.
     *
     * @return the message and its length in tokens.
     */
    protected final PromptSynthesizer.Prompt message(final int tokens, final SplittableRandom random,
        final String prefix)
    {
        final PromptSynthesizer.Prompt p = synthesizer.synthesize(tokenizer, Math.max(1, tokens), random, prefix);
        if (p.residual() != 0)
        {
            residualRequests++;
        }
        digest.add(p.text());
        return p;
    }

    /** Adds {@code images} to the hash, each by its base64 bytes: the hash then covers what a turn sent. */
    protected final void hashed(final List<BodyShape.Image> images)
    {
        for (final BodyShape.Image image : images)
        {
            digest.add(image.base64());
        }
    }

    /** Counts a request built. */
    protected final void counted()
    {
        requests++;
    }

    /** Simulated users' turns are due a think time (or a tool call) after the server's last answer. */
    @Override
    public final LoadGenerator driver(
        final LoadPlan plan, final NanoClock clock, final SlotPool pool, final LoadGenerator.RequestSink sink)
    {
        return LoadGenerator.ofUsers(plan, clock, pool, this, sink);
    }

    /** @return hex sum (mod 2^256) of the SHA-256 of every message built: independent of turn order. */
    @Override
    public final String hash()
    {
        return digest.hex();
    }

    @Override
    public final long requests()
    {
        return requests;
    }

    @Override
    public final long residualRequests()
    {
        return residualRequests;
    }
}
