package io.tokenclock.recording;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.MetricRecorders;

/**
 * Everything the harness does once per finished request, after its permit is back: the harness's own token count,
 * metric derivation, recording into the HdrHistogram recorders, counters, the listener (the {@code requests.jsonl}
 * line), and returning the slot to the pool.
 * <p>
 * Why a stage of its own: this work costs tens of microseconds per request (tokenizing, JSON, file I/O), and at a
 * closed loop's wave boundary hundreds of requests end at once. Done by the ring's consumer, it delayed the draining
 * of every other stream's chunk records and, on a core shared with the I/O thread, the stamping of their chunks. Run
 * on its own thread ({@link #run()}, started by the runner at a lower scheduling priority), it stays behind the
 * stamping thread and the ring's consumer: the consumer only rebuilds chunk timelines, frees permits, and hands each
 * ended request here through a queue that can hold every slot the pool can create, so the hand-off never fails and
 * never waits.
 * <p>
 * Back-pressure instead of loss: a stage that falls behind keeps slots, and once the pool has created all it may
 * ({@link SlotPool}) the load generator waits for one, which the run reports as send lag. Nothing is dropped.
 * <p>
 * Flushing: the listener is flushed {@link #FLUSH_INTERVAL_NS} after the first unflushed request at the latest
 * (checked after every request and on every idle pass; an idle stage parks until that flush is due), and when the
 * stage stops. So a request is on disk within about 100 ms of reaching this stage, which is the bound a {@code kill -9}
 * can lose.
 * <p>
 * Without its own thread (tests, single-threaded drivers), {@link Collector#poll()} runs {@link #process} inline.
 * Thread-safety: {@link #offer} from the ring's consumer only; the rest on the stage's thread; counters readable from
 * any thread.
 */
public final class RequestStage implements Runnable
{
    /** The longest a finished request's log line waits in memory before a flush, in ns. */
    public static final long FLUSH_INTERVAL_NS = 100_000_000L;

    private final OneToOneConcurrentArrayQueue<RequestSlot> ended;
    private final SlotPool pool;
    private final MetricRecorders recorders;
    private final RequestListener listener;
    private final RequestGroup[] groups;
    private final RequestMetrics metrics = new RequestMetrics();
    private final AtomicLongArray counters;
    private final AtomicLongArray errorsByClass;
    /** Empty passes spent spinning before the stage parks. */
    static final int IDLE_SPINS = 64;
    /**
     * The longest park with nothing to flush. The stage needs no timer of its own then: {@link #offer} wakes it for
     * every request that finds the queue empty, and {@link #close} wakes it to stop. With something to flush it
     * parks only until the flush is due. It used to park at most 10 ms whatever it held, about 100 wake-ups a second
     * at about 30 µs of CPU each on the stamping thread's core: 26 µs per chunk at one stream x 8 ms, more than a
     * quarter of the stamping thread's own figure (client_cpu_by_thread, 2026-12-02, results/client-cpu).
     */
    static final long IDLE_PARK_NS = 1_000_000_000L;
    private LongSupplier windowCloseNs = () -> 0;
    private RequestVerdicts goodput;
    private TokenCounter tokenCounter;
    private boolean acceptTruncated;
    private volatile boolean running = true;
    private volatile Thread thread;
    private boolean unflushed;
    private long firstUnflushedNs;
    private long windowStartNs;
    private long windowEndNs;

    RequestStage(
        final SlotPool pool, final MetricRecorders recorders, final RequestListener listener,
        final RequestGroup[] groups, final AtomicLongArray counters, final AtomicLongArray errorsByClass)
    {
        this.ended = new OneToOneConcurrentArrayQueue<>(pool.maxSlots());
        this.pool = pool;
        this.recorders = recorders;
        this.listener = listener;
        this.groups = groups;
        this.counters = counters;
        this.errorsByClass = errorsByClass;
    }

    void windowClose(final LongSupplier closeNs)
    {
        this.windowCloseNs = closeNs;
    }

    void tokenCounter(final TokenCounter counter)
    {
        this.tokenCounter = counter;
    }

    void goodput(final RequestVerdicts book)
    {
        this.goodput = book;
    }

    void acceptTruncated(final boolean accept)
    {
        this.acceptTruncated = accept;
    }

