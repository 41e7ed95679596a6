package io.tokenclock.transport;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.transport.kernel.ClockBridge;
import io.tokenclock.transport.kernel.ControlMessages;
import io.tokenclock.transport.kernel.LinuxNet;
import io.tokenclock.transport.kernel.PacketTap;
import io.tokenclock.transport.kernel.ReadBatch;
import io.tokenclock.transport.kernel.StampedSocket;

/**
 * One I/O thread of the kernel-stamped client: an epoll set over its connections and an eventfd that wakes it for
 * new work. Every connection, timer and counter here is touched by this thread only; other threads reach it through
 * {@link #submit} and control tasks on its queue.
 * <p>
 * Timers are not scheduled: the loop keeps a lower bound of every connection's earliest deadline ({@link Deadlines},
 * the connect and handshake limits, the cancellation rule; {@link #timersDueNs}) and waits in epoll at most until then
 * or a retry's time (millisecond grain: a limit fires up to 1 ms late). Only when that bound has passed does a turn
 * scan its connections, firing what ran out and taking the new bound; a connection that arms an earlier limit lowers
 * the bound at once ({@link #deadlineArmed}). Why: scanning every connection every turn took 6-18% of the stamping
 * thread's CPU at 1,000 streams (async-profiler, issue 41), a turn reading a handful of chunks and a scan visiting
 * every connection twice; limits run in seconds, and a bound that is early costs one scan, never a late limit.
 */
final class KernelLoop implements Runnable, Exchange.Owner
{
    /** The epoll key of the wake-up eventfd; connections use their index. */
    private static final long WAKE_KEY = -1L;
    private static final int MAX_EVENTS = 256;
    private static final int MAX_WAIT_MS = 100;
    /** Reads taken from one connection per readiness event, so that one busy stream cannot starve the others. */
    static final int READS_PER_EVENT = 64;

    /** What this loop counted, for {@link StampingReport}. */
    record Counts(long reads, long fallbackReads, long backlogReads, long sharedStamps, long steps, long minOffsetNs,
        long maxOffsetNs, Histogram receiveDelay, SendCounts send, long tapReads, long tapMissed,
        StampingReport.Chunks chunks)
    {
    }



    /** Send stamps: requests stamped, ended without one, stamped before their user send stamp; sockets refused. */
    record SendCounts(long stamped, long unstamped, long beforeUser, long refusedSockets, Histogram delay)
    {
    }

