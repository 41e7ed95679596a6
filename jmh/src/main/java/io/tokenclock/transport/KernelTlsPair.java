package io.tokenclock.transport;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Comparator;
import java.util.stream.Stream;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

import io.netty.buffer.ByteBufAllocator;

import io.tokenclock.fixtures.ThrowawayTls;
import io.tokenclock.jmh.StampedLoopback;
import io.tokenclock.transport.kernel.KernelStamps;
import io.tokenclock.transport.kernel.StampedSocket;

/**
 * The kernel-stamped client's TLS read over a real loopback TCP connection, for {@code TlsReadBenchmark}. The client
 * side is production code: a {@link StampedSocket} with receive stamps, read with {@link StampedSocket#readRecord}
 * (one whole record per read while more waits), and a {@link KernelTls} whose engine comes from the client's own
 * {@link TlsTrust#nettyContext()} (here trusting the pair's throwaway certificate, host name checked), exactly as
 * {@code KernelStreamClient.newTls} makes it. The server side is a JDK {@link SSLEngine} over a plain NIO socket on
 * the caller's thread: {@link #serverWrap} encrypts one event into one record, {@link #serverWrite} sends it in one
 * write, as a {@code TCP_NODELAY} server writes an event.
 * <p>
 * The certificate is a {@link ThrowawayTls} (SAN {@code ip:127.0.0.1}) made in a temporary folder;
 * {@link #close} deletes it. It lives in
 * the transport's package, in the benchmarks' jar, so that {@code KernelTls} stays package-private; it wires it and
 * holds no logic of its own beyond the server's side. Linux x86-64 only ({@link KernelStamps#unavailableReason}).
 */
public final class KernelTlsPair implements AutoCloseable, KernelTls.Plaintext
{
    private static final int SPINS = 1_000_000;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final Path dir;
    private final StampedLoopback connection;
    private final StampedSocket socket;
    private final SocketChannel server;
    private final KernelTls tls;
    private final SSLEngine serverEngine;
    private final ByteBuffer serverIn;
    private final ByteBuffer serverApp;
    /** The server's ciphertext to send; direct, so that {@link #serverRecord} reads it in place. */
    private final ByteBuffer serverOut;
    private final MemorySegment serverOutSegment;
    private long plaintextBytes;

    /** Opens the pair and completes the TLS handshake (and the server's session tickets) over it. */
    public KernelTlsPair() throws IOException, GeneralSecurityException, InterruptedException
    {
        dir = Files.createTempDirectory("tokenclock-tls-pair");
        final ThrowawayTls identity = ThrowawayTls.make(dir, "ip:127.0.0.1");
        final Path pem = identity.certificatePem();
        connection = StampedLoopback.open(true);
        socket = connection.socket();
        server = connection.peer();
        server.configureBlocking(false);
        final int port = connection.port();
        tls = new KernelTls(new TlsTrust(pem, false).nettyContext().newEngine(ByteBufAllocator.DEFAULT,
            "127.0.0.1", port));
        serverEngine = identity.serverContext().createSSLEngine();
        serverEngine.setUseClientMode(false);
        final int packet = serverEngine.getSession().getPacketBufferSize();
        serverIn = ByteBuffer.allocate(packet * 2);
        serverApp = ByteBuffer.allocate(serverEngine.getSession().getApplicationBufferSize());
        serverOut = ByteBuffer.allocateDirect(packet * 2);
        serverOutSegment = MemorySegment.ofBuffer(serverOut);
        handshake();
    }

    /** @return the client's socket (its last read's kernel stamp: {@link StampedSocket#lastStampNs()}). */
    public StampedSocket socket()
    {
        return socket;
    }

    /** The server encrypts {@code event} into one record, held for {@link #serverWrite} or {@link #serverRecord}. */
    public void serverWrap(final ByteBuffer event) throws SSLException
    {
        serverOut.clear();
        final SSLEngineResult r = serverEngine.wrap(event, serverOut);
        if (r.getStatus() != SSLEngineResult.Status.OK || event.hasRemaining())
        {
            throw new IllegalStateException("the server's wrap: " + r);
        }
    }

