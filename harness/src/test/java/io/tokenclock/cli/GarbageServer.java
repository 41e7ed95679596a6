package io.tokenclock.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A loopback "server" that answers every connection with bytes that are no HTTP: a NUL, a 0xFF, and an
 * {@code ESC ] 0 ; ... BEL} sequence that would retitle a terminal, then hangs up. For tests that what a server sent
 * reaches the console escaped, on every path.
 */
final class GarbageServer implements AutoCloseable
{
    /** What it answers. */
    static final byte[] GARBAGE = "\0\377\033]0;pwned\007 not http\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

    private final ServerSocket socket;
    private final Thread acceptor;

    GarbageServer() throws IOException
    {
        socket = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofVirtual().start(this::serve);
    }

    String baseUrl()
    {
        return "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
    }

    private void serve()
    {
        while (!socket.isClosed())
        {
            try (Socket s = socket.accept())
            {
                s.setSoTimeout(2000);
                s.getInputStream().read(new byte[8192]);
                s.getOutputStream().write(GARBAGE);
            }
            catch (final IOException ex)
            {
                // closed, or the client hung up first: the next connection is answered the same way
            }
        }
    }

    /** @return true if {@code text} holds no control character (C0 but a line feed, DEL, C1). */
    static boolean printable(final String text)
    {
        return text.chars().noneMatch(c -> c < 0x20 && c != '\n' || c >= 0x7f && c <= 0x9f);
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
        try
        {
            acceptor.join(5000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
