package io.tokenclock.recording;

import java.util.concurrent.atomic.AtomicLongArray;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.MetricRecorders;

/**
 * The single consumer of chunk records: rebuilds each request's chunk timeline, derives its metrics when its end
 * record arrives, records them into HdrHistogram recorders, tells the listener, and frees the slot.
 * <p>
 * Only requests of the measure phase that ended {@code ok} enter the distributions; warmup requests and failed ones
 * are still handed to the listener (so {@code requests.jsonl} keeps everything) and counted by class.
 * <p>
 * Runs on its own thread ({@link #run()}); {@link #close()} asks it to drain what is left and stop. Counters are
 * readable from any thread.
 */
public final class Collector implements Runnable, MessageHandler, AutoCloseable
{
    /** Counter indices of {@link #counters()}. */
    public static final int COMPLETED = 0;
    public static final int MEASURED_OK = 1;
    public static final int MEASURED_ERROR = 2;
    public static final int MEASURED_CANCELLED = 3;
    public static final int WARMUP_DONE = 4;
    public static final int CHUNKS = 5;
    public static final int MEASURED_OUTPUT_TOKENS = 6;
    public static final int MEASURED_INPUT_TOKENS = 7;
    /** Tokens streamed to measured requests that were then cancelled: work the server did for nothing. */
    public static final int MEASURED_WASTED_TOKENS = 8;
    /** Measured requests that ended after the measurement window closed (duration-bounded runs). */
    public static final int MEASURED_LATE = 9;
    /** Measured requests that met the run's SLO. */
    public static final int MEASURED_GOOD = 10;
    private static final int COUNTER_COUNT = 11;

    private final RingBuffer ring;
    private final SlotPool pool;
    private final MetricRecorders recorders;
    private final RequestListener listener;
    private final GroupStats[] groups;
    private java.util.function.LongSupplier windowCloseNs = () -> 0;
    private Slo slo;
    private TokenCounter tokenCounter;
    private final RequestMetrics metrics = new RequestMetrics();
    /**
     * Spin briefly, then park up to 1 ms: chunk records can wait that long (their stamps are already taken), and end
     * records wake the collector at once ({@link ChunkRecords#publishEnd}), so an idle collector costs little CPU
     * without delaying a closed loop's refill.
     */
    private final IdleStrategy idle = new BackoffIdleStrategy(64, 16, 1_000, 1_000_000);
    private final ChunkRecords records;
    private final AtomicLongArray counters = new AtomicLongArray(COUNTER_COUNT);
    private final AtomicLongArray errorsByClass = new AtomicLongArray(ErrorClass.count());
    private volatile boolean running = true;

    private long windowStartNs;
    private long windowEndNs;

    public Collector(
        final ChunkRecords records, final SlotPool pool, final MetricRecorders recorders,
        final RequestListener listener)
    {
        this(records, pool, recorders, listener, new GroupStats[0]);
    }

    /**
     * @param groups per-group statistics, indexed by {@link RequestSlot#group}; empty when the run has no groups.
     */
    public Collector(
        final ChunkRecords records, final SlotPool pool, final MetricRecorders recorders,
        final RequestListener listener, final GroupStats[] groups)
    {
        this.ring = records.ring();
        this.records = records;
        this.pool = pool;
        this.recorders = recorders;
        this.listener = listener;
        this.groups = groups.clone();
    }

    /**
     * Tells the collector when the measurement window closes (0 until known), so that requests ending later are
     * marked late: the end-of-window rule lets them finish, and the record says how many did.
     */
    public Collector windowClose(final java.util.function.LongSupplier closeNs)
    {
        this.windowCloseNs = closeNs;
        return this;
    }

    /** Counts every finished request's output with the harness's own tokenizer; null for none. */
    public Collector tokenCounter(final TokenCounter counter)
    {
        this.tokenCounter = counter;
        return this;
    }

    /** Counts measured requests that meet {@code slo} (the run's overall objective); null for none. */
    public Collector slo(final Slo objective)
    {
        this.slo = objective;
        return this;
    }

