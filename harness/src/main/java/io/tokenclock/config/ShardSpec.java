package io.tokenclock.config;

import java.time.Instant;

import io.tokenclock.load.Stripe;

/**
 * Which part of a run this process makes, and when it starts ({@code run --shard I/N}, {@code --shards N},
 * {@code --start-at}, {@code --start-tolerance}). docs/CLI.md, "Shards".
 *
 * @param stripe          this shard's part ({@link Stripe#WHOLE} unsharded).
 * @param startAt         the common start on the wall clock, or null to start when ready.
 * @param startToleranceS how late after {@code startAt} a shard may still start; later, it refuses to run.
 */
public record ShardSpec(Stripe stripe, Instant startAt, double startToleranceS)
{
    /** The default tolerance of a late start, s: far above clock-sync error, far below any window. */
    public static final double DEFAULT_TOLERANCE_S = 2.0;

    /** An unsharded run that starts when ready. */
    public static final ShardSpec WHOLE = new ShardSpec(Stripe.WHOLE, null, DEFAULT_TOLERANCE_S);

    /** @return whether this is one shard of several. */
    public boolean sharded()
    {
        return stripe.sharded();
    }
}
