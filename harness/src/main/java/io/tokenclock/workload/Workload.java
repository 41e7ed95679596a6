package io.tokenclock.workload;

import java.util.List;

import io.tokenclock.load.LoadGenerator;

/** What the runner needs of any workload: its requests, and what identifies it in the record. */
public interface Workload extends LoadGenerator.RequestFiller
{
    /** @return a hex SHA-256 identifying the requests built so far (see each implementation). Call once, at the end. */
    String hash();

    /** @return requests built so far. */
    long requests();

    /** @return requests whose prompt missed its exact token count. */
    long residualRequests();

    /** @return a one-line description for the record. */
    String describe();

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

    /** @return a trace's own start offsets in ns, or null. */
    default long[] traceOffsetsNs()
    {
        return null;
    }

    /** @return true when {@link #hash()} can be regenerated offline from the seed (false when it depends on timing). */
    default boolean replayable()
    {
        return true;
    }
}
