package io.tokenclock.transport;

import java.io.IOException;
import java.net.InetAddress;

import io.tokenclock.transport.kernel.PacketTap;
import io.tokenclock.transport.kernel.TapRoute;

/**
 * Whether the kernel client stamps through a packet tap, and why: the one place {@code --packet-tap} is decided.
 * <p>
 * {@code auto} (the default, {@link PacketTapChoice#DEFAULT}) opens the tap when two things hold, each asked of the
 * kernel rather than guessed: the process may open a packet socket (it tries one: root without {@code CAP_NET_RAW}
 * may not, a user granted it may), and the interface the target's answers arrive on is known ({@link TapRoute}).
 * Otherwise the reads keep the socket's own stamps, as without a tap, and the reason is one line of the run's output
 * and {@code measurement.stamping.packet_tap.reason} in the record. {@code off} opens nothing; an interface named is
 * opened or said, in one line, to have failed.
 */
final class TapSelection
{
    /** What is asked of the system: a seam, so that a test can give each answer without root. */
    interface Probe
    {
        /** @return why no packet socket can be opened here, or null. */
        String privilegeReason();

        /** @return the interface {@code target}'s answers arrive on; an exception saying why it is not known. */
        String interfaceOf(InetAddress target) throws IOException;

        /** @return an open tap; an exception saying why not. */
        PacketTap open(String interfaceName, InetAddress server, int port, int stampingThreads) throws IOException;
    }

    /** The system's answers. */
    static final Probe SYSTEM = new Probe()
    {
        @Override
        public String privilegeReason()
        {
            return PacketTap.privilegeReason();
        }

        @Override
        public String interfaceOf(final InetAddress target) throws IOException
        {
            return TapRoute.interfaceOf(target);
        }

        @Override
        public PacketTap open(final String interfaceName, final InetAddress server, final int port,
            final int stampingThreads) throws IOException
        {
            return PacketTap.open(interfaceName, server, port, stampingThreads);
        }
    };

    /**
     * What was decided.
     *
     * @param tap           the open tap, or null.
     * @param choice        what the run asked.
     * @param interfaceName the interface tapped, named, or found for {@code auto}; null when none was.
     * @param reason        why the reads are stamped as they are, in a few words.
     * @param error         why a tap that was to be opened could not be, or null.
     */
    record Outcome(PacketTap tap, PacketTapChoice choice, String interfaceName, String reason, String error)
    {
        /** @return the one line a run prints about it, or null when there is nothing to say (a tap, or off). */
        String note()
        {
            if (tap != null || choice.mode() == PacketTapChoice.Mode.OFF)
            {
                return null;
            }
            return "stamping: no packet tap (" + (error != null ? error : reason) + "): reads that a stall merged " +
                "in the socket keep its stamp (--packet-tap off says so without this line)";
        }
    }

    private TapSelection()
    {
    }

    /**
     * @param server          the target's address.
     * @param port            the target's port.
     * @param stampingThreads the client's stamping threads (the tap's thread takes a core of its own beside them).
     */
    static Outcome select(final PacketTapChoice choice, final InetAddress server, final int port,
        final int stampingThreads, final Probe probe)
    {
        return switch (choice.mode())
        {
            case OFF -> new Outcome(null, choice, null, "--packet-tap off", null);
            case INTERFACE -> opened(choice, choice.interfaceName(), "--packet-tap " + choice.interfaceName(), server,
                port, stampingThreads, probe);
            case AUTO -> auto(choice, server, port, stampingThreads, probe);
        };
    }

    private static Outcome auto(final PacketTapChoice choice, final InetAddress server, final int port,
        final int stampingThreads, final Probe probe)
    {
        final String privilege = probe.privilegeReason();
        if (privilege != null)
        {
            return new Outcome(null, choice, null, "auto: " + privilege, null);
        }
        final String interfaceName;
        try
        {
            interfaceName = probe.interfaceOf(server);
        }
        catch (final IOException e)
        {
            return new Outcome(null, choice, null, "auto: the interface " + server.getHostAddress() + " answers " +
                "on is not known: " + e.getMessage(), null);
        }
        return opened(choice, interfaceName, "auto: a packet socket may be opened, and " +
            server.getHostAddress() + " answers on " + interfaceName, server, port, stampingThreads, probe);
    }

    private static Outcome opened(final PacketTapChoice choice, final String interfaceName, final String reason,
        final InetAddress server, final int port, final int stampingThreads, final Probe probe)
    {
        try
        {
            return new Outcome(probe.open(interfaceName, server, port, stampingThreads), choice, interfaceName,
                reason, null);
        }
        catch (final IOException e)
        {
            return new Outcome(null, choice, interfaceName, reason, e.getMessage());
        }
    }

    /** @return the outcome for a client that stamps in user space: no tap, whatever was asked. */
    static Outcome userStamping(final PacketTapChoice choice)
    {
        final String why = "user stamping: the tap serves only the kernel-stamped client";
        return choice.mode() == PacketTapChoice.Mode.OFF ? new Outcome(null, choice, null, "--packet-tap off", null) :
            new Outcome(null, choice, choice.interfaceName(), why,
                choice.mode() == PacketTapChoice.Mode.INTERFACE ? why : null);
    }
}
