package io.tokenclock.recording;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import io.tokenclock.metrics.MetricRecorders;

/**
 * The single consumer of chunk records: rebuilds each request's chunk timeline and, when its end record arrives, frees
 * its permit at once and hands the request to the {@link RequestStage}, which derives its metrics, records them into
 * HdrHistogram recorders, tells the listener, and frees the slot.
 * <p>
 * Only requests of the measure phase that ended {@code ok} enter the distributions; warmup requests and failed ones
 * are still handed to the listener (so {@code requests.jsonl} keeps everything) and counted by class.
 * <p>
 * Runs on its own thread ({@link #run()}); {@link #close()} asks it to drain what is left and stop. The request stage
 * runs inline unless {@link #stageOnOwnThread()} hands it to a thread of its own before {@link #run()} starts.
 * Counters are readable from any thread.
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
    /** Measured requests that met the run's SLO (before any quality verdict, which comes after the window). */
    public static final int MEASURED_GOOD = 10;
    /** Measured streams that ended without finish_reason or [DONE], accepted ({@code --accept-truncated}) or not. */
    public static final int MEASURED_TRUNCATED = 11;
    /** Times measured requests were sent again after a 429 ({@code --retry-429}). */
    public static final int MEASURED_RETRIES_429 = 12;
    /** Input tokens of measured requests that failed after the server had taken them on, or were cancelled. */
    public static final int MEASURED_WASTED_INPUT_TOKENS = 13;
    /** Output tokens streamed to measured requests that then failed (cancelled: {@link #MEASURED_WASTED_TOKENS}). */
    public static final int MEASURED_FAILED_OUTPUT_TOKENS = 14;
    /**
     * The part of {@link #MEASURED_WASTED_INPUT_TOKENS} counted by the harness's tokenizer (the prompt's length as it
     * was built) because the server reported no usage for the request; the rest is the server's own count.
     */
    public static final int MEASURED_WASTED_INPUT_TOKENS_TOKENIZER = 15;
    /** Times measured requests were sent again on a new connection: the reused one had been closed unanswered. */
    public static final int MEASURED_STALE_RESENDS = 16;
    /** Events of measured requests of a type the API's grammar does not know. */
    public static final int MEASURED_UNKNOWN_EVENTS = 17;
    /** Inputs of measured requests that ended ok: one per request, or its texts or documents (embeddings, rerank). */
    public static final int MEASURED_INPUTS = 18;
    /** Prompt tokens the server said it served from its prefix cache, over measured ok requests that said. */
    public static final int MEASURED_CACHED_TOKENS = 19;
    /** Measured ok requests whose server reported their cached tokens (0 among them included). */
    public static final int MEASURED_CACHE_REPORTING = 20;
    /** The input tokens of those requests: the denominator of the per-request hit rate. */
    public static final int MEASURED_CACHE_REPORTING_INPUT_TOKENS = 21;
    /** Prompt tokens an infinite prefix cache would have held, over measured ok requests whose workload says. */
    public static final int MEASURED_IDEAL_CACHED_TOKENS = 22;
    /** The input tokens (as the workload counted them) of those requests: the ideal hit rate's denominator. */
    public static final int MEASURED_IDEAL_INPUT_TOKENS = 23;
    /** Tokens the engine's speculative decoder drafted, over measured ok requests that reported it. */
    public static final int MEASURED_ENGINE_DRAFT_TOKENS = 24;
    /** Drafted tokens the engine accepted, over the same requests. */
    public static final int MEASURED_ENGINE_DRAFT_ACCEPTED = 25;
    private static final int COUNTER_COUNT = 26;
    static final long MAX_PARK_NS = 100_000_000;

    private final RingBuffer ring;
    private final SlotPool pool;
    private final RequestStage stage;
    /**
     * Spin briefly, then park 100 ms at once. Chunk records can wait that long: their stamps are already taken, and a
     * 4 MiB ring holds 131,072 records of {@link ChunkRecords#FRAMED_LENGTH} bytes, 131 ms at a million chunks a
     * second; a producer that finds the ring full wakes the collector at once ({@link ChunkRecords}), so a fuller
     * ring costs a wake-up, never a lost or a late record. End records wake the collector at once as well
     * ({@link ChunkRecords#publishEnd}), so a closed loop's refill is not delayed, and {@link #close} wakes it to stop.
     * Why not 1 ms: a scheduler trace of a one-stream run ({@code perf sched timehist},
     * results/accuracy/sessions-2026-11-30) showed the collector waking 2,000 times a second on the stamping thread's
     * core, and occupying it at some of the stamping thread's late wake-ups. Why not 10 ms, as until 2026-12-02: at one
     * stream x 8 ms its 100 wake-ups a second took 36 µs of CPU per chunk, 40% of the stamping thread's own figure
     * (client_cpu_by_thread, results/client-cpu). Why no ramp of yields and parks from 1 µs up (Agrona's usual
     * back-off, here until 2026-12): each chunk restarted it, so between chunks 0.2 ms apart the collector yielded 16
     * times and parked about 8 times, and took 37.7 µs of CPU per chunk, 37% of the client's, at 100 streams x 20 ms.
     */
    private final IdleStrategy idle = new BackoffIdleStrategy(64, 0, MAX_PARK_NS, MAX_PARK_NS);
    private final ChunkRecords records;
    private final AtomicLongArray counters = new AtomicLongArray(COUNTER_COUNT);
    private final AtomicLongArray errorsByClass = new AtomicLongArray(ErrorClass.count());
    private volatile boolean running = true;
    private boolean staged;

    public Collector(
        final ChunkRecords records, final SlotPool pool, final MetricRecorders recorders,
        final RequestListener listener)
    {
        this(records, pool, recorders, listener, new RequestGroup[0]);
    }

    /**
     * @param groups the run's groups, indexed by {@link RequestSlot#group}; empty when the run has no groups.
     */
    public Collector(
        final ChunkRecords records, final SlotPool pool, final MetricRecorders recorders,
        final RequestListener listener, final RequestGroup[] groups)
    {
        this.ring = records.ring();
        this.records = records;
        this.pool = pool;
        this.stage = new RequestStage(pool, recorders, listener, groups.clone(), counters, errorsByClass);
    }

    /**
     * Tells the collector when the measurement window closes (0 until known), so that requests ending later are
     * marked late: the end-of-window rule lets them finish, and the record says how many did.
     */
    public Collector windowClose(final LongSupplier closeNs)
    {
        stage.windowClose(closeNs);
        return this;
    }

    /** Counts every finished request's output with the harness's own tokenizer; null for none. */
    public Collector tokenCounter(final TokenCounter counter)
    {
        stage.tokenCounter(counter);
        return this;
    }

    /**
     * Takes truncated streams (ended cleanly with neither finish_reason nor [DONE]) as {@code ok}, so that their
     * tokens enter the metrics; they are counted as truncated either way.
     */
    public Collector acceptTruncated(final boolean accept)
    {
        stage.acceptTruncated(accept);
        return this;
    }

    /** Hands every measured request to {@code verdicts} (the run's goodput book); null for none. */
    public Collector goodput(final RequestVerdicts verdicts)
    {
        stage.goodput(verdicts);
        return this;
    }

    /**
     * Moves the per-request work off this collector: from now on ended requests are queued for the returned stage,
     * which the caller runs on a thread of its own and closes after this collector has drained. Call before
     * {@link #run()} starts (thread start orders the write).
     */
    public RequestStage stageOnOwnThread()
    {
        staged = true;
        return stage;
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
        records.wakeConsumer();
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
        // The permit goes back before any per-request work, so a closed loop refills without waiting for it.
        pool.releasePermit(slot.endNs);
        if (staged)
        {
            stage.offer(slot);
        }
        else
        {
            stage.process(slot);
        }
    }

    /**
     * @return live counters, indexed by the constants of this class: {@link #CHUNKS} written by the collector thread,
     * the rest by the request stage's thread.
     */
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
     * schedule) of a measured request. Read after the request stage stopped.
     */
    public long windowStartNs()
    {
        return stage.windowStartNs();
    }

    /** @return the latest end of a measured request. Read after the request stage stopped. */
    public long windowEndNs()
    {
        return stage.windowEndNs();
    }
}
