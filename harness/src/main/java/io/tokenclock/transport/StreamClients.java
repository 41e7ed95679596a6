package io.tokenclock.transport;

import java.util.List;
import java.util.function.Consumer;

/**
 * Picks the run's {@link Transport} by {@code measurement.stamping} and opens its client: the kernel-stamped one (the
 * default) or Netty's (user stamps, {@code --stamping user}). When the transport asked for cannot serve the run here
 * (for kernel stamps: another OS or CPU, a kernel that refuses the socket option, a test clock such as
 * {@code ManualNanoClock}, whose time the kernel's stamps are not on), it says why in one line and returns Netty's
 * client, whose record then says {@code user} with that reason: the default never fails a run, and never hides that
 * it fell back.
 */
public final class StreamClients
{
    /** Every transport, one per stamping. */
    private static final List<Transport> TRANSPORTS = List.of(new KernelTransport(), new NettyTransport());

    private StreamClients()
    {
    }

    /**
     * @param note where the one line of a fallback goes.
     * @return the client, not yet connected.
     */
    public static StreamClient open(final ClientSettings s, final Consumer<String> note)
    {
        final Transport asked = transport(s.stamping());
        final String unavailable = asked.unavailable(s);
        if (unavailable == null)
        {
            return asked.open(s, note);
        }
        note.accept("stamping: " + asked.stamping().label() + " receive stamps are not available (" + unavailable +
            "): every read is stamped in user space (measurement.stamping = user in record.json)");
        return NettyTransport.fallback(s, unavailable, note);
    }

    /** @return the transport whose reads are stamped as {@code stamping} says. */
    public static Transport transport(final Stamping stamping)
    {
        for (final Transport t : TRANSPORTS)
        {
            if (t.stamping() == stamping)
            {
                return t;
            }
        }
        throw new IllegalArgumentException("no transport stamps " + stamping.label());
    }

    /** @return why the kernel-stamped client cannot serve these settings here, or null when it can. */
    static String kernelUnavailable(final ClientSettings s)
    {
        return transport(Stamping.KERNEL).unavailable(s);
    }
}