    /**
     * Queues an ended request; never fails, since the queue holds every slot the pool can create. Wakes the stage when
     * the queue was empty (it may be parked for up to {@link #IDLE_PARK_NS}), so a user's next turn, which waits for
     * this request's end to be processed, is not held back by the stage's idle.
     */
    void offer(final RequestSlot slot)
    {
        final boolean wasEmpty = ended.isEmpty();
        if (!ended.offer(slot))
        {
            throw new IllegalStateException("request stage queue full: more slots than the pool creates");
        }
        final Thread t = thread;
        if (wasEmpty && t != null)
        {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void run()
    {
        thread = Thread.currentThread();
        final OneToOneConcurrentArrayQueue<RequestSlot> q = ended;
        int emptyPasses = 0;
        while (running)
        {
            final RequestSlot slot = q.poll();
            if (slot != null)
            {
                process(slot);
                emptyPasses = 0;
            }
            else if (emptyPasses++ < IDLE_SPINS)
            {
                Thread.onSpinWait();
            }
            else
            {
                LockSupport.parkNanos(idleParkNs(System.nanoTime()));
            }
            flushIfDue(System.nanoTime());
        }
        drain();
        flush();
    }

    /** @return how long an idle stage may park at {@code nowNs}: until its flush is due, else {@link #IDLE_PARK_NS}. */
    long idleParkNs(final long nowNs)
    {
        return unflushed ? Math.max(1, firstUnflushedNs + FLUSH_INTERVAL_NS - nowNs) : IDLE_PARK_NS;
    }

    /**
     * Processes what is queued now on the calling thread, instead of {@link #run()}: for benchmarks and
     * single-threaded drivers that split the work as a run does but play both threads themselves.
     *
     * @return the requests processed.
     */
    public int drain()
    {
        int n = 0;
        RequestSlot slot;
        while ((slot = ended.poll()) != null)
        {
            process(slot);
            n++;
        }
        return n;
    }

    /** Asks {@link #run()} to process what is queued, flush, and return. */
    public void close()
    {
        running = false;
        final Thread t = thread;
        if (t != null)
        {
            LockSupport.unpark(t);
        }
    }

    /** @return ended requests not yet processed. */
    public int backlog()
    {
        return ended.size();
    }

    private void flushIfDue(final long nowNs)
    {
        if (unflushed && nowNs - firstUnflushedNs >= FLUSH_INTERVAL_NS)
        {
            flush();
        }
    }

    private void flush()
    {
        unflushed = false;
        if (listener != null)
        {
            listener.flush();
        }
    }

    /** Does one ended request's work and returns its slot; on the stage's thread, or inline without one. */
    void process(final RequestSlot slot)
    {
        if (slot.errorClass == ErrorClass.TRUNCATED)
        {
            if (slot.phase == RequestSlot.PHASE_MEASURE)
            {
                increment(Collector.MEASURED_TRUNCATED);
            }
            if (acceptTruncated)
            {
                slot.truncated = true;
                slot.errorClass = ErrorClass.NONE;
                slot.status = RequestSlot.STATUS_OK;
            }
        }
        if (tokenCounter != null)
        {
            slot.harnessOutputTokens = tokenCounter.count(slot);
        }
        final RequestMetrics m = metrics.compute(slot);
        if (slot.phase == RequestSlot.PHASE_MEASURE)
        {
            onMeasured(slot, m);
        }
        else
        {
            increment(Collector.WARMUP_DONE);
        }
        if (listener != null)
        {
            listener.onRequestComplete(slot, m);
            if (!unflushed)
            {
                unflushed = true;
                firstUnflushedNs = System.nanoTime();
            }
        }
        increment(Collector.COMPLETED);
        pool.returnSlot(slot);
    }

    private void onMeasured(final RequestSlot slot, final RequestMetrics m)
    {
        add(Collector.MEASURED_RETRIES_429, slot.retries429);
        add(Collector.MEASURED_STALE_RESENDS, slot.staleResends);
        add(Collector.MEASURED_UNKNOWN_EVENTS, slot.unknownEvents);
        final long start = slot.scheduledNs > 0 ? slot.scheduledNs : slot.sentNs;
        if (windowStartNs == 0 || (start > 0 && start < windowStartNs))
        {
            windowStartNs = start;
        }
        windowEndNs = Math.max(windowEndNs, slot.endNs);
        final long closeNs = windowCloseNs.getAsLong();
        slot.late = closeNs > 0 && slot.endNs > closeNs;
        if (slot.late)
        {
            increment(Collector.MEASURED_LATE);
        }
        if (goodput != null)
        {
            slot.goodputVerdict = goodput.onMeasured(slot, m);
            if (slot.goodputVerdict == 0)
            {
                increment(Collector.MEASURED_GOOD);
            }
        }
        final RequestGroup group = groups.length > 0 ? groups[slot.group] : null;
        if (group != null)
        {
            group.onMeasured(slot, m);
        }
        if (slot.status == RequestSlot.STATUS_OK)
        {
            recordOk(recorders, slot, m);
            if (group != null)
            {
                recordOk(group.recorders(), slot, m);
            }
            increment(Collector.MEASURED_OK);
            add(Collector.MEASURED_INPUTS, slot.inputs);
            add(Collector.MEASURED_OUTPUT_TOKENS, Math.max(0, m.outputTokens));
            add(Collector.MEASURED_INPUT_TOKENS, Math.max(0, m.inputTokens));
            cache(slot, m);
        }
        else
        {
            final boolean cancelled = slot.status == RequestSlot.STATUS_CANCELLED;
            increment(cancelled ? Collector.MEASURED_CANCELLED : Collector.MEASURED_ERROR);
            if (cancelled)
            {
                add(Collector.MEASURED_WASTED_TOKENS, Math.max(0, m.outputTokens));
            }
            else
            {
                add(Collector.MEASURED_FAILED_OUTPUT_TOKENS, Math.max(0, m.outputTokens));
            }
            wastedInput(slot, m, cancelled);
            final int errorClass = slot.errorClass.ordinal();
            errorsByClass.lazySet(errorClass, errorsByClass.get(errorClass) + 1);
        }
    }

    /**
     * Counts what an ok request said of the prefix cache: the cached tokens its server reported (with its input
     * tokens, the per-request hit rate's denominator), the tokens an infinite cache would have held (with the
     * workload's count of its input), and its engine's speculative drafts.
     */
    private void cache(final RequestSlot slot, final RequestMetrics m)
    {
        if (slot.cachedTokens >= 0)
        {
            add(Collector.MEASURED_CACHED_TOKENS, slot.cachedTokens);
            increment(Collector.MEASURED_CACHE_REPORTING);
            add(Collector.MEASURED_CACHE_REPORTING_INPUT_TOKENS, Math.max(0, m.inputTokens));
        }
        if (slot.idealCachedTokens >= 0)
        {
            add(Collector.MEASURED_IDEAL_CACHED_TOKENS, slot.idealCachedTokens);
            add(Collector.MEASURED_IDEAL_INPUT_TOKENS, Math.max(0, slot.promptTokensHint));
        }
        if (slot.engineDraftTokens >= 0)
        {
            add(Collector.MEASURED_ENGINE_DRAFT_TOKENS, slot.engineDraftTokens);
            add(Collector.MEASURED_ENGINE_DRAFT_ACCEPTED, Math.max(0, slot.engineDraftAccepted));
        }
    }

    /**
     * Counts the input a failed or cancelled request wasted. A request refused before any work (429, connect error, a
     * 4xx) consumed no input on the server; one that failed without answering (a 500, a first-byte timeout) had its
     * prompt taken on all the same. Without the server's usage, the count is the harness's tokenizer's.
     */
    private void wastedInput(final RequestSlot slot, final RequestMetrics m, final boolean cancelled)
    {
        if (cancelled || slot.chunkCount > 0 || !slot.errorClass.refusedBeforeWork())
        {
            add(Collector.MEASURED_WASTED_INPUT_TOKENS, Math.max(0, m.inputTokens));
            if (slot.usagePromptTokens < 0)
            {
                add(Collector.MEASURED_WASTED_INPUT_TOKENS_TOKENIZER, Math.max(0, m.inputTokens));
            }
        }
    }

    private static void recordOk(final MetricRecorders r, final RequestSlot s, final RequestMetrics m)
    {
        r.record(Metric.TTFT, m.ttftNs);
        r.record(Metric.STREAM_SETUP, m.streamSetupNs);
        r.record(Metric.TTFT_FROM_SCHEDULE, m.ttftFromScheduleNs);
        r.record(Metric.TTFOT, m.ttfotNs);
        r.record(Metric.TTST, m.ttstNs);
        r.record(Metric.TPOT, Math.round(m.tpotNs));
        r.record(Metric.E2E, m.e2eNs);
        r.record(Metric.E2E_FROM_SCHEDULE, m.e2eFromScheduleNs);
        r.record(Metric.SEND_LAG, Math.max(0, m.sendLagNs));
        r.record(Metric.OUTPUT_TOKENS, m.outputTokens);
        r.record(Metric.INPUT_TOKENS, m.inputTokens);
        r.record(Metric.OUTPUT_TPS_PER_REQUEST, Math.round(m.outputTokensPerSecond * 1e3));
        r.record(Metric.ENGINE_TTFT, m.engineTtftNs);
        r.record(Metric.ENGINE_TPOT, Math.round(m.engineTpotNs));
        final long[] ns = s.chunkNs;
        final int[] tokens = s.chunkTokens;
        for (int i = 0, n = s.chunkCount; i < n; i++)
        {
            if (tokens[i] >= 0)
            {
                r.record(Metric.CHUNK_TOKENS, tokens[i]);
            }
            if (i > 0)
            {
                r.record(Metric.INTER_CHUNK_LATENCY, ns[i] - ns[i - 1]);
                if (tokens[i] > 0)
                {
                    r.record(Metric.TOKEN_ITL, Formulas.tokenItlWholeNs(ns[i - 1], ns[i], tokens[i]), tokens[i]);
                }
            }
        }
    }

    private void increment(final int counter)
    {
        counters.lazySet(counter, counters.get(counter) + 1);
    }

    private void add(final int counter, final long delta)
    {
        counters.lazySet(counter, counters.get(counter) + delta);
    }

    long windowStartNs()
    {
        return windowStartNs;
    }

    long windowEndNs()
    {
        return windowEndNs;
    }
}
