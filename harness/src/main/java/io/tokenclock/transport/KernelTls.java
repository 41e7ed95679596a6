package io.tokenclock.transport;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

import io.tokenclock.transport.kernel.StampedSocket;

/**
 * TLS for one kernel-stamped connection: the {@link SSLEngine} and its buffers, driven by the connection's loop. The
 * socket is read first and stamped ({@link StampedSocket#readRecord}: one whole record per read while more waits);
 * the ciphertext is then handed here ({@link #receive}) and decrypted ({@link #unwrap}), so that the plaintext of a
 * record is delivered within the read that completed it and takes that read's stamp. Nothing here touches the socket:
 * what the engine wants sent waits in {@link #output()} for the connection to write.
 * <p>
 * The engine comes from the same Netty {@code SslContext} as Netty's client ({@link TlsTrust#nettyContext()}): the same
 * trust managers, host name verification, SNI, protocols and cipher suites, so that a certificate the Netty path
 * refuses is refused here with the same exception, classified by the same {@link ErrorClassifier} rule.
 * <p>
 * Steady state allocates nothing of its own: the buffers are sized at the start and grown only for a record or a
 * request larger than any before. The JDK's engine itself allocates per record (an {@link SSLEngineResult}, its
 * cipher's state: 1,624 bytes a TLS 1.3 record, measured in {@code KernelTlsIT}, the same as a bare engine's).
 * One thread (the loop's).
 */
final class KernelTls
{
    /** Where decrypted bytes go: {@code src[0, length)}, valid only during the call. */
    interface Plaintext
    {
        void plaintext(byte[] src, int length);
    }

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final SSLEngine engine;
    /** Ciphertext read and not yet decrypted; between calls in write mode (position = bytes held). */
    private ByteBuffer netIn;
    /** Decrypted bytes of one record. */
    private ByteBuffer appIn;
    /** Ciphertext to send: {@code [sentAt, position)}. Direct, so that the socket sends from it without a copy. */
    private ByteBuffer netOut;
    private MemorySegment netOutSegment;
    private int sentAt;
    private boolean handshaken;
    private boolean inboundDone;

    KernelTls(final SSLEngine engine)
    {
        this.engine = engine;
        final int packet = engine.getSession().getPacketBufferSize();
        this.netIn = ByteBuffer.allocate(packet + StampedSocket.READ_BYTES);
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        this.netOut = ByteBuffer.allocateDirect(packet * 2);
        this.netOutSegment = MemorySegment.ofBuffer(netOut);
    }

    /** Starts the client's handshake; its first flight is then in {@link #output()}. */
    void begin() throws SSLException
    {
        engine.beginHandshake();
        handshake();
    }

    boolean handshaken()
    {
        return handshaken;
    }

    /** @return whether the peer's close_notify came: the stream has ended. */
    boolean inboundDone()
    {
        return inboundDone;
    }

    /** Holds the ciphertext a read took, {@code data[0, length)}, for the engine. */
    void receive(final MemorySegment data, final int length)
    {
        if (netIn.remaining() < length)
        {
            final ByteBuffer bigger = ByteBuffer.allocate(Math.max(netIn.capacity() * 2, netIn.position() + length));
            netIn.flip();
            netIn = bigger.put(netIn);
        }
        MemorySegment.copy(data, ValueLayout.JAVA_BYTE, 0, netIn.array(), netIn.arrayOffset() + netIn.position(),
            length);
        netIn.position(netIn.position() + length);
    }

    /**
     * Takes the handshake as far as the bytes held allow: runs the engine's tasks (certificate checks) inline, puts
     * what it wants sent in {@link #output()}.
     *
     * @return whether the handshake is done.
     * @throws SSLException a refused certificate, a handshake alert, bytes that are not TLS.
     */
    boolean handshake() throws SSLException
    {
        while (!handshaken)
        {
            switch (engine.getHandshakeStatus())
            {
                case NEED_TASK -> runTasks();
                case NEED_WRAP -> wrap(EMPTY);
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN ->
                {
                    if (netIn.position() == 0 || !unwrapOnce(null))
                    {
                        return false;
                    }
                }
                default -> handshaken = true;
            }
        }
        return true;
    }

