package io.tokenclock.recording;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JI_Result;

/**
 * A slot across the ring: the I/O thread writes a request's outcome into its {@link RequestSlot} (plain fields),
 * then publishes the end record to {@link ChunkRecords}; the collector that reads the record reads the slot, and
 * must see everything written before the publish ({@link ChunkRecords#publishEnd}'s contract).
 */
@JCStressTest
@Outcome(id = "-1, -1", expect = Expect.ACCEPTABLE, desc = "the end record was not published yet")
@Outcome(id = "42, 1", expect = Expect.ACCEPTABLE, desc = "record read, and the slot's fields with it")
@Outcome(expect = Expect.FORBIDDEN, desc = "record read, but the slot's fields not (or only partly) seen")
@State
public class RingSlotVisibilityStress
{
    private final ChunkRecords records = new ChunkRecords(256);
    private final RequestSlot slot = new RequestSlot(0);

    @Actor
    public void ioThread()
    {
        slot.endNs = 42;
        slot.status = RequestSlot.STATUS_ERROR;
        records.publishEnd(slot.index(), 42);
    }

    @Actor
    public void collector(final JI_Result r)
    {
        r.r1 = -1;
        r.r2 = -1;
        records.ring().read((type, buffer, index, length) ->
        {
            if (type == ChunkRecords.MSG_END && buffer.getInt(index + ChunkRecords.SLOT_OFFSET) == slot.index())
            {
                r.r1 = slot.endNs;
                r.r2 = slot.status;
            }
        }, 1);
    }
}
