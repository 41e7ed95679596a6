package io.tokenclock.transport.kernel;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;

/**
 * Which network interface a target's answers arrive on, for the packet tap: the kernel's own answer, never a guess.
 * <p>
 * A loopback target, or one of this host's own addresses (Linux routes those through its {@code local} table, over
 * the loopback device, whatever interface holds them), arrives on the loopback interface. Anything else arrives on
 * the interface of the route to it: a UDP socket connected to the target sends nothing, but the kernel picks its
 * source address by that route ({@code getsockname}), and the interface holding that address is the route's. Worked
 * example: target 10.0.0.7 through a default route on {@code eth0} whose address is 10.0.0.2: the connected socket's
 * local address is 10.0.0.2, held by {@code eth0}. (Policy routing that sends the answers back on another interface
 * than the request goes out on is not seen here; {@code --packet-tap IFACE} names it.)
 */
public final class TapRoute
{
    private TapRoute()
    {
    }

    /**
     * @return the name of the interface {@code target}'s segments arrive on.
     * @throws IOException with one line saying why it is not known (no route, an address no interface holds).
     */
    public static String interfaceOf(final InetAddress target) throws IOException
    {
        if (target.isLoopbackAddress() || NetworkInterface.getByInetAddress(target) != null)
        {
            return loopbackName();
        }
        final InetAddress source;
        try (DatagramSocket probe = new DatagramSocket())
        {
            probe.connect(target, 9); // no datagram is sent: connect only asks the kernel for the route
            source = probe.getLocalAddress();
        }
        catch (final SocketException e)
        {
            throw new IOException("no route to " + target.getHostAddress() + " (" + e.getMessage() + ")", e);
        }
        final NetworkInterface holder = source == null || source.isAnyLocalAddress() ? null :
            NetworkInterface.getByInetAddress(source);
        if (holder == null)
        {
            throw new IOException("no interface holds the source address " + (source == null ? "?" :
                source.getHostAddress()) + " of the route to " + target.getHostAddress());
        }
        return holder.getName();
    }

    private static String loopbackName() throws IOException
    {
        final var all = NetworkInterface.networkInterfaces().toList();
        for (final NetworkInterface i : all)
        {
            if (i.isLoopback())
            {
                return i.getName();
            }
        }
        throw new IOException("this host has no loopback interface");
    }
}
