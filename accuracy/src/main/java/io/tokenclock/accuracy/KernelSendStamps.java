package io.tokenclock.accuracy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.epoll.EpollSocketChannel;
import io.tokenclock.transport.kernel.ClockBridge;
import io.tokenclock.transport.kernel.ErrorQueue;
import io.tokenclock.transport.kernel.LinuxNet;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * The kernel's send stamps of one accepted connection ({@code TruthServer --kernel-send-stamps}): the first handler
 * of the pipeline, so that it sees the bytes exactly as they are handed to the socket. When the channel becomes
 * active, before anything is written, it asks the kernel for keyed software transmit stamps on the channel's fd
 * ({@link LinuxNet#enableTxTimestamps}, the client's flags): the kernel then stamps the last byte of every
 * {@code writev} when it is handed to the device and queues the stamp on the socket's error queue, keyed by that
 * byte's offset from the first byte written after the option was set. This handler counts the bytes written, so that
 * each flush's last byte has its key, and after each flush reads the error queue ({@link ErrorQueue}) until the
 * flush's last byte has its stamp: on loopback it is there already, queued inside the {@code writev}. A chunk gets
 * the first stamp whose key reaches its last byte, converted to {@code System.nanoTime()}'s clock with this
 * connection's {@link ClockBridge}.
 * <p>
 * <b>Why the queue is read on every flush.</b> A queued stamp raises {@code EPOLLERR} on the socket, and Netty's
 * epoll loop answers an {@code EPOLLERR} with a read (and a flush) that find nothing: read at once, the queue is empty
 * again before the loop next waits, and the wake-up does not happen (docs/ACCURACY.md, "Kernel send stamps", gives the
 * count). A stamp that comes later (a write the socket took only in part, finished by Netty when the socket drains)
 * is read at the next flush, at the write's completion ({@link #drain()} from {@link TruthStream}) or when that
 * {@code EPOLLERR} wakes the loop ({@link #channelReadComplete}).
 * <p>
 * Event loop only; its native buffers are freed when the channel is closed.
 */
final class KernelSendStamps extends ChannelDuplexHandler
{
    /** The most error-queue messages one drain reads: the queue holds at most one per flush not yet stamped. */
    private static final int READS_PER_DRAIN = 64;

    /** A flush whose last byte has no stamp yet, and the chunk it wrote (null for another write: head, error). */
    private record Pending(long lastByte, TruthStream stream, int index)
    {
    }

    private final TruthServer.Shared shared;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment errno = LinuxNet.newErrno(arena);
    private final MemorySegment scratch = arena.allocate(4, 4);
    private final ErrorQueue queue = new ErrorQueue(arena);
    private final ClockBridge bridge = new ClockBridge(ClockBridge.systemClocks(), ClockBridge.STEP_NS);
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private EpollSocketChannel channel;
    private int fd = -1;
    private boolean on;
    private boolean closed;
    /** Bytes written since the option was set: the key of the next byte. */
    private long bytes;
    /** {@link #bytes} at the last flush that wrote any. */
    private long flushedBytes;
    private TruthStream expectStream;
    private int expectIndex = -1;

    KernelSendStamps(final TruthServer.Shared shared)
    {
        this.shared = shared;
    }

    /** @return whether the kernel took the option on this connection (its chunks then have kernel send stamps). */
    boolean on()
    {
        return on;
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx) throws Exception
    {
        if (ctx.channel() instanceof EpollSocketChannel epoll)
        {
            channel = epoll;
            fd = epoll.fd().intValue();
            on = LinuxNet.enableTxTimestamps(errno, fd, LinuxNet.TX_STAMP_FLAGS, scratch) == 0;
            if (!on)
            {
                shared.kernelSendRefused(LinuxNet.errno(errno));
            }
        }
        super.channelActive(ctx);
    }

    /** The next flush writes chunk {@code index} of {@code stream}: its stamp goes to {@code stream.kernelSent}. */
    void expect(final TruthStream stream, final int index)
    {
        expectStream = stream;
        expectIndex = index;
    }

    @Override
    public void write(final ChannelHandlerContext ctx, final Object msg, final ChannelPromise promise)
    {
        if (on)
        {
            if (msg instanceof ByteBuf buf)
            {
                bytes += buf.readableBytes();
            }
            else if (msg instanceof ByteBufHolder holder)
            {
                bytes += holder.content().readableBytes();
            }
        }
        ctx.write(msg, promise);
    }

    @Override
    public void flush(final ChannelHandlerContext ctx)
    {
        ctx.flush();
        if (!on)
        {
            return;
        }
        if (bytes > flushedBytes)
        {
            pending.add(new Pending(bytes - 1, expectStream, expectIndex));
            flushedBytes = bytes;
        }
        expectStream = null;
        expectIndex = -1;
        drain();
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext ctx) throws Exception
    {
        drain();
        super.channelReadComplete(ctx);
    }

    /**
     * Reads the error queue while a flush waits for its stamp, never blocking: each stamp goes to every waiting flush
     * whose last byte its key reaches, oldest first. Stamps of bytes that nothing waits for are read and dropped.
     */
    void drain()
    {
        // a closed channel's fd may already be another socket's
        for (int i = 0; i < READS_PER_DRAIN && !pending.isEmpty() && !closed && channel.isOpen(); i++)
        {
            if (queue.read(fd) < 0)
            {
                return;
            }
            final long key = queue.lastKey();
            final long stamp = queue.lastStampNs();
            if (key < 0 || stamp < 0)
            {
                continue;
            }
            bridge.sample();
            final long kernelNs = bridge.toMonotonicNs(stamp);
            while (!pending.isEmpty() && ErrorQueue.covers(key, pending.peekFirst().lastByte()))
            {
                final Pending p = pending.pollFirst();
                if (p.stream() != null)
                {
                    p.stream().kernelSent(p.index(), kernelNs);
                }
            }
        }
    }

    @Override
    public void handlerRemoved(final ChannelHandlerContext ctx)
    {
        if (!closed)
        {
            closed = true;
            pending.clear();
            shared.kernelSendClock(bridge.steps());
            arena.close();
        }
    }
}
