package io.tokenclock.transport;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.StreamRecorder;
import io.tokenclock.text.UntrustedText;

/**
 * Per-connection adapter between Netty and the measurement core.
 * <p>
 * Two handlers share this state: {@link #stamper()} sits first in the pipeline, before TLS and HTTP decoding, and
 * takes the one clock reading per network read as the bytes arrive; this handler sits after the HTTP codec and feeds
 * the decoded body bytes, with that stamp, to the {@link StreamRecorder}. Body bytes are copied into a reused array
 * so that the core sees plain bytes and knows nothing of Netty.
 * <p>
 * All methods run on the channel's event loop.
 */
final class ResponseHandler extends ChannelInboundHandlerAdapter
{
    static final int ERROR_BODY_LIMIT = 1024;

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
    private boolean keepAlive;
    private int status;
    private StringBuilder errorBody;
    /** The 200 answer is a JSON body, not an event stream: collected like an error body, classed not_streaming. */
    private boolean notStreaming;
    private ScheduledFuture<?> timeoutFuture;
    /** The limits of the request in flight, counted from its send stamp and its last read. */
    private final Deadlines deadlines = new Deadlines();
    private RequestLimits limits = RequestLimits.DEFAULT;
    private Channel channel;

    ResponseHandler(
        final NanoClock clock, final ChunkRecords records, final ConnectionOwner client, final Channel ch, final int id,
        final RequestLimits limits)
    {
        this.id = id;
        this.clock = clock;
        this.recorder = new StreamRecorder(records, limits.maxEventBytes(), limits.maxOutputBytes());
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
        keepAlive = true;
        status = 0;
        errorBody = null;
        notStreaming = false;
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
                return;
            }
            if (deadlines.onRead())
            {
                // Once per request: the idle deadline starts to count now, and may be the earliest.
                rearmWatchdog();
            }
            if (msg instanceof HttpObject decoded && decoded.decoderResult().isFailure())
            {
                // Not HTTP at all (Netty invents status 999 for an unparsable status line), or a broken message.
                abort(ErrorClass.PROTOCOL, "the server's reply is not valid HTTP: " +
                    UntrustedText.oneLine(String.valueOf(decoded.decoderResult().cause().getMessage())));
                return;
            }
            if (msg instanceof HttpResponse response)
            {
                status = response.status().code();
                keepAlive = HttpUtil.isKeepAlive(response);
                // Stream setup ends with the read that carried the head: its one stamp, no new clock reading.
                recorder.slot().headersNs = lastReadNs;
                recorder.slot().httpStatus = status;
                notStreaming =
                    ErrorClassifier.notStreaming(status, response.headers().get(HttpHeaderNames.CONTENT_TYPE));
                if (ErrorClassifier.keepsBody(status, notStreaming))
                {
                    errorBody = new StringBuilder();
                }
                if (RetryPolicy.readsRetryAfter(status))
                {
                    recorder.slot().retryAfterMs =
                        RetryPolicy.retryAfterMs(response.headers().get(HttpHeaderNames.RETRY_AFTER));
                }
            }
            if (msg instanceof HttpContent content)
            {
                onContent(content.content());
                if (active && msg instanceof LastHttpContent)
                {
                    complete(ctx);
                }
            }
        }
        finally
        {
            ReferenceCountUtil.release(msg);
        }
    }

    private void onContent(final ByteBuf buf)
    {
        final int readable = buf.readableBytes();
        if (readable == 0)
        {
            return;
        }
        if (errorBody != null)
        {
            final int n = Math.min(readable, ERROR_BODY_LIMIT - errorBody.length());
            if (n > 0)
            {
                errorBody.append(buf.toString(buf.readerIndex(), n, StandardCharsets.UTF_8));
            }
            return;
        }
        if (readable > scratch.length)
        {
            scratch = new byte[Math.max(readable, scratch.length << 1)];
        }
        buf.getBytes(buf.readerIndex(), scratch, 0, readable);
        recorder.onBytes(scratch, 0, readable, lastReadNs);
        if (recorder.errorSeen())
        {
            // The server said the request failed: end it now, whether or not it ever closes the stream.
            abort(ErrorClass.ERROR_EVENT, null);
        }
        else if (recorder.oversize())
        {
            abort(ErrorClass.OVERSIZE, recorder.oversizeDetail());
        }
        else if (recorder.cancelDue())
        {
            cancelByRule();
        }
    }

    private void complete(final ChannelHandlerContext ctx)
    {
        // The connection goes back to the pool before the end is published: the end frees the request's permit, and
        // a closed loop refilling at once must find this connection idle rather than open a new one. A request that
        // takes it queues behind this task on this event loop, so it cannot start before the end below.
        if (!keepAlive)
        {
            ctx.channel().close();
        }
        client.release(this);
        final RequestSlot slot = recorder.slot();
        if (RetryPolicy.retries(status, slot.retries429, limits))
        {
            retryLater(slot);
        }
        else
        {
            final ErrorClassifier.Classified outcome = ErrorClassifier.completed(status, notStreaming, errorBody);
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

    private void cancelByRule()
    {
        cancelFuture = null;
        abort(ErrorClass.CANCEL_RULE, "cancelled by the workload's cancellation rule");
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
        if (active)
        {
            end(clock.nanoTime(), ErrorClass.STREAM_CUT, "connection closed before the response ended");
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
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
