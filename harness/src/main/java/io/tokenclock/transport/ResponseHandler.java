package io.tokenclock.transport;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;

import io.tokenclock.api.Api;
import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.StreamRecorder;

/**
 * Per-connection adapter between Netty and the measurement core.
 * <p>
 * Two handlers share this state: {@link #stamper()} sits first in the pipeline, before TLS, and takes the one clock
 * reading per network read as the bytes arrive; this handler sits last, takes each read's bytes (decrypted, over
 * https) and decodes the response with {@link HttpResponseDecoder}, the kernel-stamped client's own decoder, feeding
 * the body bytes, with that stamp, to the {@link StreamRecorder}.
 * <p>
 * Why not Netty's {@code HttpClientCodec} for the response: it allocates per HTTP chunk (a {@code DefaultHttpContent},
 * a sliced buffer, and without {@code Unsafe} a {@code ByteBuffer} duplicate for the chunk-size line), and which of
 * those objects C2's escape analysis then takes away depended on the JIT's timing: the same read path measured 93,
 * 182 or 272 B a chunk from one JVM to the next (2026-12-03, {@code ReadPathAllocationGateTest}). One decoder for
 * both transports also means one reading of every response, and one set of protocol errors. A read's bytes are
 * decoded in place when its buffer is on the heap, and copied once into a reused array when it is direct
 * ({@link #copy}), so that the core sees plain bytes and knows nothing of Netty. Requests are still encoded by Netty's
 * {@code HttpRequestEncoder}.
 * <p>
 * All methods run on the channel's event loop.
 */
final class ResponseHandler extends ChannelInboundHandlerAdapter implements HttpResponseDecoder.Sink
{
    /** The largest direct read {@link #copy} moves without a {@code ByteBuffer} view. */
    static final int VIEWLESS_COPY_BYTES = 1024;
    /** {@code getLong} is big-endian: stored big-endian, the bytes keep their order. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final NanoClock clock;
    private final StreamRecorder recorder;
    private final ConnectionOwner client;
    private final ArrivalStamper stamper = new ArrivalStamper();
    private final Runnable onWatchdog = this::watchdog;
    private final Runnable onCancelRule = this::cancelByRule;
    private final Runnable sendPending = this::sendPending;
    private ScheduledFuture<?> cancelFuture;
    private RequestSlot pending;
    /** The user this connection is pinned to (session affinity), or -1. Event loop only. */
    int stickyUser = -1;
    private final int id;
    private int requestsCarried;
    /** Opened before t0 ({@link StreamingClient#preconnect}): its first request did not wait for a handshake. */
    private boolean preopened;
    private byte[] scratch = new byte[16 * 1024];

    private long lastReadNs;
    private boolean active;
    private ScheduledFuture<?> timeoutFuture;
    /** The limits of the request in flight, counted from its send stamp and its last read. */
    private final Deadlines deadlines = new Deadlines();
    private final HttpResponseDecoder decoder = new HttpResponseDecoder();
    private final ResponseHead head;
    private RequestLimits limits = RequestLimits.DEFAULT;
    private Channel channel;

    ResponseHandler(
        final NanoClock clock, final ChunkRecords records, final ConnectionOwner client, final Channel ch, final int id,
        final RequestLimits limits, final Api api)
    {
        this.id = id;
        this.clock = clock;
        this.recorder = new StreamRecorder(records, api.newParser(), limits.maxEventBytes(), limits.maxOutputBytes());
        this.head = new ResponseHead(api.streamed());
        this.client = client;
        this.channel = ch;
    }

    /**
     * Hands a request to this idle connection from any thread: one hop onto the channel's event loop, through a
     * pre-allocated task. The pool hands an idle connection to one request at a time, so one pending field is enough.
     */
    void sendLater(final RequestSlot slot)
    {
        pending = slot;
        channel.eventLoop().execute(sendPending);
    }

    private void sendPending()
    {
        final RequestSlot slot = pending;
        pending = null;
        client.send(this, slot);
    }

    /** @return the handler to install first in the pipeline. */
    ChannelInboundHandlerAdapter stamper()
    {
        return stamper;
    }

    /** Marks the connection as opened ahead of any request. Before its first request, from the opening thread. */
    void markPreopened()
    {
        preopened = true;
    }

