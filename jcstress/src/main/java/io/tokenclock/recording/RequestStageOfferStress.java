package io.tokenclock.recording;

import java.util.concurrent.atomic.AtomicLongArray;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * The hand-off from the ring's consumer to the {@link RequestStage}: the consumer finishes a slot (its chunk timeline,
 * plain fields) and {@link RequestStage#offer}s it; the stage's thread that takes it from the queue must see the slot
 * as the consumer left it, and process it exactly once.
 */
@JCStressTest
@Outcome(id = "0, -1", expect = Expect.ACCEPTABLE, desc = "nothing queued yet")
@Outcome(id = "1, 42", expect = Expect.ACCEPTABLE, desc = "processed once, the slot seen as it was offered")
@Outcome(expect = Expect.FORBIDDEN, desc = "processed with stale fields, or more than once")
@State
public class RequestStageOfferStress
{
    private final SlotPool pool = new SlotPool(1);
    private final RequestSlot slot = new RequestSlot(0);
    private final Seen seen = new Seen();
    private final RequestStage stage = new RequestStage(
        pool, null, seen, new RequestGroup[0], new AtomicLongArray(64), new AtomicLongArray(ErrorClass.count()));

    @Actor
    public void consumer()
    {
        slot.phase = RequestSlot.PHASE_WARMUP; // a warm-up request: no histograms needed to process it
        slot.endNs = 42;
        stage.offer(slot);
    }

    @Actor
    public void stage(final JJ_Result r)
    {
        r.r1 = stage.drain();
        r.r2 = seen.endNs;
    }

    /** The stage's listener: what it saw of the slot. */
    static final class Seen implements RequestListener
    {
        long endNs = -1;

        @Override
        public void onRequestComplete(final RequestSlot s, final RequestMetrics metrics)
        {
            endNs = s.endNs;
        }
    }
}
