package io.tokenclock.workload;

import java.util.List;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.load.LoadGenerator;
import io.tokenclock.load.LoadPlan;
import io.tokenclock.recording.SlotPool;

/**
 * What the runner needs of any workload: the driver that sends its requests, and what identifies it in the record.
 * A workload of independent requests ({@link WorkloadGenerator}) is a {@link LoadGenerator.RequestFiller}; one of
 * simulated users ({@link UserWorkload}) is a {@link io.tokenclock.load.SessionFiller}; each picks its own driver.
 */
public interface Workload
{
    /** @return the driver that sends this workload's requests under {@code plan}; call once. */
    LoadGenerator driver(LoadPlan plan, NanoClock clock, SlotPool pool, LoadGenerator.RequestSink sink);

    /** @return a hex SHA-256 identifying the requests built so far (see each implementation). Call once, at the end. */
    String hash();

    /** @return requests built so far. */
    long requests();

    /** @return requests whose prompt missed its exact token count. */
    long residualRequests();

    /** @return a one-line description for the record. */
    String describe();

    /** @return the synthetic images in the requests counted by {@link #requests()}; 0 without images. */
    default long imagesSent()
    {
        return 0;
    }

    /** @return the encoded bytes (before base64) of those images. */
    default long imageBytesSent()
    {
        return 0;
    }

    /** @return names of the groups requests are reported in (segments), or an empty list. */
    default List<String> groupNames()
    {
        return List.of();
    }

    /** @return the reference answer of request {@code i} (its dataset entry's), or null; for quality checks. */
    default String reference(final long i)
    {
        return null;
    }

    /**
     * @return the prompt of request {@code i} as quality checks see it (a dataset entry's prompt, or its messages as
     * JSON), or null when the workload does not keep it (synthetic prompts are not kept).
     */
    default String promptText(final long i)
    {
        return null;
    }

    /**
     * @return whether this workload is a trace's sessions, which bring their own schedule and driver
     * ({@link io.tokenclock.load.TraceFiller}).
     */
    default boolean traceSessions()
    {
        return false;
    }

    /** @return a trace's own start offsets in ns, or null. */
    default long[] traceOffsetsNs()
    {
        return null;
    }

    /**
     * @return the filler that rebuilds this workload's requests offline from the seed alone, so that {@link #hash()}
     * can be regenerated and compared with a record's; null when the requests depend on the server's timing.
     */
    default LoadGenerator.RequestFiller offlineFiller()
    {
        return null;
    }
}
