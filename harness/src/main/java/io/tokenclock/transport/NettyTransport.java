package io.tokenclock.transport;

import java.util.Locale;
import java.util.function.Consumer;

/**
 * Netty's transport: its epoll (or NIO) event loops read, and each read is stamped with {@code System.nanoTime()}
 * on the loop that read it ({@link StreamingClient}, {@link ResponseHandler}). Serves every endpoint everywhere, so it
 * is also where a run that asked for kernel stamps goes when it cannot have them ({@link #fallback}).
 */
final class NettyTransport implements Transport
{
    /** The name in {@code record.json}. */
    static final String NAME = "netty";

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Stamping stamping()
    {
        return Stamping.USER;
    }

    @Override
    public String unavailable(final ClientSettings settings)
    {
        return null;
    }

    @Override
    public StreamClient open(final ClientSettings settings, final Consumer<String> note)
    {
        return open(settings, StampingReport.user(null), note);
    }

    /**
     * @param why why the transport asked for cannot serve the run, said already in one line.
     * @return Netty's client, whose record says {@code user} stamps with {@code why}.
     */
    static StreamClient fallback(final ClientSettings settings, final String why, final Consumer<String> note)
    {
        return open(settings, StampingReport.user(why), note);
    }

    private static StreamClient open(final ClientSettings s, final StampingReport user, final Consumer<String> note)
    {
        return new StreamingClient(s.endpoint(), s.clock(), s.records(), s.headers(), s.maxConnections(),
            s.ioThreads(), s.limits(), s.busyPoll(), s.trust(), withoutTap(s, user, note));
    }

    /**
     * A packet tap serves only the kernel client: with user stamps it is not opened, and the record says so; a run that
     * named an interface is told in one line, one that left it to {@code auto} is not (the line that said why the
     * stamps are the user's, if any, is enough).
     */
    private static StampingReport withoutTap(final ClientSettings s, final StampingReport user,
        final Consumer<String> note)
    {
        final TapSelection.Outcome o = TapSelection.userStamping(s.packetTap());
        if (o.error() != null)
        {
            note.accept("stamping: no packet tap (" + o.error() + ")");
        }
        return user.withPacketTap(StampingReport.PacketTap.none(s.packetTap().mode().name().toLowerCase(Locale.ROOT),
            o.interfaceName(), o.reason(), o.error()));
    }
}
