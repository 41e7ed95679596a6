package io.tokenclock.transport;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import org.HdrHistogram.Histogram;

import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.StreamRecorder;
import io.tokenclock.transport.kernel.LinuxNet;
import io.tokenclock.transport.kernel.PacketTap;

/**
 * The kernel-stamped HTTP/1.1 client: TCP sockets driven by epoll loops of its own over FFM
 * ({@link io.tokenclock.transport.kernel}), each read a {@code recvmsg} whose stamp is the kernel's receive time,
 * converted to the run's clock. Everything that is not reading and stamping is shared with Netty's client: time
 * limits ({@link Deadlines}), the 429 policy ({@link RetryPolicy}), error classes ({@link ErrorClassifier}), and the
 * measurement core behind {@link StreamRecorder}.
 * <p>
 * Threads: one or more I/O loops ({@link KernelLoop}); {@link #submit} hands a slot to a loop through its queue and
 * wakes it with an eventfd. Connections are kept alive and reused within their loop.
 * <p>
 * https: the same TCP reads, stamped, then decrypted by an {@code SSLEngine} per connection ({@link KernelTls}) made
 * by the Netty client's own {@code SslContext} ({@link TlsTrust#nettyContext()}), so that both clients trust, verify
 * host names and fail alike.
 */
final class KernelStreamClient implements StreamClient
{
    private final ClientSettings settings;
    private final KernelLoop[] loops;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger connectionNumbers = new AtomicInteger();
    private final InetAddress address;
    private final byte[] requestHead;
    private volatile boolean stickyUsers;
    private final Consumer<String> note;
    private final boolean askKernel;
    /** What a connected socket asks for its send stamps ({@link LinuxNet#TX_STAMP_FLAGS}; a test asks more). */
    private final int sendStampFlags;
    /** For https, the context that makes each connection's engine; null for plain http. */
    private final SslContext tls;
    /** The packet tap ({@code --packet-tap}, {@link TapSelection}), or null: off, or it could not be had. */
    private final PacketTap tap;
    private final TapSelection.Outcome tapOutcome;

    KernelStreamClient(final ClientSettings settings, final Consumer<String> note)
    {
        this(settings, note, true);
    }

    /** @param askKernel false for sockets without {@code SO_TIMESTAMPING} (the fallback test's socket). */
    KernelStreamClient(final ClientSettings settings, final Consumer<String> note, final boolean askKernel)
    {
        this(settings, note, askKernel, true);
    }

    /**
     * @param start false: the loops are built but not started, for a caller that turns them on its own thread
     *              ({@link #loop}, {@link KernelLoop#turn}: the read-path benchmark).
     */
    KernelStreamClient(final ClientSettings settings, final Consumer<String> note, final boolean askKernel,
        final boolean start)
    {
        this(settings, note, askKernel, start, LinuxNet.TX_STAMP_FLAGS, TapSelection.SYSTEM);
    }

    /**
     * @param sendStampFlags the {@code SO_TIMESTAMPING} flags a connected socket sets for its send stamps: {@link
     *                       LinuxNet#TX_STAMP_FLAGS}, or with a bit the kernel does not know, so that it refuses them
     *                       (the fallback test).
     */
    KernelStreamClient(final ClientSettings settings, final Consumer<String> note, final boolean askKernel,
        final boolean start, final int sendStampFlags)
    {
        this(settings, note, askKernel, start, sendStampFlags, TapSelection.SYSTEM);
    }

    /** @param tapProbe what the tap's selection asks of the system ({@link TapSelection#SYSTEM}; a test's own). */
    KernelStreamClient(final ClientSettings settings, final Consumer<String> note, final boolean askKernel,
        final boolean start, final int sendStampFlags, final TapSelection.Probe tapProbe)
    {
        this.settings = settings;
        this.note = note;
        this.askKernel = askKernel;
        this.sendStampFlags = sendStampFlags;
        try
        {
            this.address = InetAddress.getByName(settings.endpoint().host());
        }
        catch (final UnknownHostException e)
        {
            throw new IllegalArgumentException("cannot resolve " + settings.endpoint().host() + ": " +
                e.getMessage(), e);
        }
        this.requestHead = requestHead(settings.endpoint(), settings.headers());
        this.tls = settings.endpoint().tls() ? settings.trust().nettyContext() : null;
        final int threads = settings.ioThreads() > 0 ? settings.ioThreads() :
            Math.max(1, Runtime.getRuntime().availableProcessors());
        this.tapOutcome = TapSelection.select(settings.packetTap(), address, settings.endpoint().port(), threads,
            tapProbe);
        this.tap = tapOutcome.tap();
        if (tapOutcome.note() != null)
        {
            note.accept(tapOutcome.note());
        }
        this.loops = new KernelLoop[threads];
        for (int i = 0; i < threads; i++)
        {
            loops[i] = new KernelLoop(this, i, Math.max(2, settings.maxConnections()));
        }
        for (int i = 0; i < threads && start; i++)
        {
            loops[i].start();
        }
    }

