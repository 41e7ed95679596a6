package io.tokenclock.quality;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One built-in check of a request's output. Implementations are immutable and thread-safe, except that a command
 * check starts a process per sample.
 */
public interface Check
{
    /** @return the check's name as the contract writes it ({@code exact}, {@code numeric}, ...). */
    String name();

    /** @return whether the check reads the output text (every check but {@code finish_stop}). */
    default boolean needsText()
    {
        return true;
    }

    /** @return whether the check compares with the request's reference, which only dataset entries carry. */
    default boolean needsReference()
    {
        return false;
    }

    /** @return the verdict on one sample. */
    Outcome check(Sample sample);

    /** @return the check as the record states it: its name and parameters. */
    ObjectNode describe();
}
