package io.tokenclock.transport;

import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.RequestSlot;

/**
 * A client that sends streaming completion requests and feeds each response, read by read and with each read's
 * stamp, to the measurement core. What the runner sees of a {@link Transport}; {@link StreamClients#open} picks the
 * transport by {@code measurement.stamping}. The outcome of every submitted slot arrives at the collector as an end record,
 * whatever happens.
 */
public interface StreamClient extends AutoCloseable
{
    /** Keeps each simulated user on one connection (session affinity). Call before the run. */
    StreamClient stickyUsers(int users);

    /**
     * Opens up to {@code count} connections and keeps them idle for the first requests, waiting at most
     * {@code timeoutMs}. Call before the run, from one thread.
     *
     * @return the connections that opened in time.
     */
    int preconnect(int count, long timeoutMs) throws InterruptedException;

    /** Sends the request held by {@code slot}. Thread-safe, non-blocking. */
    void submit(RequestSlot slot);

    /** @return where this client publishes chunk and end records. */
    ChunkRecords records();

    /** @return the I/O transport in use, in words ({@code epoll}, {@code nio}, {@code recvmsg epoll}...). */
    String transport();

    /** @return how this client's reads were stamped so far. Thread-safe; exact once the client is idle. */
    StampingReport stamping();

    /** Cancels every request in flight and every request waiting to be retried. Thread-safe. */
    void cancelAll();

    @Override
    void close();
}
