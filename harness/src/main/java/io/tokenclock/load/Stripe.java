package io.tokenclock.load;

/**
 * Which part of one run a shard makes: shard {@code index} of {@code count}. Every shard draws the whole schedule
 * and builds the whole workload (so each reports the single-process workload and schedule hashes), and keeps its
 * stripe: open-loop and closed-loop request {@code i} goes to shard {@code i mod count}, simulated user {@code u}
 * (with every turn of its session) to shard {@code u mod count}, and a closed loop's concurrency is split with the
 * remainder going to the first shards. {@link #WHOLE} is the unsharded run.
 *
 * @param index this shard, 0-based.
 * @param count how many shards make the run, at least 1.
 */
public record Stripe(int index, int count)
{
    /** The whole run, in one process. */
    public static final Stripe WHOLE = new Stripe(0, 1);

    public Stripe
    {
        if (count < 1 || index < 0 || index >= count)
        {
            throw new IllegalArgumentException("shard index " + index + " is out of range 0.." + (count - 1));
        }
    }

    /** @return whether request {@code i} of the whole run is this shard's. */
    public boolean owns(final long i)
    {
        return count == 1 || i % count == index;
    }

    /** @return whether simulated user {@code user} (its whole session) is this shard's. */
    public boolean ownsUser(final int user)
    {
        return count == 1 || user % count == index;
    }

    /** @return this shard's part of {@code total} (concurrency, a cap): total / count, one more for the first ones. */
    public int share(final int total)
    {
        return total / count + (index < total % count ? 1 : 0);
    }

    /** @return this shard's part of a count. */
    public long share(final long total)
    {
        return total / count + (index < total % count ? 1 : 0);
    }

    /** @return whether this is one shard of several. */
    public boolean sharded()
    {
        return count > 1;
    }

    /** @return "I/N". */
    @Override
    public String toString()
    {
        return index + "/" + count;
    }
}