    @Override
    public void run()
    {
        records.consumer(Thread.currentThread());
        final RingBuffer r = ring;
        final IdleStrategy i = idle;
        while (running)
        {
            i.idle(r.read(this, 4096));
        }
        while (r.read(this, 4096) > 0)
        {
            Thread.onSpinWait();
        }
    }

    /** Drains and processes whatever is in the ring now; for tests and single-threaded drivers. */
    public int poll()
    {
        return ring.read(this, Integer.MAX_VALUE);
    }

    @Override
    public void close()
    {
        running = false;
    }

    @Override
    public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final RequestSlot slot = pool.get(buffer.getInt(index + ChunkRecords.SLOT_OFFSET));
        if (msgTypeId == ChunkRecords.MSG_CHUNK)
        {
            final long arrivalNs = buffer.getLong(index + ChunkRecords.NS_OFFSET);
            final int flags = buffer.getInt(index + ChunkRecords.FLAGS_OFFSET);
            slot.addChunk(arrivalNs, buffer.getInt(index + ChunkRecords.TOKENS_OFFSET), flags);
            if (slot.firstTokenNs == 0)
            {
                slot.firstTokenNs = arrivalNs;
            }
            if (slot.firstOutputNs == 0 && (flags & RequestSlot.CHUNK_OUTPUT) != 0)
            {
                slot.firstOutputNs = arrivalNs;
            }
            counters.lazySet(CHUNKS, counters.get(CHUNKS) + 1);
        }
        else if (msgTypeId == ChunkRecords.MSG_END)
        {
            onEnd(slot);
        }
    }

    private void onEnd(final RequestSlot slot)
    {
        if (tokenCounter != null)
        {
            slot.harnessOutputTokens = tokenCounter.count(slot);
        }
        final RequestMetrics m = metrics.compute(slot);
        if (slot.phase == RequestSlot.PHASE_MEASURE)
        {
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
                increment(MEASURED_LATE);
            }
            if (slo != null && slo.met(slot, m))
            {
                increment(MEASURED_GOOD);
            }
            final GroupStats group = groups.length > 0 ? groups[slot.group] : null;
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
                increment(MEASURED_OK);
                add(MEASURED_OUTPUT_TOKENS, m.outputTokens);
                add(MEASURED_INPUT_TOKENS, Math.max(0, m.inputTokens));
            }
            else
            {
                increment(slot.status == RequestSlot.STATUS_CANCELLED ? MEASURED_CANCELLED : MEASURED_ERROR);
                if (slot.status == RequestSlot.STATUS_CANCELLED)
                {
                    add(MEASURED_WASTED_TOKENS, m.outputTokens);
                }
                errorsByClass.lazySet(slot.errorClass.ordinal(), errorsByClass.get(slot.errorClass.ordinal()) + 1);
            }
        }
        else
        {
            increment(WARMUP_DONE);
        }
        // The permit goes back before the listener's I/O, so a closed loop refills without waiting for it.
        pool.releasePermit(slot.endNs);
        if (listener != null)
        {
            listener.onRequestComplete(slot, m);
        }
        increment(COMPLETED);
        pool.returnSlot(slot);
    }

    private static void recordOk(final MetricRecorders r, final RequestSlot s, final RequestMetrics m)
    {
        r.record(Metric.TTFT, m.ttftNs);
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
                    r.record(Metric.TOKEN_ITL, (ns[i] - ns[i - 1]) / tokens[i], tokens[i]);
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

    /** @return live counters, indexed by the constants of this class; written by the collector thread only. */
    public AtomicLongArray counters()
    {
        return counters;
    }

    /** @return measured requests that did not end ok, by {@link ErrorClass} ordinal. */
    public AtomicLongArray errorsByClass()
    {
        return errorsByClass;
    }

    /**
     * @return the measurement window's start: the earliest intended start (or send, in closed loop without a
     * schedule) of a measured request. Read after the collector stopped.
     */
    public long windowStartNs()
    {
        return windowStartNs;
    }

    /** @return the latest end of a measured request. Read after the collector stopped. */
    public long windowEndNs()
    {
        return windowEndNs;
    }
}
