package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.MessageHandler;
import org.junit.jupiter.api.Test;

import io.tokenclock.metrics.MetricRecorders;

/**
 * The stage and the collector park long when idle, and whatever needs them sooner wakes them: a request's log line
 * is never held past its flush interval, and a full ring wakes its consumer instead of spinning through its park.
 */
final class RequestStageParkTest
{
    private static final String CONTENT = "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n";

    @Test
    void shouldParkOnlyUntilTheFlushOfAnUnflushedRequestIsDue() throws InterruptedException
    {
        final ChunkRecords records = new ChunkRecords(64 * 1024);
        final SlotPool pool = new SlotPool(1);
        final Collector collector = new Collector(records, pool, new MetricRecorders(), new RequestListener()
        {
            @Override
            public void onRequestComplete(final RequestSlot slot, final RequestMetrics metrics)
            {
            }
        });
        final RequestStage stage = collector.stageOnOwnThread();
        assertEquals(RequestStage.IDLE_PARK_NS, stage.idleParkNs(System.nanoTime()), "nothing to flush: park long");

        final RequestSlot slot = pool.acquire(TimeUnit.SECONDS.toNanos(10));
        assertNotNull(slot);
        slot.phase = RequestSlot.PHASE_MEASURE;
        final StreamRecorder recorder = new StreamRecorder(records);
        recorder.begin(slot);
        slot.sentNs = 1_000_000;
        final byte[] bytes = (CONTENT + "data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);
        recorder.onBytes(bytes, 0, bytes.length, 1_001_000);
        recorder.finish(1_002_000, ErrorClass.NONE, null);
        collector.poll();
        assertEquals(1, stage.drain(), "the ended request reached the stage and was processed");

        final long now = System.nanoTime();
        final long parkNs = stage.idleParkNs(now);
        assertTrue(parkNs > 0 && parkNs <= RequestStage.FLUSH_INTERVAL_NS,
            "a line waits for its flush: park until then, not " + parkNs + " ns");
        assertEquals(1, stage.idleParkNs(now + RequestStage.FLUSH_INTERVAL_NS), "a flush overdue: do not park");
    }

    @Test
    void shouldWakeAParkedConsumerWhenTheRingIsFull() throws InterruptedException
    {
        final ChunkRecords records = new ChunkRecords(4096);
        records.consumer(Thread.currentThread());
        final int capacity = 4096 / ChunkRecords.FRAMED_LENGTH;
        for (int i = 0; i < capacity; i++)
        {
            records.publishChunk(0, i, 1, RequestSlot.CHUNK_OUTPUT);
        }
        final Thread producer = new Thread(() -> records.publishChunk(0, capacity, 1, RequestSlot.CHUNK_OUTPUT));
        producer.start();

        // Without the wake-up this park lasts its full minute each time round, and the test times out.
        final long startNs = System.nanoTime();
        while (records.fullWaits() == 0 && System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(30))
        {
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(60));
        }
        assertEquals(1, records.fullWaits(), "the producer found the ring full");
        assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(30), "woken, not timed out");
        final MessageHandler ignore = (type, buffer, index, length) ->
        {
        };
        records.ring().read(ignore, Integer.MAX_VALUE);
        producer.join(TimeUnit.SECONDS.toMillis(10));
        assertEquals(1, records.ring().read(ignore), "the waiting record got in");
    }
}
