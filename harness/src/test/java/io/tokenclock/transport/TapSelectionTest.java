package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.tokenclock.transport.kernel.PacketTap;

/**
 * {@code --packet-tap}: {@code auto} takes the tap where the process may open a packet socket and the target's
 * interface is known, and otherwise says why in one line; {@code off} opens nothing and says nothing; an interface
 * named is opened or its failure said. The system's answers come from a probe written here, so that every case runs
 * without root (the real probe's cases are in {@code PacketTapSelectionIT}).
 */
final class TapSelectionTest
{
    private static final InetAddress TARGET = InetAddress.getLoopbackAddress();

    /** Answers as told, and records what was opened (the tap itself is never opened: {@code open} throws or says). */
    private static final class Probe implements TapSelection.Probe
    {
        private final String privilege;
        private final String iface;
        private final String openFails;
        private final List<String> opened = new ArrayList<>();

        Probe(final String privilege, final String iface, final String openFails)
        {
            this.privilege = privilege;
            this.iface = iface;
            this.openFails = openFails;
        }

        @Override
        public String privilegeReason()
        {
            return privilege;
        }

        @Override
        public String interfaceOf(final InetAddress target) throws IOException
        {
            if (iface == null)
            {
                throw new IOException("no route to " + target.getHostAddress());
            }
            return iface;
        }

        @Override
        public PacketTap open(final String interfaceName, final InetAddress server, final int port,
            final int stampingThreads) throws IOException
        {
            opened.add(interfaceName + ":" + port + ":" + stampingThreads);
            throw new IOException(openFails);
        }
    }

    private static TapSelection.Outcome select(final String flag, final Probe probe)
    {
        return TapSelection.select(PacketTapChoice.parse(flag), TARGET, 8000, 2, probe);
    }

    @Test
    void shouldTapTheTargetsInterfaceWhenThePacketSocketOpens()
    {
        final Probe privileged = new Probe(null, "lo", "opened (the test's probe opens nothing)");
        final TapSelection.Outcome o = select("auto", privileged);
        assertEquals(List.of("lo:8000:2"), privileged.opened, "the interface the target answers on, for its port");
        assertEquals("lo", o.interfaceName());
        assertTrue(o.reason().startsWith("auto: a packet socket may be opened, and 127.0.0.1 answers on lo"),
            o.reason());
        assertEquals("opened (the test's probe opens nothing)", o.error(), "a failure to open is said");
        assertTrue(o.note().contains(o.error()), o.note());
    }

    @Test
    void shouldSayWhyInOneLineWhenThereIsNoCapNetRaw()
    {
        final Probe unprivileged = new Probe("a packet tap needs CAP_NET_RAW (run as root, ...)", "lo", "unused");
        final TapSelection.Outcome o = select(null, unprivileged);
        assertEquals(PacketTapChoice.DEFAULT, o.choice(), "no flag: the default");
        assertEquals(List.of(), unprivileged.opened, "nothing opened");
        assertNull(o.tap());
        assertNull(o.error(), "not an error: the default found no tap to take");
        assertEquals("auto: a packet tap needs CAP_NET_RAW (run as root, ...)", o.reason());
        assertEquals(1, o.note().lines().count());
        assertTrue(o.note().startsWith("stamping: no packet tap (auto: a packet tap needs CAP_NET_RAW"), o.note());
    }

    @Test
    void shouldSayWhyWhenTheTargetsInterfaceIsNotKnown()
    {
        final Probe noRoute = new Probe(null, null, "unused");
        final TapSelection.Outcome o = select("auto", noRoute);
        assertEquals(List.of(), noRoute.opened);
        assertTrue(o.reason().startsWith("auto: the interface 127.0.0.1 answers on is not known: no route to"),
            o.reason());
        assertTrue(o.note().contains(o.reason()), o.note());
    }

    @Test
    void shouldOpenNothingAndSayNothingWhenOff()
    {
        final Probe privileged = new Probe(null, "lo", "unused");
        final TapSelection.Outcome o = select("off", privileged);
        assertEquals(List.of(), privileged.opened);
        assertEquals("--packet-tap off", o.reason());
        assertNull(o.note());
    }

    @Test
    void shouldForceANamedInterfaceWhateverTheRouteAndSayWhenItCannotBeOpened()
    {
        final Probe probe = new Probe(null, "lo", "no network interface named 'eth9'");
        final TapSelection.Outcome o = select("eth9", probe);
        assertEquals(List.of("eth9:8000:2"), probe.opened);
        assertEquals("--packet-tap eth9", o.reason());
        assertEquals("no network interface named 'eth9'", o.error());
        assertEquals("stamping: no packet tap (no network interface named 'eth9'): reads that a stall merged in the " +
            "socket keep its stamp (--packet-tap off says so without this line)", o.note());
    }

    @Test
    void shouldTellTheUserStampingClientThatTheTapIsTheKernelClientsOnly()
    {
        assertNull(TapSelection.userStamping(PacketTapChoice.parse("auto")).error(), "auto: recorded, not said");
        assertTrue(TapSelection.userStamping(PacketTapChoice.parse("lo")).error().contains("user stamping"));
    }

    @Test
    void shouldParseTheFlagsWordsAndRefuseWhatCannotBeAnInterfacesName()
    {
        assertEquals(PacketTapChoice.AUTO_CHOICE, PacketTapChoice.parse("AUTO"));
        assertEquals(PacketTapChoice.OFF_CHOICE, PacketTapChoice.parse("off"));
        assertEquals("eth0", PacketTapChoice.parse("eth0").interfaceName());
        assertEquals("auto", PacketTapChoice.DEFAULT.flagValue());
        for (final String bad : List.of("", "a/b", "eth 0", "0123456789abcdef", ".."))
        {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PacketTapChoice.parse(bad));
            assertTrue(e.getMessage().startsWith("--packet-tap must be auto, off or a network interface's name"),
                e.getMessage());
        }
    }
}
