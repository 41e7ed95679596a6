package io.tokenclock.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

import io.tokenclock.fixtures.ThrowawayTls;

/**
 * An https server on 127.0.0.1 for the kernel client's TLS tests: a certificate made here with {@code keytool} (no
 * default CA signed it; {@link #pem()} is it as PEM, for {@code --ca-cert}), and one chat-completions event stream per
 * request, keep-alive. Each event is one write, and so one TLS record, of one chunk; it carries its send stamp
 * ({@code "tc_sent_ns"}, {@code System.nanoTime()} taken just before the write, the client's clock on this machine),
 * and {@link #sentNs()} keeps them in order. Blocking JDK sockets, one thread per connection, all daemons.
 */
final class TlsSseServer implements AutoCloseable
{

    private final SSLServerSocket socket;
    private final ThrowawayTls identity;
    private final int events;
    private final long itlNs;
    private final List<Long> sentNs = Collections.synchronizedList(new ArrayList<>());
    private final Thread acceptor;

    private TlsSseServer(final SSLServerSocket socket, final ThrowawayTls identity, final int events,
        final long itlNs)
    {
        this.socket = socket;
        this.identity = identity;
        this.events = events;
        this.itlNs = itlNs;
        this.acceptor = new Thread(this::accept, "tls-sse-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * @param san the certificate's subject alternative names, as keytool takes them ({@code ip:127.0.0.1,...}).
     * @param events chunks per response, {@code itlMs} apart.
     */
    static TlsSseServer start(final Path dir, final String san, final int events, final double itlMs)
        throws Exception
    {
        final ThrowawayTls identity = ThrowawayTls.make(dir, san);
        final SSLServerSocket server = (SSLServerSocket)identity.serverContext().getServerSocketFactory()
            .createServerSocket(0, 16, InetAddress.getByName("127.0.0.1"));
        return new TlsSseServer(server, identity, events, (long)(itlMs * 1e6));
    }

    /** @return a server's context holding this server's key (for an engine of the test's own). */
    SSLContext serverContext()
    {
        return identity.serverContext();
    }

    int port()
    {
        return socket.getLocalPort();
    }

    String url()
    {
        return "https://127.0.0.1:" + port() + "/v1";
    }

    Path pem()
    {
        return identity.certificatePem();
    }

    /** @return every chunk's send stamp so far, in the order written. */
    List<Long> sentNs()
    {
        synchronized (sentNs)
        {
            return List.copyOf(sentNs);
        }
    }

    private void accept()
    {
        while (!socket.isClosed())
        {
            try
            {
                final SSLSocket s = (SSLSocket)socket.accept();
                final Thread t = new Thread(() -> serve(s), "tls-sse-conn");
                t.setDaemon(true);
                t.start();
            }
            catch (final IOException e)
            {
                return; // closed
            }
        }
    }

    private void serve(final SSLSocket s)
    {
        try (s)
        {
            s.setTcpNoDelay(true);
            final InputStream in = s.getInputStream();
            final OutputStream out = s.getOutputStream();
            while (readRequest(in))
            {
                respond(out);
            }
        }
        catch (final IOException e)
        {
            // a client that refused the certificate, or closed: nothing to serve
        }
    }

    /** @return false at the end of the stream. */
    private static boolean readRequest(final InputStream in) throws IOException
    {
        final ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0)
        {
            head.write(b);
            final byte[] h = head.toByteArray();
            final int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n')
            {
                in.readNBytes(contentLength(new String(h, StandardCharsets.ISO_8859_1)));
                return true;
            }
        }
        return false;
    }

    private static int contentLength(final String head)
    {
        for (final String line : head.split("\r\n"))
        {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:"))
            {
                return Integer.parseInt(line.substring("content-length:".length()).strip());
            }
        }
        return 0;
    }

    private void respond(final OutputStream out) throws IOException
    {
        out.write(("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        for (int i = 0; i < events; i++)
        {
            LockSupport.parkNanos(itlNs);
            final long sent = System.nanoTime();
            sentNs.add(sent);
            final String finish = i == events - 1 ? ",\"finish_reason\":\"stop\"" : "";
            chunk(out, "data: {\"choices\":[{\"delta\":{\"content\":\"t\"}" + finish + "}],\"tc_sent_ns\":" + sent +
                "}\n\n");
        }
        chunk(out, "data: [DONE]\n\n");
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** One chunk of the chunked body in one write: one TLS record. */
    private static void chunk(final OutputStream out, final String event) throws IOException
    {
        final byte[] body = event.getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(body.length) + "\r\n" + event + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
