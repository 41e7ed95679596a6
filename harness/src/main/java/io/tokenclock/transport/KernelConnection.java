package io.tokenclock.transport;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import io.netty.channel.ConnectTimeoutException;

import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.transport.kernel.ErrorQueue;
import io.tokenclock.transport.kernel.LinuxNet;
import io.tokenclock.transport.kernel.PacketTap;
import io.tokenclock.transport.kernel.ReadBatch;
import io.tokenclock.transport.kernel.StampedSocket;

/**
 * One keep-alive connection of the kernel-stamped client, carrying one request at a time: it writes the request,
 * reads the response with {@link StampedSocket#readEvent} (each read stamped by the kernel), and hands each read's
 * bytes with its stamp to its {@link Exchange}, the same as Netty's {@code ResponseHandler}'s: the kernel client's
 * reader and {@link Exchange.Connection}. What is left here is the socket's: connect, handshake, writes, send stamps,
 * the reads and their stamps, and the limits as times its loop looks at. Its loop's thread only.
 * <p>
 * Over https the reads are {@link StampedSocket#readRecord} (one whole TLS record per read while more waits) and the
 * ciphertext goes through {@link KernelTls} after the read is stamped: the plaintext of a record is decoded within the
 * read that completed it, with that read's stamp. The connection is ready for a request once TCP is connected and the
 * handshake is done; {@code --connect-timeout} covers both, and the handshake also has Netty's own limit of 10 s.
 */
final class KernelConnection implements Exchange.Connection, KernelTls.Plaintext
{
    /** Netty's {@code SslHandler} default handshake limit, so that both clients give up on a handshake alike. */
    static final long HANDSHAKE_NS = 10_000_000_000L;

    private final KernelLoop loop;
    private final int id;
    /** The run's number of this connection (requests.jsonl {@code connection}): unique, as Netty's client numbers. */
    private final int number;
    private final StampedSocket socket;
    /** TLS of this connection; null for plain http. */
    private final KernelTls tls;
    private final Exchange exchange;
    private final Arena arena = Arena.ofShared();
    private final long connectDeadlineNs;
    private MemorySegment out;
    private long outLength;
    private long outAt;
    private RequestSlot waiting;
    private CountDownLatch preconnected;
    private AtomicInteger opened;
    private boolean connected;
    /** Connected and, over https, the handshake done: requests can go. */
    private boolean ready;
    private long handshakeDeadlineNs = Long.MAX_VALUE;
    private boolean open = true;
    /** The previous read's raw kernel stamp on this connection, to count reads that share it. */
    private long lastKernelStampNs = -1;
    /** The raw kernel stamp of the last piece that carried a content chunk, to count chunks that share it. */
    private long lastContentStampNs = -1;
    private long cancelAtNs = Long.MAX_VALUE;
    private int user = -1;
    /** The request in flight waits for its send stamp: the one whose key reaches {@link #requestLastByte}. */
    private boolean awaitingSendStamp;
    /** The key (offset since send stamps were turned on) of the request's last byte; for TLS, of its ciphertext. */
    private long requestLastByte;

    /** @param tls the connection's TLS, or null for plain http. */
    KernelConnection(final KernelLoop loop, final int id, final StampedSocket socket, final KernelTls tls,
        final RequestSlot waiting, final CountDownLatch preconnected, final AtomicInteger opened)
    {
        this.loop = loop;
        this.id = id;
        this.number = loop.client().nextConnectionNumber();
        this.socket = socket;
        this.tls = tls;
        this.waiting = waiting;
        this.preconnected = preconnected;
        this.opened = opened;
        final RequestLimits limits = loop.settings().limits();
        this.exchange = new Exchange(loop.settings().clock(), loop.settings().records(), limits,
            loop.settings().endpoint().api(), this, loop);
        if (waiting == null)
        {
            exchange.markPreopened();
        }
        this.connectDeadlineNs = limits.connectNs() > 0 ? loop.settings().clock().nanoTime() + limits.connectNs() :
            Long.MAX_VALUE;
        this.out = arena.allocate(4096, 8);
    }