    /** Starts a request on this connection; returns the send stamp. Event loop only. */
    long begin(final RequestSlot slot, final RequestLimits limits)
    {
        active = true;
        this.limits = limits;
        head.reset();
        decoder.reset();
        recorder.begin(slot);
        slot.connectionId = id;
        slot.newConnection = requestsCarried++ == 0 && !preopened;
        final long armedNs = clock.nanoTime();
        deadlines.start(limits, armedNs);
        armWatchdog(armedNs);
        if (slot.cancelAfterNs > 0)
        {
            cancelFuture = channel.eventLoop().schedule(onCancelRule, slot.cancelAfterNs, TimeUnit.NANOSECONDS);
        }
        final long sentNs = clock.nanoTime();
        slot.sentNs = sentNs;
        deadlines.resend(sentNs); // the deadlines count from the send stamp (armed a microsecond before)
        return sentNs;
    }

    Channel channel()
    {
        return channel;
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        try
        {
            if (!active)
            {
                // Bytes on an idle connection belong to no request: the server misbehaves; do not reuse it.
                ctx.channel().close();
                return;
            }
            if (deadlines.onRead())
            {
                // Once per request: the idle deadline starts to count now, and may be the earliest.
                rearmWatchdog();
            }
            if (msg instanceof ByteBuf buf)
            {
                decode(buf);
            }
        }
        finally
        {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Decodes one read's bytes: in place from a heap buffer, else after one copy into {@link #scratch}. */
    private void decode(final ByteBuf buf)
    {
        final int readable = buf.readableBytes();
        if (buf.hasArray())
        {
            decoder.decode(buf.array(), buf.arrayOffset() + buf.readerIndex(), readable, this);
        }
        else
        {
            if (readable > scratch.length)
            {
                scratch = new byte[Math.max(readable, scratch.length << 1)];
            }
            copy(buf, buf.readerIndex(), scratch, readable);
            decoder.decode(scratch, 0, readable, this);
        }
        if (active && decoder.failure() != null)
        {
            abort(ErrorClass.PROTOCOL, decoder.failureDetail());
        }
    }

    /**
     * Copies {@code src[index, index + length)} into {@code dst}, allocating nothing for a read of up to
     * {@link #VIEWLESS_COPY_BYTES}. Why not {@code getBytes}: without {@code sun.misc.Unsafe} (which Netty leaves
     * off on JDK 24 and later) a direct buffer of Netty 4.2's default allocator copies into an array through a fresh
     * {@code ByteBuffer} view ({@code getBytes} duplicates, {@code internalNioBuffer} slices): about 90 B a read,
     * which C2's escape analysis took away in some JVMs and not in others (182 or 272 B a chunk over the whole path,
     * 2026-12-03). Eight bytes at a time through {@code getLong} reads the buffer's memory in place. Above the
     * threshold one view, spread over that many bytes, costs less than the loop's bounds checks.
     * <p>
     * Worked example: a 217-byte content event in its 224-byte HTTP chunk is 28 {@code getLong}s and no object;
     * a 16 KiB read after a stall is one {@code getBytes} and one 64-byte view.
     */
    static void copy(final ByteBuf src, final int index, final byte[] dst, final int length)
    {
        if (length > VIEWLESS_COPY_BYTES)
        {
            src.getBytes(index, dst, 0, length);
            return;
        }
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            LONGS.set(dst, i, src.getLong(index + i));
        }
        for (; i < length; i++)
        {
            dst[i] = src.getByte(index + i);
        }
    }

    @Override
    public void head(final int status, final String contentType, final String retryAfter, final boolean keepAlive)
    {
        head.accept(recorder.slot(), lastReadNs, status, contentType, retryAfter, keepAlive);
    }

    @Override
    public void body(final byte[] src, final int offset, final int length)
    {
        if (!active)
        {
            return;
        }
        final ErrorClass stop = head.body(recorder, src, offset, length, lastReadNs);
        if (stop != ErrorClass.NONE)
        {
            abort(stop, recorder.stopDetail(stop));
        }
    }

    @Override
    public void end()
    {
        if (active)
        {
            complete();
        }
    }

    private void complete()
    {
        // The connection goes back to the pool before the end is published: the end frees the request's permit, and
        // a closed loop refilling at once must find this connection idle rather than open a new one. A request that
        // takes it queues behind this task on this event loop, so it cannot start before the end below.
        if (!head.keepAlive())
        {
            channel.close();
        }
        client.release(this);
        final RequestSlot slot = recorder.slot();
        if (RetryPolicy.retries(head.status(), slot.retries429, limits))
        {
            retryLater(slot);
        }
        else
        {
            final ErrorClassifier.Classified outcome = head.completed();
            end(lastReadNs, outcome.error(), outcome.detail());
        }
    }

    /** Ends the request in flight, if any, with {@code error}; closes the connection. Event loop only. */
    void abort(final ErrorClass error, final String detail)
    {
        if (active)
        {
            end(clock.nanoTime(), error, detail);
            channel.close();
        }
    }

    /** The request's write failed: sent again on a new connection if this one was stale, else ended as the failure. */
    void writeFailed(final Throwable cause)
    {
        if (!resentOnNewConnection())
        {
            final ErrorClassifier.Classified failure = ErrorClassifier.writeFailure(cause);
            abort(failure.error(), failure.detail());
        }
    }

    /**
     * The request in flight went out on a kept connection that closed before any byte of its answer: it is sent again
     * on a new connection, once ({@link RetryPolicy#resendsOnNewConnection}), and this one is closed.
     *
     * @return whether it was; false leaves the request to end as the caller says.
     */
    private boolean resentOnNewConnection()
    {
        if (!active || !RetryPolicy.resendsOnNewConnection(recorder.slot(), decoder.untouched()))
        {
            return false;
        }
        final RequestSlot slot = recorder.slot();
        stopTimers();
        recorder.detach();
        client.onRequestEnded(this);
        slot.staleResends++;
        channel.close();
        client.sendOnNewConnection(slot);
        return true;
    }

    private void cancelByRule()
    {
        cancelFuture = null;
        abort(ErrorClass.CANCEL_RULE, StreamRecorder.CANCEL_RULE_DETAIL);
    }

    /**
     * One timer per request, not one per read: it fires at the earliest deadline still open (total; first byte while
     * nothing has come; idle after the last read once something has), and either ends the request with that class or
     * sets itself again. A read costs nothing here but the stamp the stamper takes anyway.
     */
    private void armWatchdog(final long nowNs)
    {
        final long next = nextDeadlineNs();
        if (next != Long.MAX_VALUE)
        {
            timeoutFuture = channel.eventLoop().schedule(onWatchdog, Math.max(0, next - nowNs), TimeUnit.NANOSECONDS);
        }
    }

    private void rearmWatchdog()
    {
        if (timeoutFuture != null)
        {
            timeoutFuture.cancel(false);
            timeoutFuture = null;
        }
        armWatchdog(clock.nanoTime());
    }

    private long nextDeadlineNs()
    {
        return deadlines.nextNs(lastReadNs);
    }

    private void watchdog()
    {
        timeoutFuture = null;
        if (!active)
        {
            return;
        }
        final long now = clock.nanoTime();
        final ErrorClass expired = deadlines.expired(now, lastReadNs);
        if (expired != ErrorClass.NONE)
        {
            abort(expired, deadlines.detail(expired));
        }
        else
        {
            armWatchdog(now);
        }
    }

    private void end(final long endNs, final ErrorClass error, final String detail)
    {
        stopTimers();
        recorder.finish(endNs, error, detail);
        client.onRequestEnded(this);
    }

    /**
     * {@code --retry-429} ({@link RetryPolicy}): the request is not ended but sent again later, on whatever
     * connection is free then. Its permit stays taken meanwhile, its
     * intended start stays the first one (so TTFT from schedule includes the waits), its send stamp becomes the last
     * send's, and its retries are counted.
     */
    private void retryLater(final RequestSlot slot)
    {
        stopTimers();
        recorder.detach();
        client.onRequestEnded(this);
        slot.retries429++;
        slot.httpStatus = 0;
        client.retryLater(slot, RetryPolicy.delayNs(slot.retryAfterMs));
    }

    private void stopTimers()
    {
        active = false;
        if (timeoutFuture != null)
        {
            timeoutFuture.cancel(false);
            timeoutFuture = null;
        }
        if (cancelFuture != null)
        {
            cancelFuture.cancel(false);
            cancelFuture = null;
        }
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        if (resentOnNewConnection())
        {
            ctx.fireChannelInactive();
            return;
        }
        if (active)
        {
            decoder.onClose(this); // a body that runs until the close ends here
        }
        if (active && decoder.failure() != null)
        {
            end(clock.nanoTime(), ErrorClass.PROTOCOL, decoder.failureDetail());
        }
        if (active)
        {
            end(clock.nanoTime(), ErrorClass.STREAM_CUT, "connection closed before the response ended");
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (resentOnNewConnection())
        {
            return;
        }
        if (active)
        {
            final ErrorClassifier.Classified failure = ErrorClassifier.readFailure(cause);
            end(clock.nanoTime(), failure.error(), failure.detail());
            ctx.channel().close();
        }
        else
        {
            ctx.channel().close();
        }
    }

    /** First in the pipeline: one clock reading per read, before any decoding. */
    private final class ArrivalStamper extends ChannelInboundHandlerAdapter
    {
        @Override
        public void channelRead(final ChannelHandlerContext ctx, final Object msg)
        {
            lastReadNs = clock.nanoTime();
            ctx.fireChannelRead(msg);
        }

        @Override
        public boolean isSharable()
        {
            return false;
        }
    }
}