    private final KernelStreamClient client;
    private final Thread thread;
    private final ManyToOneConcurrentArrayQueue<Object> tasks;
    /** Slots whose submit claimed one of this loop's idle connections ({@link #claimIdle}). */
    private final ManyToOneConcurrentArrayQueue<RequestSlot> claimed;
    /**
     * Idle connections (in {@link #idle}) that no submit has claimed yet. Never above {@code idle.size()} on this
     * loop's thread: it rises after a connection joins {@link #idle}, falls with a claim before the slot takes one.
     */
    private final AtomicInteger unclaimedIdle = new AtomicInteger();
    private final Arena arena = Arena.ofShared();
    private final MemorySegment errno = LinuxNet.newErrno(arena);
    private final MemorySegment event = arena.allocate(LinuxNet.EPOLL_EVENT_BYTES, 8);
    private final MemorySegment events = arena.allocate((long)LinuxNet.EPOLL_EVENT_BYTES * MAX_EVENTS, 8);
    private final MemorySegment scratch = arena.allocate(8, 8);
    /**
     * What other threads wake the loop with ({@link #post}): segments of an automatic arena, not of {@link #arena}.
     * Why: a shared arena's segments passed to a system call take its session for the call (a compare-and-set in
     * {@code SharedSession.acquire0}/{@code release0}), and a signal from the load generator while the loop entered
     * {@code epoll_wait} on the same session made that compare-and-set fail now and then. C2 had never seen it fail:
     * an {@code unstable_if} trap threw away {@link #turn}'s compiled code, which then ran in C1 until C2 compiled it
     * again, 1 s into one 16-stream window (JFR; docs/OVERHEAD.md, "JIT inside the window"). An automatic arena's
     * session takes nothing, and the loop's own arena is then only the loop thread's. Every signal writes 1, so the
     * signalling threads may share the word; the error number is not read.
     */
    private final MemorySegment signalErrno = LinuxNet.newErrno(Arena.ofAuto());
    private final MemorySegment signalWord = Arena.ofAuto().allocate(8, 8);
    private final int epfd;
    private final int wakeFd;
    private final ClockBridge bridge = new ClockBridge(ClockBridge.systemClocks(), StampingReport.STEP_NS);
    /** Kernel stamp to user stamp, ns; fixed range (10 s) so that a copy from another thread never sees a resize. */
    private final Histogram receiveDelay = new Histogram(10_000_000_000L, 3);
    /** User send stamp to kernel send stamp, ns; the same fixed range. */
    private final Histogram sendDelay = new Histogram(10_000_000_000L, 3);
    private volatile long sendStamped;
    private volatile long sendUnstamped;
    private volatile long sendBeforeUser;
    private volatile long sendRefused;
    private final List<KernelConnection> connections = new ArrayList<>();
    private final ArrayDeque<KernelConnection> idle = new ArrayDeque<>();
    /** Indices of closed connections, reused by the next ones (an index is its epoll key). */
    private final ArrayDeque<Integer> freeIds = new ArrayDeque<>();
    private final PriorityQueue<Retry> retries = new PriorityQueue<>();
    private KernelConnection[] sticky;
    private volatile boolean running = true;
    private volatile long reads;
    private volatile long fallbackReads;
    private volatile long backlogReads;
    private volatile long sharedStamps;
    private volatile long tapReads;
    private volatile long tapMissed;
    private volatile long contentChunks;
    private volatile long sharedStampChunks;
    private volatile long togetherChunks;
    /** Whether the last {@link #tapStamp} returned the tap's stamp (this thread only). */
    private boolean lastTapHit;
    private volatile long firstChunks;
    private volatile long sharedFirstChunks;
    /** The batched reads' messages and pieces, lent to each connection as it reads (this thread only). */
    private final ReadBatch batch = new ReadBatch();
    private boolean fallbackNoted;
    /**
     * No connection of this loop has a limit that runs out before this, on the run's clock: a lower bound (limits
     * only move later but when armed, and arming lowers it), so a turn before it need not look at any connection.
     * The minimum at first, so that the first turn scans. This thread only.
     */
    private long timersDueNs = Long.MIN_VALUE;
    /** The heap copy of each read (the core takes byte arrays); one per loop, reads never overlap. */
    private final byte[] readBuffer = new byte[StampedSocket.READ_BYTES];

    /** A request waiting out its Retry-After. */
    private record Retry(long dueNs, RequestSlot slot) implements Comparable<Retry>
    {
        @Override
        public int compareTo(final Retry o)
        {
            return Long.compare(dueNs, o.dueNs);
        }
    }

    KernelLoop(final KernelStreamClient client, final int index, final int maxConnections)
    {
        this.client = client;
        this.tasks = new ManyToOneConcurrentArrayQueue<>(Math.max(1024, 4 * maxConnections));
        this.claimed = new ManyToOneConcurrentArrayQueue<>(Math.max(1024, 4 * maxConnections));
        this.epfd = LinuxNet.epollCreate(errno);
        this.wakeFd = LinuxNet.eventfd(errno);
        if (epfd < 0 || wakeFd < 0)
        {
            throw new IllegalStateException("epoll_create1 or eventfd failed, errno " + LinuxNet.errno(errno));
        }
        LinuxNet.epollCtl(errno, epfd, LinuxNet.EPOLL_CTL_ADD, wakeFd, LinuxNet.EPOLLIN, WAKE_KEY, event);
        this.thread = new Thread(this, "tokenclock-kstamp-" + index);
        thread.setDaemon(true);
    }