    /** @return the {@code i}th I/O loop. */
    KernelLoop loop(final int i)
    {
        return loops[i];
    }

    /** The request line and headers up to {@code Content-Length: } (the length and the body follow per request). */
    private static byte[] requestHead(final Endpoint endpoint, final Map<String, String> headers)
    {
        final StringBuilder sb = new StringBuilder(256)
            .append("POST ").append(endpoint.completionPath()).append(" HTTP/1.1\r\n")
            .append("host: ").append(endpoint.hostHeader()).append("\r\n")
            .append("content-type: application/json\r\n")
            .append("accept: text/event-stream\r\n")
            .append("connection: keep-alive\r\n");
        for (final Map.Entry<String, String> h : headers.entrySet())
        {
            sb.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        return sb.append("content-length: ").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    ClientSettings settings()
    {
        return settings;
    }

    InetAddress address()
    {
        return address;
    }

    /** @return where the one line of a first fallback read goes. */
    Consumer<String> note()
    {
        return note;
    }

    /** @return the packet tap, or null. */
    PacketTap tap()
    {
        return tap;
    }

    boolean askKernel()
    {
        return askKernel;
    }

    int sendStampFlags()
    {
        return sendStampFlags;
    }

    /** @return a new connection's TLS (client mode, SNI and host name as Netty's client sets them), or null. */
    KernelTls newTls()
    {
        return tls == null ? null : new KernelTls(tls.newEngine(ByteBufAllocator.DEFAULT,
            settings.endpoint().host(), settings.endpoint().port()));
    }

    byte[] requestHead()
    {
        return requestHead;
    }

    /** @return the next connection's number, from 0 per client, never reused (requests.jsonl {@code connection}). */
    int nextConnectionNumber()
    {
        return connectionNumbers.getAndIncrement();
    }

    @Override
    public StreamClient stickyUsers(final int users)
    {
        for (final KernelLoop loop : loops)
        {
            loop.stickyUsers(users);
        }
        this.stickyUsers = true;
        return this;
    }

    @Override
    public int preconnect(final int count, final long timeoutMs) throws InterruptedException
    {
        final CountDownLatch done = new CountDownLatch(count);
        final AtomicInteger opened = new AtomicInteger();
        for (int i = 0; i < count; i++)
        {
            loops[i % loops.length].preconnect(done, opened);
        }
        done.await(timeoutMs, TimeUnit.MILLISECONDS);
        return opened.get();
    }

    /**
     * Sends on a loop that holds an idle connection, claimed here so that two submits never count on the same one; a
     * new connection only when no loop has one, on the next loop in turn. Netty's client takes any idle channel of
     * one pool: without this, round-robin sent a request to a loop without an idle connection while another loop's
     * preconnected one waited, and opened connections the run did not need.
     */
    @Override
    public void submit(final RequestSlot slot)
    {
        if (stickyUsers && slot.user >= 0)
        {
            loops[slot.user % loops.length].submit(slot);
            return;
        }
        final int start = Math.floorMod(next.getAndIncrement(), loops.length);
        for (int i = 0; i < loops.length; i++)
        {
            final KernelLoop loop = loops[(start + i) % loops.length];
            if (loop.claimIdle())
            {
                loop.submitClaimed(slot);
                return;
            }
        }
        loops[start].submit(slot);
    }

    @Override
    public ChunkRecords records()
    {
        return settings.records();
    }

    @Override
    public String transport()
    {
        // As Netty's client says it: the record's transport names busy-poll, which the loops honour (epoll_wait 0).
        final String loop = settings.busyPoll() ? "recvmsg epoll busy-poll (FFM, SO_TIMESTAMPING)" :
            "recvmsg epoll (FFM, SO_TIMESTAMPING)";
        return tls == null ? loop : loop + ", TLS by SSLEngine after the stamp";
    }

    @Override
    public StampingReport stamping()
    {
        long reads = 0;
        long fallback = 0;
        long backlog = 0;
        long shared = 0;
        long steps = 0;
        long minOffset = Long.MAX_VALUE;
        long maxOffset = Long.MIN_VALUE;
        final Histogram delay = new Histogram(3);
        final Histogram send = new Histogram(3);
        long stamped = 0;
        long unstamped = 0;
        long beforeUser = 0;
        long refused = 0;
        long tapReads = 0;
        long tapMissed = 0;
        long chunks = 0;
        long sharedChunks = 0;
        long together = 0;
        long firsts = 0;
        long sharedFirsts = 0;
        for (final KernelLoop loop : loops)
        {
            final KernelLoop.Counts c = loop.counts();
            reads += c.reads();
            fallback += c.fallbackReads();
            backlog += c.backlogReads();
            shared += c.sharedStamps();
            steps += c.steps();
            if (c.reads() > 0)
            {
                minOffset = Math.min(minOffset, c.minOffsetNs());
                maxOffset = Math.max(maxOffset, c.maxOffsetNs());
            }
            delay.add(c.receiveDelay());
            send.add(c.send().delay());
            stamped += c.send().stamped();
            unstamped += c.send().unstamped();
            beforeUser += c.send().beforeUser();
            refused += c.send().refusedSockets();
            tapReads += c.tapReads();
            tapMissed += c.tapMissed();
            chunks += c.chunks().stamped();
            sharedChunks += c.chunks().shared();
            together += c.chunks().together();
            firsts += c.chunks().firsts();
            sharedFirsts += c.chunks().firstsShared();
        }
        final StampingReport.SendDelay sent = new StampingReport.SendDelay(stamped, unstamped, beforeUser, refused,
            send.getValueAtPercentile(50), send.getValueAtPercentile(99), send.getValueAtPercentile(99.9),
            send.getMaxValue());
        final StampingReport.ReceiveDelay receive = new StampingReport.ReceiveDelay(delay.getTotalCount(),
            delay.getValueAtPercentile(50), delay.getValueAtPercentile(99), delay.getValueAtPercentile(99.9),
            delay.getMaxValue());
        return new StampingReport(KernelTransport.NAME, fallback == reads && reads > 0 ? "user" : "kernel", "kernel",
            reads, fallback, fallback == reads && reads > 0 ? "no read carried a kernel stamp" : null,
            reads > 0 ? minOffset : 0, reads > 0 ? maxOffset : 0, steps, backlog, shared,
            new StampingReport.Chunks(chunks, sharedChunks, together, firsts, sharedFirsts), receive, sent,
            packetTap(tapReads, tapMissed));
    }

    private StampingReport.PacketTap packetTap(final long reads, final long missed)
    {
        final TapSelection.Outcome o = tapOutcome;
        final String selection = o.choice().mode().name().toLowerCase(java.util.Locale.ROOT);
        if (tap == null)
        {
            return StampingReport.PacketTap.none(selection, o.interfaceName(), o.reason(), o.error());
        }
        tap.drain(); // the tap's thread drains every 1-10 ms: count what came since
        return new StampingReport.PacketTap(selection, tap.interfaceName(), o.reason(), null, reads, missed,
            tap.packets(), tap.segments(), tap.drops(), tap.stampedAtCapture(), tap.ringFrames(), tap.ownCpu());
    }

    @Override
    public void cancelAll()
    {
        for (final KernelLoop loop : loops)
        {
            loop.cancelAll();
        }
    }

    /** Ends a request that never reached a connection. */
    void failUnsent(final RequestSlot slot, final ErrorClass error, final String detail)
    {
        StreamRecorder.failUnsent(settings.records(), slot, error, detail, settings.clock().nanoTime());
    }

    /** Sends {@code slot} on the loop that should carry it (a retry after its wait). */
    void resubmit(final RequestSlot slot)
    {
        submit(slot);
    }

    @Override
    public void close()
    {
        for (final KernelLoop loop : loops)
        {
            loop.stop();
        }
        for (final KernelLoop loop : loops)
        {
            loop.join();
        }
        if (tap != null)
        {
            tap.close();
        }
    }
}
