package io.tokenclock.transport;

import java.util.function.Consumer;

import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.transport.kernel.KernelStamps;

/**
 * Picks the client for a run by {@code measurement.stamping}: the kernel-stamped one (the default) or Netty's (user
 * stamps, {@code --stamping user}). When kernel stamps are asked but cannot be had (another OS or CPU, a kernel that
 * refuses the socket option, a test clock such as {@code ManualNanoClock}, whose time the kernel's stamps are not
 * on), it says why in one line and returns Netty's client, whose record then says {@code user} with that reason: the
 * default never fails a run, and never hides that it fell back.
 */
public final class StreamClients
{
    private StreamClients()
    {
    }

    /**
     * @param note where the one line of a fallback goes.
     * @return the client, not yet connected.
     */
    public static StreamClient open(final ClientSettings s, final Consumer<String> note)
    {
        if (s.stamping() == Stamping.KERNEL)
        {
            final String unavailable = kernelUnavailable(s);
            if (unavailable == null)
            {
                return new KernelStreamClient(s, note);
            }
            note.accept("stamping: kernel receive stamps are not available (" + unavailable + "): every read is " +
                "stamped in user space (measurement.stamping = user in record.json)");
            return netty(s, withoutTap(s, StampingReport.user(unavailable), note));
        }
        return netty(s, withoutTap(s, StampingReport.user(null), note));
    }

    /**
     * A packet tap serves only the kernel client: with user stamps it is not opened, and the record says so; a run that
     * named an interface is told in one line, one that left it to {@code auto} is not (the line above said why the
     * stamps are the user's).
     */
    private static StampingReport withoutTap(final ClientSettings s, final StampingReport user,
        final Consumer<String> note)
    {
        final TapSelection.Outcome o = TapSelection.userStamping(s.packetTap());
        if (o.error() != null)
        {
            note.accept("stamping: no packet tap (" + o.error() + ")");
        }
        return user.withPacketTap(StampingReport.PacketTap.none(
            s.packetTap().mode().name().toLowerCase(java.util.Locale.ROOT), o.interfaceName(), o.reason(),
            o.error()));
    }

    /** @return why the kernel-stamped client cannot serve these settings here, or null when it can. */
    static String kernelUnavailable(final ClientSettings s)
    {
        if (s.clock() != SystemNanoClock.INSTANCE)
        {
            return "the run's clock is not System.nanoTime()";
        }
        return KernelStamps.unavailableReason();
    }

    private static StreamingClient netty(final ClientSettings s, final StampingReport stamping)
    {
        return new StreamingClient(s.endpoint(), s.clock(), s.records(), s.headers(), s.maxConnections(),
            s.ioThreads(), s.limits(), s.busyPoll(), s.trust(), stamping);
    }
}