    void start()
    {
        thread.start();
    }

    ClientSettings settings()
    {
        return client.settings();
    }

    KernelStreamClient client()
    {
        return client;
    }

    byte[] readBuffer()
    {
        return readBuffer;
    }

    ReadBatch batch()
    {
        return batch;
    }

    /**
     * Counts the content chunks of one stamped read: {@code chunks} of them, of which {@code shared} took the stamp of
     * the content chunk before them in the same request (their arrivals were merged before the read, or the server
     * sent them in one segment); {@code first}, whether the request's first content chunk was among them, and
     * {@code firstShared}, whether its second took the first's stamp. {@code fromTap}: the read's stamp was the
     * packet tap's, so a stamp it shares is one segment's: counted apart, as chunks that arrived together.
     */
    void chunks(final int chunks, final int shared, final boolean first, final boolean firstShared,
        final boolean fromTap)
    {
        contentChunks += chunks;
        if (shared > 0 && fromTap)
        {
            togetherChunks += shared;
        }
        else if (shared > 0)
        {
            sharedStampChunks += shared;
        }
        if (first)
        {
            firstChunks++;
        }
        if (firstShared && !fromTap)
        {
            sharedFirstChunks++;
        }
    }

    /** @return whether the last {@link #tapStamp} gave the tap's stamp, not the socket's. */
    boolean lastTapHit()
    {
        return lastTapHit;
    }

    /**
     * Runs {@code task} on this loop's thread, between turns: the hook through which a test stalls the stamping thread
     * on purpose (KernelPacketTapIT). Any thread.
     */
    void execute(final Runnable task)
    {
        post(task);
    }

    /** Queues {@code task} (a slot to send, or a Runnable) and wakes the loop. Any thread. */
    private void post(final Object task)
    {
        while (!tasks.offer(task))
        {
            Thread.onSpinWait();
        }
        LinuxNet.eventfdSignal(signalErrno, wakeFd, signalWord);
    }

    void submit(final RequestSlot slot)
    {
        post(slot);
    }

    /** Sends {@code slot} on the idle connection its caller claimed ({@link #claimIdle}). Any thread. */
    void submitClaimed(final RequestSlot slot)
    {
        while (!claimed.offer(slot))
        {
            Thread.onSpinWait();
        }
        LinuxNet.eventfdSignal(signalErrno, wakeFd, signalWord);
    }

    /** @return whether an idle connection of this loop was claimed for one request. Any thread. */
    boolean claimIdle()
    {
        return decrementIfPositive(unclaimedIdle);
    }

    private static boolean decrementIfPositive(final AtomicInteger count)
    {
        int n;
        while ((n = count.get()) > 0)
        {
            if (count.compareAndSet(n, n - 1))
            {
                return true;
            }
        }
        return false;
    }

    void stickyUsers(final int users)
    {
        post((Runnable)() -> sticky = new KernelConnection[users]);
    }

    void preconnect(final CountDownLatch done, final AtomicInteger opened)
    {
        post((Runnable)() -> open(null, done, opened));
    }

    void cancelAll()
    {
        post((Runnable)this::cancelEverything);
    }

    void stop()
    {
        running = false;
        LinuxNet.eventfdSignal(signalErrno, wakeFd, signalWord);
    }

