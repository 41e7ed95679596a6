package io.tokenclock.recording;

/**
 * Told of every finished request, warmup included, on the {@link RequestStage}'s thread, after its metrics are derived
 * and before its slot is reused. Implementations (the {@code requests.jsonl} writer) may allocate and do buffered I/O:
 * this is per request, off the I/O threads and off the ring's consumer.
 */
@FunctionalInterface
public interface RequestListener
{
    /**
     * One finished request: {@code slot} and {@code metrics} are valid only during the call (the slot is reused after
     * it), so an implementation copies what it keeps.
     */
    void onRequestComplete(RequestSlot slot, RequestMetrics metrics);

    /**
     * Pushes what {@link #onRequestComplete} buffered to its destination; called by the stage at most
     * {@link RequestStage#FLUSH_INTERVAL_NS} after the first unflushed request, and when the stage stops.
     */
    default void flush()
    {
    }
}