    int id()
    {
        return id;
    }

    int fd()
    {
        return socket.fd();
    }

    boolean isOpen()
    {
        return open;
    }

    boolean busy()
    {
        return exchange.active() || !ready;
    }

    /** What epoll said of this socket. */
    void onReady(final int events)
    {
        if (!open)
        {
            return;
        }
        if (!connected)
        {
            if ((events & (LinuxNet.EPOLLOUT | LinuxNet.EPOLLERR | LinuxNet.EPOLLHUP)) != 0)
            {
                finishConnect();
            }
            return;
        }
        if ((events & LinuxNet.EPOLLERR) != 0 && socket.txStamps())
        {
            // a send stamp queued on the error queue (epoll reports it as EPOLLERR until the queue is read)
            readSendStamps();
        }
        if ((events & LinuxNet.EPOLLOUT) != 0 && pendingBytes() > 0)
        {
            flush();
        }
        if ((events & (LinuxNet.EPOLLIN | LinuxNet.EPOLLRDHUP | LinuxNet.EPOLLHUP | LinuxNet.EPOLLERR)) != 0)
        {
            readAvailable();
        }
    }

    private void finishConnect()
    {
        final int error = socket.finishConnect();
        if (error != 0)
        {
            failConnect(new ConnectException("connect to " + loop.client().address().getHostAddress() + ":" +
                loop.settings().endpoint().port() + " failed: " + (error == 111 ? "Connection refused" :
                "errno " + error)));
            return;
        }
        connected = true;
        enableSendStamps();
        if (tls != null)
        {
            startHandshake();
            return;
        }
        loop.watch(this, false);
        onConnectionReady();
    }

    /** Connected and nothing sent yet: the moment the kernel takes keyed send stamps (docs/ACCURACY.md). */
    private void enableSendStamps()
    {
        if (socket.timestamps() && !socket.enableTxStamps(loop.client().sendStampFlags()))
        {
            loop.sendStampsRefused(socket.lastErrno());
        }
    }

    /** Connected, and over https the handshake done: a waiting request goes, or the connection joins the idle ones. */
    private void onConnectionReady()
    {
        ready = true;
        handshakeDeadlineNs = Long.MAX_VALUE;
        if (preconnected != null)
        {
            opened.incrementAndGet();
            preconnected.countDown();
            preconnected = null;
        }
        final RequestSlot slot = waiting;
        waiting = null;
        if (slot != null)
        {
            send(slot);
        }
        else
        {
            loop.release(this, -1);
        }
    }

    private void startHandshake()
    {
        handshakeDeadlineNs = loop.settings().clock().nanoTime() + HANDSHAKE_NS;
        loop.deadlineArmed(handshakeDeadlineNs);
        try
        {
            tls.begin();
        }
        catch (final SSLException e)
        {
            failHandshake(e);
            return;
        }
        flush();
    }

    /** The handshake failed: the engine's alert goes out if it can without waiting, then as a failed connect. */
    private void failHandshake(final SSLException cause)
    {
        tls.closeOutbound();
        if (tls.outputBytes() > 0)
        {
            socket.send(tls.output(), tls.outputBytes());
        }
        failConnect(cause);
    }

    private void failConnect(final Throwable cause)
    {
        final RequestSlot slot = waiting;
        waiting = null;
        if (preconnected != null)
        {
            preconnected.countDown();
            preconnected = null;
        }
        close();
        if (slot != null)
        {
            final ErrorClassifier.Classified failure = ErrorClassifier.connectFailure(cause, loop.settings().limits());
            loop.client().failUnsent(slot, failure.error(), failure.detail());
        }
    }

