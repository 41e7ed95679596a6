package io.tokenclock.workload;

/**
 * Seeds for the workload's independent random streams (one per request, per shared-prefix block, per cancellation
 * draw), each derived from the run's seed and the stream's key, so that a stream depends only on those two and never
 * on the order in which the streams are drawn. The run's seed is spread over the whole word by the 64-bit golden
 * ratio (2^64 / phi, odd, the same gamma as {@code SplittableRandom}'s) before the key is mixed in.
 * <p>
 * Two ways to mix the key, because each stream has always used its own: the prompts, and so the workload hash in
 * {@code record.json}, depend on which one, and changing either would change every prompt made from a given seed.
 * Stateless and thread-safe.
 */
final class Seeds
{
    /** 2^64 / phi, rounded to an odd number. */
    static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private Seeds()
    {
    }

    /** @return the seed of stream {@code key}, mixed in by addition: seed * gamma + key (per-request streams). */
    static long mix(final long seed, final long key)
    {
        return seed * GOLDEN_GAMMA + key;
    }

    /** @return the seed of stream {@code key}, mixed in by exclusive or: (seed * gamma) ^ key (prefix blocks). */
    static long mixXor(final long seed, final long key)
    {
        return seed * GOLDEN_GAMMA ^ key;
    }
}
