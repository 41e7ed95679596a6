package io.tokenclock.transport;

import java.util.Map;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.ChunkRecords;

/**
 * What every client is built from, whatever its transport. Immutable (the headers are copied).
 *
 * @param endpoint       where requests go.
 * @param clock          the run's clock.
 * @param records        where chunk and end records are published.
 * @param headers        extra request headers (the Authorization header included, if any); never logged.
 * @param maxConnections cap on idle connections kept, normally the cap on requests in flight.
 * @param ioThreads      I/O threads; 0 for one per available processor.
 * @param limits         the per-request limits.
 * @param busyPoll       precision mode: the I/O threads poll without sleeping (Netty epoll only).
 * @param trust          which server certificates to accept (https endpoints only).
 * @param stamping       where each read's stamp comes from.
 * @param packetTap      what the run asks of the kernel client's packet tap ({@link PacketTapChoice}); null is
 *                       {@code off}.
 */
public record ClientSettings(Endpoint endpoint, NanoClock clock, ChunkRecords records, Map<String, String> headers,
    int maxConnections, int ioThreads, RequestLimits limits, boolean busyPoll, TlsTrust trust, Stamping stamping,
    PacketTapChoice packetTap)
{
    public ClientSettings
    {
        headers = Map.copyOf(headers);
        packetTap = packetTap == null ? PacketTapChoice.OFF_CHOICE : packetTap;
    }
}
