package io.tokenclock.transport;

import java.util.function.Consumer;

/**
 * A way to read responses off the network and stamp each read: what a run's client is chosen by
 * ({@link StreamClients#open}), and what {@code record.json} names ({@code measurement.stamping.transport}).
 * <p>
 * A transport owns its sockets, its I/O threads and its reads; everything after a read is stamped is the
 * {@link Exchange}'s, one copy for every transport: HTTP decoding, the response's head, the hand-off to the SSE framer
 * and the records, usage, time limits, retries and error classes. So a new transport is a reader that stamps bytes
 * and hands them to an {@link Exchange}, an {@link Exchange.Connection} that keeps its connections, a
 * {@link StreamClient} that owns them, and one of these, which {@link StreamClients} picks for the stamping it serves.
 * Two so far: {@code netty} (user stamps, {@link StreamingClient}) and {@code kernel} (the kernel's receive stamps,
 * {@link KernelStreamClient}).
 */
public interface Transport
{
    /** @return its name in {@code record.json} ({@code netty}, {@code kernel}). */
    String name();

    /** @return what stamps its reads. */
    Stamping stamping();

    /**
     * @return why this transport cannot serve {@code settings} here (another OS, a kernel that refuses the socket
     * option, a test clock), or null when it can.
     */
    String unavailable(ClientSettings settings);

    /**
     * @param note where one-line notes go (a packet tap that could not be opened, a first fallback read).
     * @return the client, not yet connected.
     */
    StreamClient open(ClientSettings settings, Consumer<String> note);
}
