package io.tokenclock.recording;

/**
 * Counts a finished request's output tokens with the harness's own tokenizer, on the request stage's thread (per
 * request, never per chunk). Supplied by the runner when a tokenizer is configured, so that the core knows no
 * tokenizer.
 */
@FunctionalInterface
public interface TokenCounter
{
    /** @return the output tokens of the slot's text (answer and reasoning), or -1 if they cannot be counted. */
    long count(RequestSlot slot);
}
