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
 * <p>
 * <b>Pauses.</b> A busy loop that stamps through the packet tap waits up to {@link #PAUSE_MS} between turns, on the
 * wake eventfd alone, so that readiness gathers and one wake-up serves many chunks ({@link #pauseIfBusy}). Why it
 * is safe: with the tap, a read's stamp is the arrival of the segment that carried its last byte, however late the
 * read; without it, a late read merges segments and loses stamps, so the loop never pauses then.
 */
final class KernelLoop implements Runnable, Exchange.Owner
{
    /** The epoll key of the wake-up eventfd; connections use their index. */
    private static final long WAKE_KEY = -1L;
    private static final int MAX_EVENTS = 256;
    private static final int MAX_WAIT_MS = 100;
    /**
     * Connections ready in one turn (epoll drained) at which the loop counts as busy and starts pausing between turns.
     * <p>
     * Why 32: above what the low-load cells can make ready at once, even in lockstep (1 and 16 streams: a turn
     * there finds 1-16 ready and never pauses, so low load behaves as without pauses); and a pause of
     * {@link #PAUSE_MS} gathers about 32 ready connections from 32,000 chunks/s, 320 streams at an ITL of 10 ms,
     * below the 500- and 1,000-stream cells where waking once per chunk cost most of the loop's CPU (issue 41: 36-44%
     * in recvmsg, 5-11% in epoll_wait, a wake-up for almost every chunk). Example: 1,000 streams at 10 ms are 100
     * chunks a ms; a turn behind by 32 pauses, and each pause then gathers about 100 for the next turn.
     */
    static final int BUSY_EVENTS = 32;
    /**
     * The longest pause between busy turns, ms (epoll_wait's grain; the kernel adds its timer slack, 50 µs).
     * <p>
     * Why 1 ms: at 1,000 streams it gathers about 100 chunks per wake-up, so the wake's cost per chunk is a
     * hundredth; a longer pause saves little more and delays what the loop does once per stream end: a closed
     * loop's next request starts when the loop has read the end, up to a pause later (1 ms against TTFTs of tens of
     * ms), and each pause adds up to 1 ms to the client's receive delay, which the tap's stamps do not see. A
     * throwaway experiment parking 2-5 ms served at most 256 connections a turn and fell behind (receive delay p99
     * 293-534 ms); here a pause never follows a turn that has not drained epoll, and new work ends it at once.
     */
    static final int PAUSE_MS = 1;
    /** Reads taken from one connection per readiness event, so that one busy stream cannot starve the others. */
    static final int READS_PER_EVENT = 64;

    /** What this loop counted, for {@link StampingReport}. */
    record Counts(long reads, long fallbackReads, long backlogReads, long sharedStamps, long steps, long minOffsetNs,
        long maxOffsetNs, Histogram receiveDelay, SendCounts send, long tapReads, long tapMissed,
        StampingReport.Chunks chunks, StampingReport.Reader reader)
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
    /** An epoll set holding only {@link #wakeFd}: what a pause waits on, so that new work ends it at once. */
    private final int pauseEpfd;
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
    private volatile long pauses;
    private volatile long pausedNs;
    private volatile long pausesCutShort;
    /** Whether the loop is busy and pauses between turns ({@link #pauseIfBusy}; this thread only). */
    private boolean pausing;
    /** Whether the last turn's pause ran its whole time, no work cutting it short (this thread only). */
    private boolean lastPauseWhole;
    /** A test's task, run on this thread as the next pause begins ({@link #beforeNextPause}), or null. */
    private Runnable beforePause;
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
        this.pauseEpfd = LinuxNet.epollCreate(errno);
        if (epfd < 0 || wakeFd < 0 || pauseEpfd < 0)
        {
            throw new IllegalStateException("epoll_create1 or eventfd failed, errno " + LinuxNet.errno(errno));
        }
        LinuxNet.epollCtl(errno, epfd, LinuxNet.EPOLL_CTL_ADD, wakeFd, LinuxNet.EPOLLIN, WAKE_KEY, event);
        LinuxNet.epollCtl(errno, pauseEpfd, LinuxNet.EPOLL_CTL_ADD, wakeFd, LinuxNet.EPOLLIN, WAKE_KEY, event);
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

    /**
     * Runs {@code task} on this loop's thread as its next pause begins, once: the hook through which a test submits
     * work during a pause (KernelReaderPauseIT). Any thread.
     */
    void beforeNextPause(final Runnable task)
    {
        post((Runnable)() -> beforePause = task);
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
            sharedStampChunks, togetherChunks, firstChunks, sharedFirstChunks),
            new StampingReport.Reader(pauses, pausedNs, pausesCutShort));
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
     * is ready, run the queued tasks, fire the timers that came due, and pause if the loop is busy
     * ({@link #pauseIfBusy}). Package-private so that the read-path benchmark turns an unstarted loop on its own
     * thread.
     */
    void turn()
    {
        final boolean mayPause = mayPause();
        final int served = serveReady(settings().busyPoll() ? 0 : waitMs(settings().clock().nanoTime()), mayPause);
        runTasks();
        checkTimers(settings().clock().nanoTime());
        if (mayPause)
        {
            pauseIfBusy(served);
        }
        else
        {
            pausing = false; // a tap that stops stamping ends the pausing: it starts again only from a busy turn
        }
    }

    /**
     * Serves the connections epoll finds ready; when {@code drain}, until epoll has none left (a full batch of
     * {@link #MAX_EVENTS} may leave more), so that a pause never leaves ready connections waiting behind it.
     *
     * @return the connections served.
     */
    private int serveReady(final int timeoutMs, final boolean drain)
    {
        int n = LinuxNet.epollWait(errno, epfd, events, MAX_EVENTS, timeoutMs);
        int served = serve(n);
        while (drain && n == MAX_EVENTS)
        {
            n = LinuxNet.epollWait(errno, epfd, events, MAX_EVENTS, 0);
            served += serve(n);
        }
        return served;
    }

    /** Serves the first {@code n} of {@link #events}; @return the connections among them. */
    private int serve(final int n)
    {
        int served = 0;
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
                served++;
            }
        }
        return served;
    }

    /**
     * @return whether this loop may pause between busy turns: only while the packet tap stamps its reads (a late
     * read then keeps every segment's arrival), and never when busy-polling (which asked for no sleep at all).
     */
    private boolean mayPause()
    {
        return !settings().busyPoll() && tapStamping();
    }

    /** @return whether the packet tap stamps this loop's reads: the one place that says so. */
    private boolean tapStamping()
    {
        return client.tap() != null;
    }

    /**
     * Pauses after a busy turn: one that served {@link #BUSY_EVENTS} connections or more starts the pausing, and it
     * goes on until a pause that ran its whole time gathered fewer (the load fell). A pause cut short by new work
     * says nothing of the load, so it neither starts nor ends the pausing. Each pause waits on the wake eventfd alone,
     * at most {@link #PAUSE_MS} and never past the next limit or retry; {@link #post}, {@link #submitClaimed} and
     * {@link #stop} end it at once, so sends are not delayed.
     */
    private void pauseIfBusy(final int served)
    {
        if (served >= BUSY_EVENTS)
        {
            pausing = true;
        }
        else if (lastPauseWhole)
        {
            pausing = false;
        }
        lastPauseWhole = false;
        if (pausing)
        {
            pause();
        }
    }

    private void pause()
    {
        final long startNs = settings().clock().nanoTime();
        final int ms = pauseMs(startNs);
        if (ms <= 0)
        {
            return;
        }
        final Runnable hook = beforePause;
        if (hook != null)
        {
            beforePause = null;
            hook.run();
        }
        final int woken = LinuxNet.epollWait(errno, pauseEpfd, events, 1, ms); // the eventfd is drained next turn
        pausedNs += settings().clock().nanoTime() - startNs;
        pauses++;
        if (woken > 0)
        {
            pausesCutShort++;
        }
        lastPauseWhole = woken == 0; // -1: a signal (EINTR), neither whole nor new work
    }

    /** @return how long a pause from {@code nowNs} may last, whole ms: {@link #PAUSE_MS}, less before a limit. */
    private int pauseMs(final long nowNs)
    {
        if (timersDueNs <= nowNs)
        {
            return 0;
        }
        long untilNs = Math.min(nowNs + PAUSE_MS * 1_000_000L, timersDueNs);
        if (!retries.isEmpty())
        {
            untilNs = Math.min(untilNs, retries.peek().dueNs());
        }
        return (int)Math.max(0, (untilNs - nowNs) / 1_000_000); // rounded down: never past the bound
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
        final long waitNs = earliest - nowNs;
        return waitNs <= 0 ? 0 : (int)Math.min(MAX_WAIT_MS, (waitNs + 999_999) / 1_000_000);
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
        LinuxNet.close(errno, pauseEpfd);
    }
}
