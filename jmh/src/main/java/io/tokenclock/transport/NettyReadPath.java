package io.tokenclock.transport;

import java.util.Map;

import io.netty.buffer.ByteBuf;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;

import io.tokenclock.api.Api;
import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.RequestSlot;

/**
 * Netty's read path without the socket, for the benchmarks and the allocation gate: a real {@link StreamingClient}
 * (its connection pool, request encoding and {@link ResponseHandler}) whose one connection is an
 * {@link EmbeddedChannel} carrying the pipeline {@link StreamingClient#attach} installs on every real connection
 * (stamp, Netty's request encoder, the handler that decodes the response). It lives in the transport's package, in
 * the benchmarks' jar, so that the production classes stay package-private; it wires them and holds no logic of
 * theirs.
 * <p>
 * What a read here is: a buffer from the channel's allocator, sized by the channel's own receive-buffer guess, the
 * bytes written into it (standing in for the kernel's copy into it in {@code read(2)}), then
 * {@code channelRead} and {@code channelReadComplete} through the pipeline, as Netty's epoll read loop fires them.
 * The system call and the epoll wake-up are not here ({@code PerChunkKernelBenchmark} has them for the other
 * transport, {@code StampedReadBenchmark} the system call alone).
 */
// Netty 4.2 deprecates RecvByteBufAllocator.Handle for its extended form, yet its own read loops still size reads with
// the handle recvBufAllocHandle() returns: the benchmark reads the way they do.
@SuppressWarnings("deprecation")
public final class NettyReadPath implements AutoCloseable
{
    private final StreamingClient client;
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final RecvByteBufAllocator.Handle guess;

    /** @param records where the chunk and end records go (the collector's ring). */
    public NettyReadPath(final ChunkRecords records)
    {
        client = new StreamingClient(Endpoint.parse("http://127.0.0.1:8000/v1", Api.CHAT),
            SystemNanoClock.INSTANCE, records, Map.of(), 2, 1, RequestLimits.DEFAULT, false, TlsTrust.DEFAULT);
        client.release(client.attach(channel)); // an open, idle connection in the client's pool
        guess = channel.unsafe().recvBufAllocHandle();
    }

    /**
     * The load generator's hand-over, then the event loop's turn: {@link StreamingClient#submit} takes the idle
     * connection and posts the send to its loop, which builds the request head, encodes and writes it, arms the
     * request's timer and stamps the send. The encoded request is dropped, as the socket would take it.
     */
    public void submit(final RequestSlot slot)
    {
        client.submit(slot);
        channel.runPendingTasks();
        channel.releaseOutbound();
    }

    /** One network read carrying {@code bytes}, through the pipeline. */
    public void read(final byte[] bytes)
    {
        guess.reset(channel.config());
        final ByteBuf buf = guess.allocate(channel.alloc());
        buf.writeBytes(bytes);
        guess.lastBytesRead(bytes.length);
        guess.incMessagesRead(1);
        channel.pipeline().fireChannelRead(buf);
        guess.readComplete();
        channel.pipeline().fireChannelReadComplete();
    }

    @Override
    public void close()
    {
        channel.finishAndReleaseAll();
        client.close();
    }
}