    /**
     * Decrypts every whole record held, handing each one's plaintext to {@code sink}. A record not all read yet
     * stays held. A close_notify sets {@link #inboundDone}; what the engine answers (a key update, its own
     * close_notify) goes to {@link #output()}.
     */
    void unwrap(final Plaintext sink) throws SSLException
    {
        while (netIn.position() > 0 && !inboundDone && unwrapOnce(sink))
        {
            while (engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK)
            {
                runTasks();
            }
            if (engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP)
            {
                wrap(EMPTY);
            }
        }
    }

    /**
     * One {@code unwrap} of what is held; its plaintext, if any, to {@code sink}.
     *
     * @return whether it went on (a record consumed, or room made); false when a record is not all there yet, or the
     * peer closed.
     */
    private boolean unwrapOnce(final Plaintext sink) throws SSLException
    {
        netIn.flip();
        final SSLEngineResult r;
        try
        {
            appIn.clear();
            r = engine.unwrap(netIn, appIn);
        }
        finally
        {
            netIn.compact();
        }
        if (appIn.position() > 0 && sink != null)
        {
            sink.plaintext(appIn.array(), appIn.position());
        }
        switch (r.getStatus())
        {
            case BUFFER_OVERFLOW ->
            {
                appIn = ByteBuffer.allocate(Math.max(appIn.capacity() * 2,
                    engine.getSession().getApplicationBufferSize()));
                return true;
            }
            case CLOSED ->
            {
                inboundDone = true;
                return false;
            }
            case OK ->
            {
                return r.bytesConsumed() > 0 || r.bytesProduced() > 0;
            }
            default ->
            {
                return false;
            }
        }
    }

    private void runTasks()
    {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null)
        {
            task.run();
        }
    }

    /** Encrypts {@code plain[0, length)} (the request) into {@link #output()}. */
    void wrapRequest(final MemorySegment plain, final long length) throws SSLException
    {
        wrap(plain.asSlice(0, length).asByteBuffer());
    }

    private void wrap(final ByteBuffer src) throws SSLException
    {
        do
        {
            final SSLEngineResult r = engine.wrap(src, netOut);
            if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW)
            {
                growOutput(engine.getSession().getPacketBufferSize());
            }
            else if (r.getStatus() == SSLEngineResult.Status.CLOSED)
            {
                return;
            }
            else if (r.bytesConsumed() == 0 && r.bytesProduced() == 0 && src.hasRemaining())
            {
                // the engine wants something else first (a renegotiation): never loop on it
                throw new SSLException("TLS: the engine took none of the request (handshake status " +
                    r.getHandshakeStatus() + ")");
            }
            if (r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK)
            {
                runTasks();
            }
        }
        while (src.hasRemaining());
    }

    /** Makes room for {@code bytes} more in {@link #netOut}, keeping what is not sent yet. */
    private void growOutput(final int bytes)
    {
        final ByteBuffer bigger = ByteBuffer.allocateDirect(Math.max(netOut.capacity() * 2,
            netOut.position() - sentAt + bytes));
        netOut.flip().position(sentAt);
        bigger.put(netOut);
        netOut = bigger;
        netOutSegment = MemorySegment.ofBuffer(netOut);
        sentAt = 0;
    }

    /** @return the ciphertext waiting to be sent, from its first unsent byte; see {@link #outputBytes()}. */
    MemorySegment output()
    {
        return sentAt == 0 ? netOutSegment : netOutSegment.asSlice(sentAt);
    }

    /** @return bytes waiting to be sent. */
    int outputBytes()
    {
        return netOut.position() - sentAt;
    }

    /** {@code n} bytes of {@link #output()} were written. */
    void sent(final long n)
    {
        sentAt += (int)n;
        if (sentAt == netOut.position())
        {
            netOut.clear();
            sentAt = 0;
        }
    }

    /**
     * Ends the outbound side: the close_notify (or, after a failed handshake, the engine's alert) is then in
     * {@link #output()}, for one write that does not wait.
     */
    void closeOutbound()
    {
        engine.closeOutbound();
        try
        {
            wrap(EMPTY);
        }
        catch (final SSLException | RuntimeException e)
        {
            // the connection is closing: an alert that cannot be made is not sent
        }
    }
}
