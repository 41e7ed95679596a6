package io.tokenclock.recording;

import java.util.concurrent.atomic.AtomicLongArray;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * A running {@link RequestStage} (its own thread, idling in spins and parks) and {@link RequestStage#offer} from the
 * ring's consumer, with its unpark of the stage's thread: the offered slot is always taken and processed, so the
 * stage, which here closes itself from its listener, ends. What this cannot show is that the unpark saves time: the
 * stage parks at most 10 ms, so a lost unpark would only delay it, which a stress test cannot tell from scheduling.
 */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "the running stage took the offered slot")
@Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "the offered slot never reached the running stage")
@State
public class RequestStageWakeStress
{
    private final SlotPool pool = new SlotPool(1);
    private final RequestSlot slot = new RequestSlot(0);
    private final RequestStage stage;

    /** One stage over a one-slot pool; its listener closes the stage once it has processed the offered slot. */
    public RequestStageWakeStress()
    {
        final RequestStage[] self = new RequestStage[1];
        stage = new RequestStage(pool, null, (s, metrics) -> self[0].close(), new RequestGroup[0],
            new AtomicLongArray(64), new AtomicLongArray(ErrorClass.count()));
        self[0] = stage;
    }

    @Actor
    public void stageThread()
    {
        stage.run();
    }

    @Signal
    public void consumer()
    {
        stage.offer(slot);
    }
}
