package io.tokenclock.recording;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.J_Result;

/**
 * {@link SlotPool}'s ring of end stamps, written with {@code lazySet}: the collector writes a finished request's end
 * stamp, publishes the ring's head, then gives its permit back; the load generator that takes that permit must read
 * that stamp (the closed loop's next intended start), never the stamp an earlier lap left in the same cell and never
 * "none waiting".
 * <p>
 * The state wraps the ring once before the test, so that every cell holds a stale stamp ({@link #STALE}).
 */
@JCStressTest
@Outcome(id = "-1", expect = Expect.ACCEPTABLE, desc = "the permit was not back yet")
@Outcome(id = "42", expect = Expect.ACCEPTABLE, desc = "permit taken, and its request's end stamp read")
@Outcome(id = "0", expect = Expect.FORBIDDEN, desc = "permit taken, but no end stamp seen")
@Outcome(id = "7", expect = Expect.FORBIDDEN, desc = "permit taken, but a stale stamp from the ring's last lap")
@State
public class SlotPoolEndStampStress
{
    static final long STALE = 7;

    private final SlotPool pool = new SlotPool(1);

    /** A one-slot pool whose end-stamp ring is filled with {@link #STALE} before the actors run. */
    public SlotPoolEndStampStress()
    {
        try
        {
            pool.cancel(pool.acquire(0)); // create the one slot now, outside the actors
            pool.holdPermit(0);
            for (int i = 0; i < pool.maxSlots(); i++)
            {
                pool.releasePermit(STALE);
                pool.holdPermit(0);
            }
        }
        catch (final InterruptedException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    @Actor
    public void collector()
    {
        pool.releasePermit(42);
    }

    @Actor
    public void loadGenerator(final J_Result r)
    {
        try
        {
            r.r1 = pool.acquire(0) == null ? -1 : pool.pollEndStamp();
        }
        catch (final InterruptedException ex)
        {
            r.r1 = Long.MIN_VALUE;
        }
    }
}
