package io.tokenclock.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SelectStrategy;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.StreamRecorder;

/**
 * The Netty HTTP/1.1 client that sends streaming completion requests and feeds their responses to the measurement
 * core.
 * <p>
 * One event loop per core (default; epoll on Linux, NIO elsewhere or with {@code -Dtokenclock.nio=true}), pooled
 * buffers, {@code TCP_NODELAY}, and a keep-alive connection pool of its
 * own: idle connections wait in a lock-free queue, and a request takes one and reaches the connection's event loop in
 * a single hop through a pre-allocated task. (Netty's {@code FixedChannelPool} costs two or three event-loop hops per
 * acquisition, which showed as 0.2-0.4 ms of send lag on a 2-core VM.) When no idle connection is there, a new one is
 * opened; the number of connections in use never exceeds the requests in flight, which the load generator caps.
 * Each connection carries one request at a time (HTTP/1.1 without pipelining, as OpenAI-compatible servers expect).
 * Connections open lazily: a warmup phase is what makes them warm.
 * <p>
 * {@link #submit} is thread-safe and returns at once; the outcome of every submitted slot arrives at the collector
 * as an end record, whatever happens (connect failure, HTTP error, cut stream, timeout, cancellation).
 */
public final class StreamingClient implements StreamClient, ConnectionOwner
{
    private final Endpoint endpoint;
    private final NanoClock clock;
    private final ChunkRecords records;
    private final Map<String, String> headers;
    private final RequestLimits limits;
    private final EventLoopGroup group;
    private final String transport;
    private final Bootstrap bootstrap;
    private final ManyToManyConcurrentArrayQueue<ResponseHandler> idle;
    private final Set<ResponseHandler> inFlight = ConcurrentHashMap.newKeySet();
    /** Requests waiting to be sent again after a 429 ({@code --retry-429}). */
    private final Set<RequestSlot> waitingToRetry = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connections =
        new AtomicInteger();
    private AtomicReferenceArray<ResponseHandler> sticky;
    private final StampingReport stamping;
    /** TLS for https endpoints, else null. */
    private final SslContext ssl;

    /**
     * @param maxConnections cap on idle connections kept, normally the cap on requests in flight.
     * @param ioThreads      event loop threads; 0 for one per available processor.
     * @param headers        extra request headers (the Authorization header included, if any); never logged.
     * @param limits         the per-request limits (connect, first byte, idle, total; event and output bytes).
     * @param busyPoll precision mode: each event loop polls epoll without sleeping (Netty's
     *                 {@code SelectStrategy.BUSY_WAIT}), so a chunk is read without the wake-up of a sleeping thread;
     *                 it costs one core per event loop. Epoll only; ignored with NIO.
     * @param trust    which server certificates to accept (https endpoints only).
     */
    StreamingClient(
        final Endpoint endpoint, final NanoClock clock, final ChunkRecords records, final Map<String, String> headers,
        final int maxConnections, final int ioThreads, final RequestLimits limits, final boolean busyPoll,
        final TlsTrust trust)
    {
        this(endpoint, clock, records, headers, maxConnections, ioThreads, limits, busyPoll, trust,
            StampingReport.user(null));
    }

