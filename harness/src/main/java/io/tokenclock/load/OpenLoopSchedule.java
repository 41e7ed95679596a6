package io.tokenclock.load;

import java.security.MessageDigest;

import io.tokenclock.util.Sha256;

/**
 * The open-loop intended start offsets, in ns after t0, in request order, and the schedule hash over them.
 * <p>
 * Offsets accumulate from 0, not from t0, so that rounding never depends on the clock's origin: the same seed gives
 * the same offsets, and the same schedule hash, in every run. The hash is SHA-256 over each digested offset as 8
 * big-endian bytes; a run digests the offset of every request it builds, so {@link #hash(LoadPlan, long)} can
 * regenerate it offline from the plan and the number of requests built.
 * <p>
 * Not thread-safe: one instance per run, on the load generator's thread.
 */
public final class OpenLoopSchedule
{
    private final LoadPlan plan;
    private final MessageDigest digest = Sha256.newDigest();
    private double offsetNs;
    private double unitS;
    private int stage;

    /** @param plan an open-loop plan whose arrival process is fresh (seeded, not yet drawn from). */
    OpenLoopSchedule(final LoadPlan plan)
    {
        this.plan = plan;
    }

    /**
     * Recomputes, offline, the schedule hash a run of this plan reports after building {@code requests} requests: the
     * replay check that the same seed gives the same schedule.
     *
     * @param plan an open-loop plan whose arrival process is fresh (seeded, not yet drawn from).
     * @return hex SHA-256 over the first {@code requests} offsets (fewer if the schedule ends first).
     */
    public static String hash(final LoadPlan plan, final long requests)
    {
        final OpenLoopSchedule schedule = new OpenLoopSchedule(plan);
        for (long i = 0; i < requests; i++)
        {
            final long offsetNs = schedule.next(i);
            if (offsetNs < 0)
            {
                break;
            }
            schedule.digest(offsetNs);
        }
        return schedule.hash();
    }

    /**
     * Draws request {@code i}'s offset. Call with i = 0, 1, 2, ... in order: each call after the first draws a gap
     * from the plan's arrival process. A closed loop has no offsets (0 for all).
     *
     * @return request i's intended start in ns after t0, or -1 when the schedule has ended.
     */
    long next(final long i)
    {
        stage = 0;
        if (plan.fixedOffsetsNs() != null)
        {
            if (i >= plan.fixedOffsetsNs().length)
            {
                return -1;
            }
            offsetNs = plan.fixedOffsetsNs()[(int)i];
        }
        else if (plan.rateSchedule() != null)
        {
            if (i > 0)
            {
                unitS += plan.arrivals().nextGapNs() / 1e9;
            }
            final double t = plan.rateSchedule().timeAt(unitS);
            if (!(t < plan.rateSchedule().endS()))
            {
                return -1;
            }
            stage = plan.rateSchedule().stageAt(t);
            offsetNs = t * 1e9;
        }
        else if (!plan.closedLoop() && i > 0)
        {
            offsetNs += plan.arrivals().nextGapNs();
        }
        return (long)offsetNs;
    }

    /** @return the stage of the last offset drawn: -1 in the ramp, else the stage index (0 without stages). */
    int stage()
    {
        return stage;
    }

    /** Adds the offset of a request built to the schedule hash. */
    void digest(final long offsetNs)
    {
        for (int shift = 56; shift >= 0; shift -= 8)
        {
            digest.update((byte)(offsetNs >>> shift));
        }
    }

    /** @return hex SHA-256 over the offsets digested so far, in order. Call once, at the end. */
    String hash()
    {
        return Sha256.hex(digest);
    }
}