    void join()
    {
        try
        {
            thread.join(5_000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** @return the reads this loop has stamped so far (a volatile read; {@link #counts} copies the histogram too). */
    long reads()
    {
        return reads;
    }

    Counts counts()
    {
        return new Counts(reads, fallbackReads, backlogReads, sharedStamps, bridge.steps(), bridge.minOffsetNs(),
            bridge.maxOffsetNs(), receiveDelay.copy(), new SendCounts(sendStamped, sendUnstamped, sendBeforeUser,
            sendRefused, sendDelay.copy()), tapReads, tapMissed, new StampingReport.Chunks(contentChunks,
            sharedStampChunks, togetherChunks, firstChunks, sharedFirstChunks));
    }

    @Override
    public void run()
    {
        try
        {
            while (running)
            {
                turn();
            }
        }
        finally
        {
            shutdown();
        }
    }

    /**
     * One turn of the loop: wait in epoll (until the earliest deadline, or not at all when busy-polling), serve what
     * is ready, run the queued tasks, fire the timers that came due. Package-private so that the read-path benchmark
     * turns an unstarted loop on its own thread.
     */
    void turn()
    {
        final int timeoutMs = settings().busyPoll() ? 0 : waitMs(settings().clock().nanoTime());
        final int n = LinuxNet.epollWait(errno, epfd, events, MAX_EVENTS, timeoutMs);
        for (int i = 0; i < n; i++)
        {
            final long at = (long)i * LinuxNet.EPOLL_EVENT_BYTES;
            final int ready = events.get(ValueLayout.JAVA_INT_UNALIGNED, at);
            final long key = events.get(ValueLayout.JAVA_LONG_UNALIGNED, at + 4);
            if (key == WAKE_KEY)
            {
                LinuxNet.eventfdDrain(errno, wakeFd, scratch);
            }
            else
            {
                connections.get((int)key).onReady(ready);
            }
        }
        runTasks();
        checkTimers(settings().clock().nanoTime());
    }

    private void runTasks()
    {
        RequestSlot claimedSlot;
        while ((claimedSlot = claimed.poll()) != null)
        {
            send(claimedSlot, true);
        }
        Object task;
        while ((task = tasks.poll()) != null)
        {
            if (task instanceof RequestSlot slot)
            {
                send(slot, false);
            }
            else
            {
                ((Runnable)task).run();
            }
        }
    }

    /**
     * Sends {@code slot} on the user's connection, an idle one, or a new one.
     *
     * @param claimedIdle whether its submit already claimed an idle connection; else it claims one here, if any.
     */
    private void send(final RequestSlot slot, final boolean claimedIdle)
    {
        if (sticky != null && slot.user >= 0 && slot.user < sticky.length)
        {
            final KernelConnection mine = sticky[slot.user];
            sticky[slot.user] = null;
            if (mine != null && mine.isOpen() && !mine.busy())
            {
                mine.send(slot);
                return;
            }
        }
        if (claimedIdle || claimIdle())
        {
            KernelConnection c;
            while ((c = idle.poll()) != null)
            {
                if (c.isOpen())
                {
                    c.send(slot);
                    return;
                }
            }
        }
        open(slot, null, null);
    }

    /** Sends {@code slot} on a connection opened for it (a resend after a stale connection): never an idle one. */
    @Override
    public void sendOnNewConnection(final RequestSlot slot)
    {
        open(slot, null, null);
    }

    private void open(final RequestSlot slot, final CountDownLatch done, final AtomicInteger opened)
    {
        final StampedSocket socket;
        try
        {
            socket = StampedSocket.connect(client.address(), settings().endpoint().port(), client.askKernel(),
                client.tap());
        }
        catch (final IOException | RuntimeException e)
        {
            if (slot != null)
            {
                final ErrorClassifier.Classified failure = ErrorClassifier.connectFailure(e, settings().limits());
                client.failUnsent(slot, failure.error(), failure.detail());
            }
            if (done != null)
            {
                done.countDown();
            }
            return;
        }
        final Integer free = freeIds.poll();
        final int id = free != null ? free : connections.size();
        final KernelConnection c = new KernelConnection(this, id, socket, client.newTls(), slot, done, opened);
        if (free != null)
        {
            connections.set(id, c);
        }
        else
        {
            connections.add(c);
        }
        LinuxNet.epollCtl(errno, epfd, LinuxNet.EPOLL_CTL_ADD, socket.fd(),
            LinuxNet.EPOLLOUT | LinuxNet.EPOLLIN | LinuxNet.EPOLLRDHUP, c.id(), event);
        deadlineArmed(c.nextDeadlineNs());
    }

    /**
     * A connection armed a limit that runs out at {@code deadlineNs} (or a lower bound of it): the timers are looked
     * at by then. Every place that can make a connection's {@link KernelConnection#nextDeadlineNs} earlier calls this.
     */
    void deadlineArmed(final long deadlineNs)
    {
        if (deadlineNs < timersDueNs)
        {
            timersDueNs = deadlineNs;
        }
    }

    /** Changes what epoll watches on {@code c}: readable always, writable while a request is half written. */
    void watch(final KernelConnection c, final boolean writable)
    {
        LinuxNet.epollCtl(errno, epfd, LinuxNet.EPOLL_CTL_MOD, c.fd(), LinuxNet.EPOLLIN | LinuxNet.EPOLLRDHUP |
            (writable ? LinuxNet.EPOLLOUT : 0), c.id(), event);
    }

    /** {@code c} closed: epoll forgets it (closing the fd does too; this keeps the set exact). */
    void forget(final KernelConnection c)
    {
        LinuxNet.epollCtl(errno, epfd, LinuxNet.EPOLL_CTL_DEL, c.fd(), 0, c.id(), event);
        if (idle.remove(c))
        {
            decrementIfPositive(unclaimedIdle); // none left to claim: a claim in flight then opens a new one
        }
        freeIds.add(c.id());
    }

    /** A connection is free again: for its user (session affinity), or for anyone. */
    void release(final KernelConnection c, final int user)
    {
        if (sticky != null && user >= 0 && user < sticky.length)
        {
            final KernelConnection previous = sticky[user];
            sticky[user] = c;
            if (previous != null && previous != c)
            {
                previous.close();
            }
            return;
        }
        idle.add(c);
        unclaimedIdle.incrementAndGet();
    }

    @Override
    public void retryLater(final RequestSlot slot, final long delayNs)
    {
        retries.add(new Retry(settings().clock().nanoTime() + delayNs, slot));
    }

    /**
     * Counts one read and returns its stamp on the run's clock: the kernel's, converted with the offset sampled now,
     * or, when the read carried none, the user stamp taken now (counted as a fallback).
     *
     * @param kernelStampNs the read's kernel stamp ({@code CLOCK_REALTIME}), or a negative code.
     * @param backlog       whether the read was cut at an event's end because more was queued.
     * @param shared        whether its kernel stamp equals the previous read's on the same connection.
     */
    long stamp(final long kernelStampNs, final boolean backlog, final boolean shared)
    {
        final long userNs = bridge.sample();
        reads++;
        if (backlog)
        {
            backlogReads++;
        }
        if (shared)
        {
            sharedStamps++;
        }
        if (kernelStampNs < 0)
        {
            fallbackReads++;
            noteFallback(kernelStampNs);
            return userNs;
        }
        // A kernel stamp a few hundred ns "after" the user stamp is the offset's own error: never later than user.
        final long kernelNs = Math.min(bridge.toMonotonicNs(kernelStampNs), userNs);
        receiveDelay.recordValue(Math.min(userNs - kernelNs, receiveDelay.getHighestTrackableValue()));
        return kernelNs;
    }

    /**
     * The packet tap's stamp for a read, or for a piece of one: the arrival of the segment that carried its last byte
     * ({@code endOffset - 1} of the connection), when the tap has it and it is not after the socket's stamp of the
     * read (it never was in the tests: the tap's copy of a segment is stamped 0.2-2 µs earlier than the socket's on
     * loopback, PacketTapIT); otherwise the socket's stamp, counted as missed.
     */
    long tapStamp(final PacketTap tap, final int port, final long endOffset, final long kernelStampNs)
    {
        final long tapNs = tap.stampOf(port, endOffset);
        lastTapHit = tapNs >= 0 && (kernelStampNs < 0 || tapNs <= kernelStampNs);
        if (lastTapHit)
        {
            tapReads++;
            return tapNs;
        }
        tapMissed++;
        return kernelStampNs;
    }

    /**
     * Counts one request's send stamp and returns it on the run's clock, converted with the offset sampled now.
     * Not clamped to the user send stamp: a stamp before it would be a stamp of other bytes or a conversion error,
     * and is counted as such ({@code before_user_send}) rather than hidden.
     *
     * @param userSentNs    the request's user send stamp, taken before its write.
     * @param kernelStampNs the kernel's send stamp of its last byte ({@code CLOCK_REALTIME}).
     */
    long sendStamp(final long userSentNs, final long kernelStampNs)
    {
        bridge.sample();
        final long kernelNs = bridge.toMonotonicNs(kernelStampNs);
        final long delayNs = kernelNs - userSentNs;
        sendStamped++;
        if (delayNs < 0)
        {
            sendBeforeUser++;
        }
        sendDelay.recordValue(Math.min(Math.max(0, delayNs), sendDelay.getHighestTrackableValue()));
        return kernelNs;
    }

    /** A request with send stamps on ended without its stamp. */
    void sendUnstamped()
    {
        sendUnstamped++;
    }

    /** The kernel refused send stamps on a socket: its requests carry the user send stamp only; said once. */
    void sendStampsRefused(final int errno)
    {
        if (sendRefused++ == 0)
        {
            client.note().accept("stamping: the kernel refused send stamps (SOF_TIMESTAMPING_TX_SOFTWARE, errno " +
                errno + "): requests keep their user send stamp only (report.client_send_delay.sockets_refused)");
        }
    }

    private void noteFallback(final long code)
    {
        if (!fallbackNoted)
        {
            fallbackNoted = true;
            client.note().accept("stamping: a read carried no kernel stamp (" + ControlMessages.describe(code) +
                "): such reads take a user stamp and are counted (measurement.stamping.fallback_reads)");
        }
    }

    private int waitMs(final long nowNs)
    {
        long earliest = Math.min(nowNs + MAX_WAIT_MS * 1_000_000L, timersDueNs);
        if (!retries.isEmpty())
        {
            earliest = Math.min(earliest, retries.peek().dueNs());
        }
        if (earliest <= nowNs)
        {
            return 0; // compared, not subtracted: the first turn's bound is Long.MIN_VALUE, whose difference overflows
        }
        return (int)Math.min(MAX_WAIT_MS, (earliest - nowNs + 999_999) / 1_000_000);
    }

    private void checkTimers(final long nowNs)
    {
        if (nowNs >= timersDueNs)
        {
            // What the scan fires may arm other connections (a resend, a retry's send): those lower the bound too
            timersDueNs = Long.MAX_VALUE;
            for (int i = 0; i < connections.size(); i++) // by index: an iterator per turn was garbage per chunk
            {
                final KernelConnection c = connections.get(i);
                c.checkDeadlines(nowNs);
                deadlineArmed(c.nextDeadlineNs());
            }
        }
        while (!retries.isEmpty() && retries.peek().dueNs() <= nowNs)
        {
            client.resubmit(retries.poll().slot());
        }
    }

    private void cancelEverything()
    {
        for (int i = 0; i < connections.size(); i++)
        {
            connections.get(i).abort(ErrorClass.CANCELLED, "cancelled at the end of the run");
        }
        Retry r;
        while ((r = retries.poll()) != null)
        {
            client.failUnsent(r.slot(), ErrorClass.CANCELLED, "cancelled at the end of the run while waiting to " +
                "retry a 429");
        }
    }

    /**
     * Closes every connection, the eventfd and the epoll set: at the end of {@link #run}, or of a loop never
     * started.
     */
    void shutdown()
    {
        for (int i = 0; i < connections.size(); i++)
        {
            connections.get(i).close();
        }
        LinuxNet.close(errno, wakeFd);
        LinuxNet.close(errno, epfd);
    }
}
