package io.tokenclock.jmh;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import io.tokenclock.transport.kernel.KernelStamps;
import io.tokenclock.transport.kernel.StampedSocket;

/**
 * A loopback TCP connection for the kernel path's benchmarks: the client's end is a {@link StampedSocket} (with or
 * without receive stamps), the other a JDK channel with {@code TCP_NODELAY}, so that one write is one segment, as a
 * server that flushes each event writes it. Linux x86-64 only: opening one elsewhere fails at once, naming why.
 */
public final class StampedLoopback implements AutoCloseable
{
    private static final int CONNECT_POLLS = 1_000;

    private final ServerSocketChannel listener;
    private final StampedSocket socket;
    private final SocketChannel peer;

    private StampedLoopback(final ServerSocketChannel listener, final StampedSocket socket, final SocketChannel peer)
    {
        this.listener = listener;
        this.socket = socket;
        this.peer = peer;
    }

    /**
     * Connects, and waits (at most a second) until the stamped end has finished connecting.
     *
     * @param receiveStamps whether the stamped end asks the kernel for receive stamps.
     */
    public static StampedLoopback open(final boolean receiveStamps) throws IOException, InterruptedException
    {
        if (KernelStamps.unavailableReason() != null)
        {
            throw new IllegalStateException("kernel stamps: " + KernelStamps.unavailableReason());
        }
        final ServerSocketChannel listener = ServerSocketChannel.open()
            .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        final int port = ((InetSocketAddress)listener.getLocalAddress()).getPort();
        final StampedSocket socket = StampedSocket.connect(InetAddress.getLoopbackAddress(), port, receiveStamps);
        final SocketChannel peer = listener.accept();
        peer.socket().setTcpNoDelay(true);
        for (int i = 0; i < CONNECT_POLLS && socket.finishConnect() != 0; i++)
        {
            Thread.sleep(1);
        }
        return new StampedLoopback(listener, socket, peer);
    }

    /** @return the client's end, stamped by the kernel. */
    public StampedSocket socket()
    {
        return socket;
    }

    /** @return the other end (blocking until the caller configures it otherwise). */
    public SocketChannel peer()
    {
        return peer;
    }

    /** @return the port the peer listens on. */
    public int port() throws IOException
    {
        return ((InetSocketAddress)listener.getLocalAddress()).getPort();
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
        peer.close();
        listener.close();
    }
}
