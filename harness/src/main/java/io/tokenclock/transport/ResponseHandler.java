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
 * Per-connection adapter between Netty and the measurement core: Netty's reader and {@link Exchange.Connection}.
 * <p>
 * Two handlers share this state: {@link #stamper()} sits first in the pipeline, before TLS, and takes the one clock
 * reading per network read as the bytes arrive; this handler sits last and hands each read's bytes (decrypted, over
 * https) to its {@link Exchange}, the kernel-stamped client's own: it decodes the response with
 * {@link HttpResponseDecoder} and feeds the body bytes, with that stamp, to the {@link StreamRecorder}. What is left
 * here is Netty's: the timers (one watchdog per request on the event loop), the pool ({@link ConnectionOwner}), and
 * the channel's events.
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
final class ResponseHandler extends ChannelInboundHandlerAdapter implements Exchange.Connection
{
    /** The largest direct read {@link #copy} moves without a {@code ByteBuffer} view. */
    static final int VIEWLESS_COPY_BYTES = 1024;
    /** {@code getLong} is big-endian: stored big-endian, the bytes keep their order. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final NanoClock clock;
    private final Exchange exchange;
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
    private byte[] scratch = new byte[16 * 1024];
    private ScheduledFuture<?> timeoutFuture;
    private Channel channel;

    ResponseHandler(
        final NanoClock clock, final ChunkRecords records, final ConnectionOwner client, final Channel ch, final int id,
        final RequestLimits limits, final Api api)
    {
        this.id = id;
        this.clock = clock;
        this.exchange = new Exchange(clock, records, limits, api, this, client);
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
        exchange.markPreopened();
    }

    /** Starts a request on this connection; returns the send stamp. Event loop only. */
    long begin(final RequestSlot slot, final RequestLimits limits)
    {
        return exchange.begin(slot, limits, id);
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
            if (msg instanceof ByteBuf buf)
            {
                decode(buf);
            }
            else if (!exchange.active())
            {
                ctx.channel().close(); // not bytes, and on an idle connection: do not reuse it
            }
        }
        finally
        {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Hands one read's bytes to the exchange: in place from a heap buffer, else after one copy into a reused array. */
    private void decode(final ByteBuf buf)
    {
        final int readable = buf.readableBytes();
        if (buf.hasArray())
        {
            exchange.read(buf.array(), buf.arrayOffset() + buf.readerIndex(), readable);
            return;
        }
        if (readable > scratch.length)
        {
            scratch = new byte[Math.max(readable, scratch.length << 1)];
        }
        copy(buf, buf.readerIndex(), scratch, readable);
        exchange.read(scratch, 0, readable);
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

    /** Ends the request in flight, if any, with {@code error}; closes the connection. Event loop only. */
    void abort(final ErrorClass error, final String detail)
    {
        exchange.abort(error, detail);
    }

    /** The request's write failed: sent again on a new connection if this one was stale, else ended as the failure. */
    void writeFailed(final Throwable cause)
    {
        exchange.writeFailed(cause);
    }

    private void cancelByRule()
    {
        cancelFuture = null;
        exchange.cancelByRule();
    }

    /**
     * One timer per request, not one per read: it fires at the earliest deadline still open (total; first byte while
     * nothing has come; idle after the last read once something has), and either ends the request with that class or
     * sets itself again. A read costs nothing here but the stamp the stamper takes anyway.
     */
    @Override
    public void arm(final RequestSlot slot, final long armedNs)
    {
        armWatchdog(armedNs);
        if (slot.cancelAfterNs > 0)
        {
            cancelFuture = channel.eventLoop().schedule(onCancelRule, slot.cancelAfterNs, TimeUnit.NANOSECONDS);
        }
    }

    private void armWatchdog(final long nowNs)
    {
        final long next = exchange.nextDeadlineNs();
        if (next != Long.MAX_VALUE)
        {
            timeoutFuture = channel.eventLoop().schedule(onWatchdog, Math.max(0, next - nowNs), TimeUnit.NANOSECONDS);
        }
    }

    /** Once per request: the idle deadline starts to count now, and may be the earliest. */
    @Override
    public void firstRead()
    {
        if (timeoutFuture != null)
        {
            timeoutFuture.cancel(false);
            timeoutFuture = null;
        }
        armWatchdog(clock.nanoTime());
    }

    private void watchdog()
    {
        timeoutFuture = null;
        if (!exchange.active())
        {
            return;
        }
        final long now = clock.nanoTime();
        if (!exchange.expire(now))
        {
            armWatchdog(now);
        }
    }

    @Override
    public void requestEnded(final boolean resending)
    {
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
        client.onRequestEnded(this);
    }

    @Override
    public void reuseOrClose(final boolean keepAlive)
    {
        if (!keepAlive)
        {
            channel.close();
        }
        client.release(this);
    }

    @Override
    public void close()
    {
        channel.close();
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        exchange.closedByPeer();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (exchange.resentOnNewConnection())
        {
            return;
        }
        final ErrorClassifier.Classified failure = ErrorClassifier.readFailure(cause);
        exchange.abort(failure.error(), failure.detail());
        ctx.channel().close();
    }

    /** First in the pipeline: one clock reading per read, before any decoding. */
    private final class ArrivalStamper extends ChannelInboundHandlerAdapter
    {
        @Override
        public void channelRead(final ChannelHandlerContext ctx, final Object msg)
        {
            exchange.stamped(clock.nanoTime());
            ctx.fireChannelRead(msg);
        }

        @Override
        public boolean isSharable()
        {
            return false;
        }
    }
}