    /** @return the bytes of the record {@link #serverWrap} made. */
    public int serverRecordBytes()
    {
        return serverOut.position();
    }

    /** @return the record {@link #serverWrap} made, {@code [0, serverRecordBytes())}, in native memory. */
    public MemorySegment serverRecord()
    {
        return serverOutSegment;
    }

    /** The server sends the record {@link #serverWrap} made, in one write (loopback queues it within the call). */
    public void serverWrite() throws IOException
    {
        serverOut.flip();
        for (int i = 0; i < SPINS && serverOut.hasRemaining(); i++)
        {
            server.write(serverOut);
        }
        if (serverOut.hasRemaining())
        {
            throw new IllegalStateException("the client's socket took no more");
        }
    }

    /**
     * The client's TLS step of one read, after the stamped read of {@code data[0, length)}: the ciphertext handed to
     * the engine ({@link KernelTls#receive}: a copy to the heap) and every whole record held decrypted
     * ({@link KernelTls#unwrap}), each record's plaintext to the sink, as {@code KernelConnection.onCiphertext} does.
     *
     * @return plaintext bytes the step delivered (0 while a record is not all there).
     */
    public long decrypt(final MemorySegment data, final int length) throws SSLException
    {
        plaintextBytes = 0;
        tls.receive(data, length);
        tls.unwrap(this);
        return plaintextBytes;
    }

    @Override
    public void plaintext(final byte[] src, final int length)
    {
        plaintextBytes += length; // where the connection hands src to its HTTP decoder
    }

    private void handshake() throws IOException
    {
        tls.begin();
        serverEngine.beginHandshake();
        for (int i = 0; i < SPINS && !(tls.handshaken() && serverDone()); i++)
        {
            clientFlush();
            serverStep();
            final int n = socket.readRecord();
            if (n > 0)
            {
                tls.receive(socket.data(), n);
                if (tls.handshake())
                {
                    tls.unwrap(this);
                }
            }
        }
        if (!tls.handshaken() || !serverDone())
        {
            throw new IllegalStateException("the TLS handshake did not complete");
        }
        clientFlush();
        // what the server sent after its Finished (TLS 1.3 session tickets) is read now, not by the first operation
        for (int quiet = 0, i = 0; quiet < 1_000 && i < SPINS; i++)
        {
            final int n = socket.readRecord();
            quiet = n > 0 ? 0 : quiet + 1;
            if (n > 0 && decrypt(socket.data(), n) > 0)
            {
                throw new IllegalStateException("plaintext before any was sent");
            }
        }
    }

    private boolean serverDone()
    {
        final SSLEngineResult.HandshakeStatus s = serverEngine.getHandshakeStatus();
        return s == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING || s == SSLEngineResult.HandshakeStatus.FINISHED;
    }

    private void clientFlush()
    {
        for (int i = 0; i < SPINS && tls.outputBytes() > 0; i++)
        {
            final long n = socket.send(tls.output(), tls.outputBytes());
            if (n > 0)
            {
                tls.sent(n);
            }
        }
    }

    /** One round of the server's handshake: what the client sent taken, tasks run, what it wants sent written. */
    private void serverStep() throws IOException
    {
        server.read(serverIn);
        for (int i = 0; i < 64 && !serverDone(); i++)
        {
            switch (serverEngine.getHandshakeStatus())
            {
                case NEED_TASK ->
                {
                    Runnable task;
                    while ((task = serverEngine.getDelegatedTask()) != null)
                    {
                        task.run();
                    }
                }
                case NEED_WRAP ->
                {
                    serverWrap(EMPTY.duplicate());
                    serverWrite();
                }
                default ->
                {
                    serverIn.flip();
                    serverApp.clear();
                    final SSLEngineResult r = serverEngine.unwrap(serverIn, serverApp);
                    serverIn.compact();
                    if (r.getStatus() != SSLEngineResult.Status.OK || r.bytesConsumed() == 0)
                    {
                        return; // wants more of the client's bytes
                    }
                }
            }
        }
    }

    @Override
    public void close() throws IOException
    {
        connection.close();
        try (Stream<Path> files = Files.walk(dir))
        {
            for (final Path f : files.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(f);
            }
        }
    }
}
