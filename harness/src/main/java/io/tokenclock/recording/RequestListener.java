package io.tokenclock.recording;

/**
 * Told of every finished request, warmup included, on the collector thread, after its metrics are derived and
 * before its slot is reused. Implementations (the {@code requests.jsonl} writer) may allocate and do I/O: this is
 * per request, off the I/O threads.
 */
@FunctionalInterface
public interface RequestListener
{
    void onRequestComplete(RequestSlot slot, RequestMetrics metrics);
}