    /** As above; {@code stamping} says how the reads are stamped, and why user stamps where kernel ones were asked. */
    StreamingClient(
        final Endpoint endpoint, final NanoClock clock, final ChunkRecords records, final Map<String, String> headers,
        final int maxConnections, final int ioThreads, final RequestLimits limits, final boolean busyPoll,
        final TlsTrust trust, final StampingReport stamping)
    {
        this.stamping = stamping;
        this.endpoint = endpoint;
        this.clock = clock;
        this.records = records;
        this.headers = Map.copyOf(headers);
        this.limits = limits;
        this.idle = new ManyToManyConcurrentArrayQueue<>(Math.max(2, maxConnections));
        final int threads = ioThreads > 0 ? ioThreads : Runtime.getRuntime().availableProcessors();
        final boolean epoll = Epoll.isAvailable() && !Boolean.getBoolean("tokenclock.nio");
        this.transport = epoll ? busyPoll ? "epoll busy-poll" : "epoll" : "nio";
        this.group = new MultiThreadIoEventLoopGroup(threads, !epoll ? NioIoHandler.newFactory() :
            busyPoll ? EpollIoHandler.newFactory(0, () -> (selectNow, hasTasks) -> SelectStrategy.BUSY_WAIT) :
            EpollIoHandler.newFactory());
        this.ssl = endpoint.tls() ? trust.nettyContext() : null;
        final StreamingClient client = this;
        this.bootstrap = new Bootstrap()
            .group(group)
            .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, limits.connectNs() == 0 ? 0 :
                (int)Math.max(1, Math.min(Integer.MAX_VALUE, limits.connectNs() / 1_000_000)))
            .remoteAddress(endpoint.host(), endpoint.port())
            .handler(new ChannelInitializer<Channel>()
            {
                @Override
                protected void initChannel(final Channel ch)
                {
                    client.attach(ch);
                }
            });
    }

    /**
     * Installs this client's handlers on a new connection, in the order every read meets them: the stamp first,
     * before TLS, then TLS (https), Netty's request encoder (outbound only), and the {@link ResponseHandler} that
     * decodes the response ({@link HttpResponseDecoder}, as the kernel-stamped client does) and feeds the body to the
     * core. Package-private so that the read-path benchmark builds the same pipeline on an
     * {@code EmbeddedChannel}.
     *
     * @return the connection's handler.
     */
    ResponseHandler attach(final Channel ch)
    {
        final ResponseHandler handler = new ResponseHandler(clock, records, this, ch, connections.getAndIncrement(),
            limits, endpoint.api());
        ch.pipeline().addLast("stamp", handler.stamper());
        if (ssl != null)
        {
            ch.pipeline().addLast("tls", ssl.newHandler(ch.alloc(), endpoint.host(), endpoint.port()));
        }
        ch.pipeline().addLast("http", new HttpRequestEncoder()); // the response is decoded by the handler itself
        ch.pipeline().addLast("stream", handler);
        return handler;
    }

    /**
     * Keeps each simulated user on one connection: a user's next turn goes out on the connection that carried its
     * previous turn whenever that connection is still open (session affinity, as sticky load balancers give).
     * Call before the run.
     */
    @Override
    public StreamingClient stickyUsers(final int users)
    {
        this.sticky = new AtomicReferenceArray<>(users);
        return this;
    }

    /**
     * Opens up to {@code count} connections and keeps them idle for the first requests, waiting at most
     * {@code timeoutMs} for them. Call before the run, from one thread.
     *
     * @return the connections that opened in time.
     */
    @Override
    public int preconnect(final int count, final long timeoutMs) throws InterruptedException
    {
        final List<ChannelFuture> opening = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            opening.add(bootstrap.connect());
        }
        final long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000L;
        int opened = 0;
        for (final ChannelFuture f : opening)
        {
            final long leftMs = Math.max(0, (deadlineNs - System.nanoTime()) / 1_000_000L);
            final ResponseHandler handler = f.await(leftMs) && f.isSuccess() ?
                f.channel().pipeline().get(ResponseHandler.class) : null;
            if (handler != null)
            {
                handler.markPreopened();
            }
            if (handler != null && idle.offer(handler))
            {
                opened++;
            }
            else
            {
                f.channel().close();
            }
        }
        return opened;
    }

    /** Sends the request held by {@code slot} on an idle connection, or on a new one. Thread-safe, non-blocking. */
    @Override
    public void submit(final RequestSlot slot)
    {
        ResponseHandler handler;
        if (sticky != null && slot.user >= 0)
        {
            handler = sticky.getAndSet(slot.user, null);
            if (handler != null && handler.channel().isActive())
            {
                handler.sendLater(slot);
                return;
            }
        }
        while ((handler = idle.poll()) != null)
        {
            if (handler.channel().isActive())
            {
                handler.sendLater(slot);
                return;
            }
        }
        sendOnNewConnection(slot);
    }

    @Override
    public void sendOnNewConnection(final RequestSlot slot)
    {
        final ChannelFuture connect = bootstrap.connect();
        connect.addListener(f ->
        {
            if (!f.isSuccess())
            {
                final ErrorClassifier.Classified failure = ErrorClassifier.connectFailure(f.cause(), limits);
                StreamRecorder.failUnsent(records, slot, failure.error(), failure.detail(), clock.nanoTime());
                return;
            }
            send(connect.channel().pipeline().get(ResponseHandler.class), slot);
        });
    }

    @Override
    public void send(final ResponseHandler handler, final RequestSlot slot)
    {
        final Channel ch = handler.channel();
        if (!ch.isActive())
        {
            // The server closed an idle kept-alive connection just before we used it: retry on another one. This
            // costs the request nothing measured, since it has not been sent.
            submit(slot);
            return;
        }
        final ByteBuf body = Unpooled.wrappedBuffer(slot.body, 0, slot.bodyLength);
        final FullHttpRequest request = new DefaultFullHttpRequest(
            HttpVersion.HTTP_1_1, HttpMethod.POST, endpoint.completionPath(), body);
        request.headers()
            .set(HttpHeaderNames.HOST, endpoint.hostHeader())
            .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
            .set(HttpHeaderNames.ACCEPT, "text/event-stream")
            .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE)
            .setInt(HttpHeaderNames.CONTENT_LENGTH, slot.bodyLength);
        for (final Map.Entry<String, String> h : headers.entrySet())
        {
            request.headers().set(h.getKey(), h.getValue());
        }
        inFlight.add(handler);
        handler.stickyUser = sticky != null ? slot.user : -1;
        handler.begin(slot, limits);
        ch.writeAndFlush(request).addListener(w ->
        {
            if (!w.isSuccess())
            {
                handler.writeFailed(w.cause());
            }
        });
    }

    @Override
    public void release(final ResponseHandler handler)
    {
        final Channel ch = handler.channel();
        if (ch.isActive() && handler.stickyUser >= 0)
        {
            final ResponseHandler previous = sticky.getAndSet(handler.stickyUser, handler);
            if (previous != null && previous != handler)
            {
                previous.channel().close();
            }
            return;
        }
        if (!ch.isActive() || !idle.offer(handler))
        {
            ch.close();
        }
    }

    @Override
    public void onRequestEnded(final ResponseHandler handler)
    {
        inFlight.remove(handler);
    }

    @Override
    public ChunkRecords records()
    {
        return records;
    }

    /** @return the I/O transport in use: {@code epoll} on Linux, else {@code nio}. */
    @Override
    public String transport()
    {
        return transport;
    }

    /** Every read is stamped by the event loop that reads it ({@code System.nanoTime()} after Netty's read). */
    @Override
    public StampingReport stamping()
    {
        return stamping;
    }

    /**
     * Cancels every request in flight: each ends as {@code cancelled} with what it had received, and its connection
     * is closed (a server that honours disconnects then stops generating). Thread-safe.
     */
    @Override
    public void cancelAll()
    {
        for (final ResponseHandler handler : inFlight)
        {
            handler.channel().eventLoop().execute(
                () -> handler.abort(ErrorClass.CANCELLED, "cancelled at the end of the run"));
        }
        for (final RequestSlot slot : waitingToRetry)
        {
            if (waitingToRetry.remove(slot))
            {
                StreamRecorder.failUnsent(records, slot, ErrorClass.CANCELLED, "cancelled at the end of the run " +
                    "while waiting to retry a 429", clock.nanoTime());
            }
        }
    }

    /** Sends {@code slot} again after {@code delayNs} (a 429 under {@code --retry-429}); cancelAll ends it. */
    @Override
    public void retryLater(final RequestSlot slot, final long delayNs)
    {
        waitingToRetry.add(slot);
        group.next().schedule(() ->
        {
            if (waitingToRetry.remove(slot))
            {
                submit(slot);
            }
        }, delayNs, TimeUnit.NANOSECONDS);
    }

    @Override
    public void close()
    {
        ResponseHandler handler;
        while ((handler = idle.poll()) != null)
        {
            handler.channel().close();
        }
        for (int u = 0; sticky != null && u < sticky.length(); u++)
        {
            final ResponseHandler h = sticky.getAndSet(u, null);
            if (h != null)
            {
                h.channel().close();
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
