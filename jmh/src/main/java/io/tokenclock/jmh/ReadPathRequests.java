package io.tokenclock.jmh;

import io.tokenclock.recording.Collector;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.SlotPool;

/**
 * The load generator's and the collector's side of the read-path benchmarks ({@link PerChunkNettyBenchmark},
 * {@link PerChunkKernelBenchmark}), on the benchmark's thread: a slot taken from the pool per request, the reads of
 * one 256-event chunked answer, the collector drained every 64 reads and at the end of each answer, as in
 * {@link PerChunkBenchmark}. {@link #check} fails the trial unless every request ended well, so that a path that
 * broke cannot report a fast score.
 */
final class ReadPathRequests
{
    /** Events per answer: the reads of one request. */
    static final int CHUNKS_PER_REQUEST = 256;

    private static final byte[][] READS = Payloads.chunkedAnswer(CHUNKS_PER_REQUEST);
    private static final byte[] BODY = Payloads.bytes("{\"model\":\"m\",\"stream\":true,\"max_tokens\":256," +
        "\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"" +
        "Write a short story about a lighthouse keeper who collects clocks.\"}]}");

    private final SlotPool pool = new SlotPool(2);
    private Collector collector;
    private int chunk;
    private long submitted;

    SlotPool pool()
    {
        return pool;
    }

    void open(final Collector collector)
    {
        this.collector = collector;
    }

    /** @return whether the next read is the first of an answer (its request must be submitted first). */
    boolean startsRequest()
    {
        return chunk == 0;
    }

    /** @return a slot filled as the load generator fills one, ready to submit. */
    RequestSlot next() throws InterruptedException
    {
        final RequestSlot slot = pool.acquire(1_000_000_000L);
        if (slot == null)
        {
            throw new IllegalStateException("no free slot: the last request did not end");
        }
        slot.phase = RequestSlot.PHASE_MEASURE;
        slot.scheduledNs = System.nanoTime();
        slot.body = BODY;
        slot.bodyLength = BODY.length;
        submitted++;
        return slot;
    }

    /** @return the bytes of the next read of the answer in flight. */
    byte[] read()
    {
        return READS[chunk];
    }

    /** Drains every 64 reads and after the answer's last one. @return the reads so far in this answer. */
    int afterRead()
    {
        final int c = chunk + 1;
        chunk = c == CHUNKS_PER_REQUEST ? 0 : c;
        if ((c & 63) == 0)
        {
            collector.poll();
        }
        return c;
    }

    /** Throws unless every request submitted and answered in full ended well. */
    void check()
    {
        collector.poll();
        final long ok = collector.counters().get(Collector.MEASURED_OK);
        final long error = collector.counters().get(Collector.MEASURED_ERROR);
        final long whole = chunk == 0 ? submitted : submitted - 1;
        if (ok != whole || error != 0 || ok == 0)
        {
            throw new IllegalStateException("the read path broke: " + submitted + " requests submitted, " + whole +
                " answered in full, " + ok + " ended well, " + error + " with an error");
        }
    }
}
