package io.tokenclock.transport;

import java.net.ConnectException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLException;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.pool.AbstractChannelPoolHandler;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.Future;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.StreamRecorder;

/**
 * The Netty HTTP/1.1 client that sends streaming completion requests and feeds their responses to the measurement
 * core.
 * <p>
 * One event loop per core (default), a keep-alive connection pool capped at the load's concurrency, pooled buffers,
 * {@code TCP_NODELAY}. Each connection carries one request at a time (HTTP/1.1 without pipelining, as every OpenAI
 * compatible server expects). Connections are opened lazily; a warmup phase is what makes them warm.
 * <p>
 * {@link #submit} is thread-safe and returns at once; the outcome of every submitted slot arrives at the collector
 * as an end record, whatever happens (connect failure, HTTP error, cut stream, timeout, cancellation).
 */
public final class StreamingClient implements AutoCloseable
{
    private final Endpoint endpoint;
    private final NanoClock clock;
    private final ChunkRecords records;
    private final Map<String, String> headers;
    private final long timeoutNs;
    private final EventLoopGroup group;
    private final FixedChannelPool pool;
    private final Set<ResponseHandler> inFlight = ConcurrentHashMap.newKeySet();

    /**
     * @param maxConnections connection cap, normally the cap on requests in flight.
     * @param ioThreads      event loop threads; 0 for one per available processor.
     * @param headers        extra request headers (the Authorization header included, if any); never logged.
     * @param timeoutNs      per-request timeout from send to end of response; 0 for none.
     */
    public StreamingClient(
        final Endpoint endpoint, final NanoClock clock, final ChunkRecords records, final Map<String, String> headers,
        final int maxConnections, final int ioThreads, final long timeoutNs)
    {
        this.endpoint = endpoint;
        this.clock = clock;
        this.records = records;
        this.headers = Map.copyOf(headers);
        this.timeoutNs = timeoutNs;
        final int threads = ioThreads > 0 ? ioThreads : Runtime.getRuntime().availableProcessors();
        this.group = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
        final SslContext ssl = endpoint.tls() ? sslContext() : null;
        final Bootstrap bootstrap = new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
            .remoteAddress(endpoint.host(), endpoint.port());
        final StreamingClient client = this;
        this.pool = new FixedChannelPool(bootstrap, new AbstractChannelPoolHandler()
        {
            @Override
            public void channelCreated(final Channel ch)
            {
                final ResponseHandler handler = new ResponseHandler(clock, records, client);
                ch.pipeline().addLast("stamp", handler.stamper());
                if (ssl != null)
                {
                    ch.pipeline().addLast("tls", ssl.newHandler(ch.alloc(), endpoint.host(), endpoint.port()));
                }
                ch.pipeline().addLast("http", new HttpClientCodec(4096, 16 * 1024, 64 * 1024));
                ch.pipeline().addLast("stream", handler);
            }
        }, ChannelHealthChecker.ACTIVE, null, -1, maxConnections, Integer.MAX_VALUE);
    }

    private static SslContext sslContext()
    {
        try
        {
            return SslContextBuilder.forClient().build();
        }
        catch (final SSLException ex)
        {
            throw new IllegalStateException("cannot set up TLS: " + ex.getMessage(), ex);
        }
    }

    /** Sends the request held by {@code slot} as soon as a connection is free. Thread-safe. */
    public void submit(final RequestSlot slot)
    {
        pool.acquire().addListener((Future<Channel> f) -> onAcquired(f, slot));
    }

    private void onAcquired(final Future<Channel> f, final RequestSlot slot)
    {
        if (!f.isSuccess())
        {
            final Throwable cause = f.cause();
            final ErrorClass error = cause instanceof ConnectException || isConnectFailure(cause) ?
                ErrorClass.CONNECT : ErrorClass.CLIENT_ERROR;
            StreamRecorder.failUnsent(records, slot, error, describe(cause), clock.nanoTime());
            return;
        }
        final Channel ch = f.getNow();
        if (ch.eventLoop().inEventLoop())
        {
            send(ch, slot);
        }
        else
        {
            ch.eventLoop().execute(() -> send(ch, slot));
        }
    }

    private void send(final Channel ch, final RequestSlot slot)
    {
        final ResponseHandler handler = ch.pipeline().get(ResponseHandler.class);
        if (handler == null || !ch.isActive())
        {
            StreamRecorder.failUnsent(records, slot, ErrorClass.STREAM_CUT, "connection closed before send",
                clock.nanoTime());
            release(ch);
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
        handler.begin(ch, slot, timeoutNs);
        ch.writeAndFlush(request).addListener(w ->
        {
            if (!w.isSuccess())
            {
                handler.abort(ErrorClass.STREAM_CUT, "write failed: " + describe(w.cause()));
            }
        });
    }

    void release(final Channel ch)
    {
        pool.release(ch);
    }

    void onRequestEnded(final ResponseHandler handler)
    {
        inFlight.remove(handler);
    }

    /** @return requests written and not yet ended. */
    public int inFlight()
    {
        return inFlight.size();
    }

    /**
     * Cancels every request in flight: each ends as {@code cancelled} with what it had received, and its connection
     * is closed (a server that honours disconnects then stops generating). Thread-safe.
     */
    public void cancelAll()
    {
        for (final ResponseHandler handler : inFlight)
        {
            final Channel ch = handler.channel();
            if (ch != null)
            {
                ch.eventLoop().execute(() -> handler.abort(ErrorClass.CANCELLED, "cancelled at the end of the run"));
            }
        }
    }

    @Override
    public void close()
    {
        pool.close();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    private static boolean isConnectFailure(final Throwable cause)
    {
        Throwable t = cause;
        while (t != null)
        {
            if (t instanceof ConnectException || t instanceof java.nio.channels.UnresolvedAddressException ||
                t instanceof java.net.UnknownHostException || t instanceof java.net.NoRouteToHostException ||
                t instanceof io.netty.channel.ConnectTimeoutException)
            {
                return true;
            }
            t = t.getCause();
        }
        return false;
    }

    private static String describe(final Throwable cause)
    {
        if (cause == null)
        {
            return "unknown failure";
        }
        final String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