    /** Starts {@code slot}'s request on this idle, connected connection. */
    void send(final RequestSlot slot)
    {
        user = slot.user;
        lastContentStampNs = -1;
        encode(slot);
        exchange.begin(slot, loop.settings().limits(), number);
        if (tls != null)
        {
            try
            {
                tls.wrapRequest(out, outLength);
            }
            catch (final SSLException e)
            {
                final ErrorClassifier.Classified failure = ErrorClassifier.writeFailure(e);
                exchange.abort(failure.error(), failure.detail());
                return;
            }
        }
        slot.sentKernelNs = 0;
        awaitingSendStamp = socket.txStamps();
        requestLastByte = socket.sentBytes() + pendingBytes() - 1;
        flush();
    }

    /** Writes the request head and body into {@link #out}, growing it when a body needs more. */
    private void encode(final RequestSlot slot)
    {
        final byte[] head = loop.client().requestHead();
        final byte[] length = (Integer.toString(slot.bodyLength) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        final long total = (long)head.length + length.length + slot.bodyLength;
        if (total > out.byteSize())
        {
            out = arena.allocate(Math.max(total, out.byteSize() * 2), 8);
        }
        MemorySegment.copy(head, 0, out, ValueLayout.JAVA_BYTE, 0, head.length);
        MemorySegment.copy(length, 0, out, ValueLayout.JAVA_BYTE, head.length, length.length);
        MemorySegment.copy(slot.body, 0, out, ValueLayout.JAVA_BYTE, head.length + length.length, slot.bodyLength);
        outLength = total;
        outAt = 0;
    }

    /** @return bytes waiting to be written: the request, or over https whatever the engine has made. */
    private long pendingBytes()
    {
        return tls != null ? tls.outputBytes() : outLength - outAt;
    }

    private void flush()
    {
        while (pendingBytes() > 0)
        {
            final long n = socket.send(tls != null ? tls.output() : out.asSlice(outAt), pendingBytes());
            if (n == -1)
            {
                loop.watch(this, true);
                return;
            }
            if (n < 0)
            {
                final IOException failed = new IOException("send failed, errno " + socket.lastErrno());
                if (!ready)
                {
                    failConnect(failed);
                    return;
                }
                exchange.writeFailed(failed);
                return;
            }
            if (tls != null)
            {
                tls.sent(n);
            }
            else
            {
                outAt += n;
            }
        }
        loop.watch(this, false);
        if (awaitingSendStamp)
        {
            // all of the request is with the kernel: on loopback its stamp is queued already, else it comes later
            readSendStamps();
        }
    }

    /**
     * Reads the error queue (never blocking, a bounded number of messages): the request in flight takes the first
     * send stamp whose key reaches its last byte, converted to the run's clock; stamps of earlier bytes (the
     * handshake, a partial write, an earlier request) are read and dropped, so the queue never fills. It stops at
     * the request's own stamp: no later byte has been sent, so the next read would only find the queue empty, and
     * that read was a third of the send stamp's cost (SendStampBenchmark, results/jmh/kernel-stamps). Anything still
     * queued keeps EPOLLERR raised, and the loop reads it then.
     */
    private void readSendStamps()
    {
        for (int i = 0; i < KernelLoop.READS_PER_EVENT && open; i++)
        {
            if (socket.readSendStamp() < 0)
            {
                return;
            }
            final long key = socket.lastSendKey();
            final long stamp = socket.lastSendStampNs();
            if (awaitingSendStamp && exchange.active() && key >= 0 && stamp >= 0 &&
                ErrorQueue.covers(key, requestLastByte))
            {
                final RequestSlot slot = exchange.slot();
                slot.sentKernelNs = loop.sendStamp(slot.sentNs, stamp);
                awaitingSendStamp = false;
                return;
            }
        }
    }

    /** The request ends: a send stamp still queued is taken now; a request without one is counted. */
    private void settleSendStamp()
    {
        if (awaitingSendStamp)
        {
            readSendStamps();
        }
        if (awaitingSendStamp)
        {
            awaitingSendStamp = false;
            loop.sendUnstamped();
        }
    }

    /**
     * Reads what is queued, every event with its own stamp: over plain http in batches ({@link #readPlain}); over
     * https a TLS record per read while more waits ({@link #readRecords}).
     */
    private void readAvailable()
    {
        if (tls != null)
        {
            readRecords();
        }
        else
        {
            readPlain();
        }
    }

    /**
     * Plain http: each call takes what is queued, cut at every event's end, and stamps each piece on its own. Without
     * the packet tap, one peek and one {@code recvmmsg} with a message per event, each with the kernel's stamp of its
     * own last segment ({@link StampedSocket#readEvents}); with it, one read of everything queued, each piece
     * stamped by the tap's arrival of the segment that carried its last byte ({@link StampedSocket#readSplit}).
     */
    private void readPlain()
    {
        final PacketTap tap = loop.client().tap();
        final ReadBatch batch = loop.batch();
        // at most READS_PER_EVENT events per readiness, as when each was a read of its own: one busy stream waits
        int events = 0;
        while (events < KernelLoop.READS_PER_EVENT && open)
        {
            final int pieces = tap != null ? socket.readSplit(batch) : socket.readEvents(batch);
            if (!readOutcome(pieces))
            {
                return;
            }
            events += pieces;
            final int bytes = batch.end(pieces - 1);
            final long startOffset = socket.receivedBytes() - bytes;
            MemorySegment.copy(socket.data(), ValueLayout.JAVA_BYTE, 0, loop.readBuffer(), 0, bytes);
            int from = 0;
            for (int k = 0; k < pieces && open; k++)
            {
                final int to = batch.end(k);
                final long socketStampNs = batch.stamp(k);
                // Every piece, not only those a stall merged: the tap's stamp is taken earlier in the receive path
                // than the socket's, so a mix of the two would put the difference into the gaps (docs/ACCURACY.md).
                final long kernelStampNs = tap != null ? loop.tapStamp(tap, socket.localPort(), startOffset + to,
                    socketStampNs) : socketStampNs;
                final boolean backlog = k < pieces - 1 || batch.moreQueued();
                final boolean fromTap = tap != null && loop.lastTapHit();
                onPiece(from, to - from, kernelStampNs, fromTap, loop.stamp(kernelStampNs, backlog,
                    shares(kernelStampNs)));
                from = to;
            }
            if (!batch.moreQueued())
            {
                // The read took all that was queued when it looked. Another would nearly always find nothing (EAGAIN);
                // the epoll set is level-triggered, so bytes that came since are reported by the next epoll_wait.
                return;
            }
        }
    }

    /** @return whether a read returned bytes to stamp; else it has ended the request or the connection as it must. */
    private boolean readOutcome(final int n)
    {
        if (n == -1)
        {
            return false;
        }
        if (n < 0)
        {
            if (!exchange.resentOnNewConnection())
            {
                final ErrorClassifier.Classified failure = ErrorClassifier.readFailure(
                    new IOException("recvmsg failed, errno " + socket.lastErrno()));
                abortOrClose(failure.error(), failure.detail());
            }
            return false;
        }
        if (n == 0)
        {
            onEndOfStream();
            return false;
        }
        return true;
    }

    /** @return whether a read's kernel stamp is the previous read's on this connection (and remembers it). */
    private boolean shares(final long kernelStampNs)
    {
        final boolean shared = kernelStampNs >= 0 && kernelStampNs == lastKernelStampNs;
        lastKernelStampNs = kernelStampNs;
        return shared;
    }

    /** Over https: a TLS record per read while more waits, each stamped, then decrypted ({@link #onRead}). */
    private void readRecords()
    {
        final PacketTap tap = loop.client().tap();
        for (int i = 0; i < KernelLoop.READS_PER_EVENT && open; i++)
        {
            final int n = socket.readRecord();
            if (!readOutcome(n))
            {
                return;
            }
            final boolean backlog = socket.lastReadWasBacklog();
            final long socketStampNs = socket.lastStampNs();
            final long kernelStampNs = tap != null ? loop.tapStamp(tap, socket.localPort(), socket.receivedBytes(),
                socketStampNs) : socketStampNs;
            final boolean fromTap = tap != null && loop.lastTapHit();
            onRead(n, kernelStampNs, fromTap, loop.stamp(kernelStampNs, backlog, shares(kernelStampNs)));
            if (!backlog && n < StampedSocket.READ_BYTES)
            {
                return; // all that was queued when it peeked (as readPlain)
            }
        }
    }

    /**
     * One piece of a plain read, {@code readBuffer[from, from + length)}: decoded with its stamp, and its content
     * chunks counted, with those that took the stamp of the content chunk before them on this connection.
     */
    private void onPiece(final int from, final int length, final long kernelStampNs, final boolean fromTap,
        final long stampNs)
    {
        stamped(stampNs);
        final long before = exchange.contentChunksEver();
        exchange.read(loop.readBuffer(), from, length);
        countChunks(before, kernelStampNs, fromTap);
    }

    /**
     * Bytes cannot be there before the bytes before them, nor before the request went out: a stamp earlier than the
     * last one (a converted stamp's own error, a reassembled segment) takes the last one.
     */
    private void stamped(final long stampNs)
    {
        exchange.stamped(Math.max(stampNs, exchange.lastReadNs()));
    }

    /**
     * Counts the content chunks a read published since {@code before}: every one after the first shares the read's
     * stamp, and so does the first when the last content chunk's read had the same kernel stamp.
     */
    private void countChunks(final long before, final long kernelStampNs, final boolean fromTap)
    {
        final int chunks = (int)(exchange.contentChunksEver() - before);
        if (chunks > 0)
        {
            final boolean sameAsLast = kernelStampNs >= 0 && kernelStampNs == lastContentStampNs;
            lastContentStampNs = kernelStampNs;
            // the request's index of this read's first chunk: the second (index 1) shares the first's stamp when it
            // came in the read after it with the same stamp, or in the same read
            final int first = exchange.contentChunks() - chunks;
            final boolean second = first <= 1 && first + chunks > 1;
            loop.chunks(chunks, chunks - (sameAsLast ? 0 : 1), first == 0, second && (first == 0 || sameAsLast),
                fromTap);
        }
    }

    private void onRead(final int n, final long kernelStampNs, final boolean fromTap, final long stampNs)
    {
        stamped(stampNs);
        final long before = exchange.contentChunksEver();
        onCiphertext(n);
        countChunks(before, kernelStampNs, fromTap);
    }

    /**
     * Over https: the ciphertext of the read just stamped goes to the engine; during the handshake it advances it,
     * after it each whole record's plaintext is decoded with {@link Exchange#lastReadNs}, the stamp of the read that
     * completed the record. Bytes on an idle connection are still decrypted (TLS 1.3 session tickets come after the
     * handshake); only plaintext there is the server misbehaving.
     */
    private void onCiphertext(final int n)
    {
        tls.receive(socket.data(), n);
        try
        {
            if (!ready && !handshakeStep())
            {
                return;
            }
            tls.unwrap(this);
        }
        catch (final SSLException e)
        {
            if (!ready)
            {
                failHandshake(e);
                return;
            }
            final ErrorClassifier.Classified failure = ErrorClassifier.readFailure(e);
            abortOrClose(failure.error(), failure.detail());
            return;
        }
        if (open && tls.outputBytes() > 0)
        {
            flush();
        }
        if (open && tls.inboundDone())
        {
            onEndOfStream();
        }
    }

    /** @return whether the handshake is done (the connection then ready); its bytes to send are sent. */
    private boolean handshakeStep() throws SSLException
    {
        final boolean done = tls.handshake();
        flush();
        if (done && open)
        {
            onConnectionReady();
        }
        return done && open;
    }

    @Override
    public void plaintext(final byte[] src, final int length)
    {
        // a read of the response is a record of its plaintext: handshake and session-ticket reads are not
        exchange.read(src, 0, length);
    }

    private void onEndOfStream()
    {
        if (!ready)
        {
            // closed during the handshake: Netty's client ends its request with these words too
            abortOrClose(ErrorClass.STREAM_CUT, "connection closed before the response ended");
            return;
        }
        exchange.closedByPeer();
        close();
    }

    @Override
    public void arm(final RequestSlot slot, final long armedNs)
    {
        cancelAtNs = slot.cancelAfterNs > 0 ? armedNs + slot.cancelAfterNs : Long.MAX_VALUE;
        loop.deadlineArmed(Math.min(exchange.nextDeadlineNs(), cancelAtNs));
    }

    /** The idle limit now counts, from this read: it may be the earliest. */
    @Override
    public void firstRead()
    {
        loop.deadlineArmed(nextDeadlineNs());
    }

    /** The request's send stamp: taken now if still queued, or counted as missing; a resend is stamped anew. */
    @Override
    public void requestEnded(final boolean resending)
    {
        if (resending)
        {
            awaitingSendStamp = false;
        }
        else
        {
            settleSendStamp();
        }
    }

    @Override
    public void reuseOrClose(final boolean keepAlive)
    {
        if (keepAlive && open)
        {
            loop.release(this, user);
        }
        else
        {
            close();
        }
    }

    /** @return the earliest time this connection must be looked at: a limit of its request, or its connect. */
    long nextDeadlineNs()
    {
        if (!open)
        {
            return Long.MAX_VALUE;
        }
        if (!ready)
        {
            return Math.min(connectDeadlineNs, handshakeDeadlineNs);
        }
        return exchange.active() ? Math.min(exchange.nextDeadlineNs(), cancelAtNs) : Long.MAX_VALUE;
    }

    /** Ends the request (or the connect) whose limit has run out at {@code nowNs}. */
    void checkDeadlines(final long nowNs)
    {
        if (!open)
        {
            return;
        }
        if (!ready)
        {
            if (nowNs >= connectDeadlineNs)
            {
                failConnect(new ConnectTimeoutException("connect timed out"));
            }
            else if (nowNs >= handshakeDeadlineNs)
            {
                // Netty's words for its own handshake limit (SslHandshakeTimeoutException), classed alike
                failHandshake(new SSLHandshakeException("handshake timed out after " + HANDSHAKE_NS / 1_000_000 +
                    "ms"));
            }
            return;
        }
        if (exchange.active() && !exchange.expire(nowNs) && nowNs >= cancelAtNs)
        {
            exchange.cancelByRule();
        }
    }

    /** Ends the request in flight, if any, with {@code error}, and closes the connection. */
    void abort(final ErrorClass error, final String detail)
    {
        if (!ready && waiting != null)
        {
            final RequestSlot slot = waiting;
            waiting = null;
            close();
            loop.client().failUnsent(slot, error, detail);
            return;
        }
        exchange.abort(error, detail);
    }

    /** Ends the request in flight, or the one waiting for this connection's handshake, else just closes. */
    private void abortOrClose(final ErrorClass error, final String detail)
    {
        if (exchange.active() || !ready && waiting != null)
        {
            abort(error, detail);
        }
        else
        {
            close();
        }
    }

    @Override
    public void close()
    {
        if (open)
        {
            open = false;
            if (preconnected != null)
            {
                preconnected.countDown();
                preconnected = null;
            }
            if (tls != null && ready)
            {
                // close_notify, if the socket takes it now; a close never waits for the peer
                tls.closeOutbound();
                if (tls.outputBytes() > 0)
                {
                    socket.send(tls.output(), tls.outputBytes());
                }
            }
            loop.forget(this);
            final PacketTap tap = loop.client().tap();
            if (tap != null && socket.localPort() > 0)
            {
                tap.forget(socket.localPort());
            }
            socket.close();
            arena.close();
        }
    }
}
