package io.tokenclock.transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * A TLS peer in memory, for {@link KernelTls} without a socket: the handshake pumped between the client and a server
 * engine, then records the server encrypted beforehand, handed to the client one at a time as a read would.
 */
final class InMemoryTls
{
    private InMemoryTls()
    {
    }

    /** Runs the handshake between {@code client} and {@code server} to its end (bounded). */
    static void handshake(final KernelTls client, final SSLEngine server) throws SSLException
    {
        final ByteBuffer toClient = ByteBuffer.allocate(64 * 1024);
        final ByteBuffer toServer = ByteBuffer.allocate(64 * 1024);
        final ByteBuffer app = ByteBuffer.allocate(server.getSession().getApplicationBufferSize());
        final MemorySegment native16k = Arena.ofAuto().allocate(64 * 1024);
        server.beginHandshake();
        client.begin();
        for (int turn = 0; turn < 100 && !(client.handshaken() && serverDone(server)); turn++)
        {
            final int out = client.outputBytes();
            MemorySegment.copy(client.output(), ValueLayout.JAVA_BYTE, 0, toServer.array(), toServer.position(), out);
            toServer.position(toServer.position() + out);
            client.sent(out);
            toServer.flip();
            pumpServer(server, toServer, toClient, app);
            toServer.compact();
            toClient.flip();
            final int n = toClient.remaining();
            MemorySegment.copy(toClient.array(), toClient.position(), native16k, ValueLayout.JAVA_BYTE, 0, n);
            toClient.clear();
            if (n > 0)
            {
                client.receive(native16k, n);
                if (client.handshaken())
                {
                    client.unwrap((src, length) -> {});
                }
                else
                {
                    client.handshake();
                }
            }
        }
        if (!client.handshaken())
        {
            throw new IllegalStateException("handshake did not finish");
        }
    }

    private static boolean serverDone(final SSLEngine server)
    {
        return server.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING;
    }

    private static void pumpServer(final SSLEngine server, final ByteBuffer in, final ByteBuffer out,
        final ByteBuffer app) throws SSLException
    {
        for (int step = 0; step < 50; step++)
        {
            switch (server.getHandshakeStatus())
            {
                case NEED_TASK ->
                {
                    Runnable task;
                    while ((task = server.getDelegatedTask()) != null)
                    {
                        task.run();
                    }
                }
                case NEED_WRAP -> server.wrap(ByteBuffer.allocate(0), out);
                case NEED_UNWRAP ->
                {
                    if (!in.hasRemaining())
                    {
                        return;
                    }
                    app.clear();
                    final SSLEngineResult r = server.unwrap(in, app);
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW)
                    {
                        return;
                    }
                }
                default ->
                {
                    return;
                }
            }
        }
    }

    /** Runs the handshake between two bare engines (a baseline client without {@link KernelTls}), bounded. */
    static void handshake(final SSLEngine client, final SSLEngine server) throws SSLException
    {
        final ByteBuffer toServer = ByteBuffer.allocate(64 * 1024);
        final ByteBuffer toClient = ByteBuffer.allocate(64 * 1024);
        final ByteBuffer app = ByteBuffer.allocate(64 * 1024);
        client.beginHandshake();
        server.beginHandshake();
        for (int turn = 0; turn < 100 && !(serverDone(client) && serverDone(server)); turn++)
        {
            toClient.flip();
            pumpServer(client, toClient, toServer, app);
            toClient.compact();
            toServer.flip();
            pumpServer(server, toServer, toClient, app);
            toServer.compact();
        }
        toClient.flip();
        while (toClient.hasRemaining())
        {
            app.clear();
            client.unwrap(toClient, app); // a session ticket after the handshake
        }
    }

    /** Records encrypted beforehand, in order. */
    record Records(MemorySegment bytes, int[] ends, int plaintextBytes)
    {
        /**
         * Hands records {@code [from, to)} to {@code client}, each copied into {@code read} first as a socket's read
         * fills its buffer, and decrypts each.
         */
        void deliver(final KernelTls client, final KernelTls.Plaintext sink, final MemorySegment read, final int from,
            final int to) throws SSLException
        {
            for (int i = from; i < to; i++)
            {
                final int start = i == 0 ? 0 : ends[i - 1];
                MemorySegment.copy(bytes, start, read, 0, ends[i] - start);
                client.receive(read, ends[i] - start);
                client.unwrap(sink);
            }
        }

        /** Decrypts records {@code [from, to)} with a bare engine, as {@link #deliver} does through KernelTls. */
        void unwrapBare(final SSLEngine client, final ByteBuffer netIn, final ByteBuffer appIn, final int from,
            final int to) throws SSLException
        {
            for (int i = from; i < to; i++)
            {
                final int start = i == 0 ? 0 : ends[i - 1];
                netIn.clear();
                MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, start, netIn.array(), 0, ends[i] - start);
                netIn.limit(ends[i] - start);
                appIn.clear();
                client.unwrap(netIn, appIn);
            }
        }
    }

    /** @return {@code count} records of {@code plaintext}, each encrypted by {@code server}. */
    static Records records(final SSLEngine server, final int count, final byte[] plaintext) throws SSLException
    {
        final ByteBuffer wire = ByteBuffer.allocate(count * (plaintext.length + 64));
        final int[] ends = new int[count];
        for (int i = 0; i < count; i++)
        {
            server.wrap(ByteBuffer.wrap(plaintext), wire);
            ends[i] = wire.position();
        }
        final MemorySegment bytes = Arena.ofAuto().allocate(wire.position());
        MemorySegment.copy(wire.array(), 0, bytes, ValueLayout.JAVA_BYTE, 0, wire.position());
        return new Records(bytes, ends, plaintext.length);
    }
}
