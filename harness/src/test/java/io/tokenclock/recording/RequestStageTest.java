package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.MetricRecorders;

/**
 * The collector and the request stage on threads of their own, as a run wires them: the ring's consumer frees a
 * finished request's permit without waiting for the per-request work, and that work (metrics, the listener, the
 * flush) still happens, in order, with nothing lost.
 */
final class RequestStageTest
{
    private static final String CONTENT = "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n";
    private static final long WAIT_S = 10;

    private final ChunkRecords records = new ChunkRecords(64 * 1024);
    private final SlotPool pool = new SlotPool(1);
    private final MetricRecorders recorders = new MetricRecorders();
    private final StreamRecorder recorder = new StreamRecorder(records);
    private final CountDownLatch listenerMayGo = new CountDownLatch(1);
    private final CountDownLatch flushed = new CountDownLatch(1);
    private final AtomicInteger seen = new AtomicInteger();
    private final AtomicInteger flushes = new AtomicInteger();
    private Collector collector;
    private RequestStage stage;
    private Thread collectorThread;
    private Thread stageThread;

    @BeforeEach
    void setUp()
    {
        collector = new Collector(records, pool, recorders, new RequestListener()
        {
            @Override
            public void onRequestComplete(final RequestSlot slot, final RequestMetrics metrics)
            {
                await(listenerMayGo);
                seen.incrementAndGet();
            }

            @Override
            public void flush()
            {
                flushes.incrementAndGet();
                flushed.countDown();
            }
        });
        stage = collector.stageOnOwnThread();
        stageThread = new Thread(stage, "test-stage");
        collectorThread = new Thread(collector, "test-collector");
        stageThread.start();
        collectorThread.start();
    }

    @AfterEach
    void tearDown() throws InterruptedException
    {
        listenerMayGo.countDown();
        collector.close();
        collectorThread.join(TimeUnit.SECONDS.toMillis(WAIT_S));
        stage.close();
        stageThread.join(TimeUnit.SECONDS.toMillis(WAIT_S));
    }

    private void runRequest(final long id, final long sentNs) throws InterruptedException
    {
        final RequestSlot slot = pool.acquire(TimeUnit.SECONDS.toNanos(WAIT_S));
        assertNotNull(slot, "a permit came back while the listener was still busy");
        slot.requestId = id;
        slot.phase = RequestSlot.PHASE_MEASURE;
        recorder.begin(slot);
        slot.sentNs = sentNs;
        final byte[] bytes = (CONTENT + CONTENT + "data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);
        recorder.onBytes(bytes, 0, bytes.length, sentNs + 1_000);
        recorder.finish(sentNs + 2_000, ErrorClass.NONE, null);
    }

    @Test
    void shouldFreeThePermitWhileTheListenerOfThePreviousRequestIsStillBusy() throws InterruptedException
    {
        // One permit: the second request can only start once the first one's permit is back, and the listener of
        // the first is blocked until after that. With the work on the ring's consumer this would wait forever.
        runRequest(1, 1_000_000);
        runRequest(2, 2_000_000);
        runRequest(3, 3_000_000);
        assertEquals(0, seen.get(), "the listener is still held");

        listenerMayGo.countDown();
        awaitCompleted(3);
        assertEquals(3, seen.get());
        assertEquals(3, collector.counters().get(Collector.MEASURED_OK));
        recorders.sample();
        assertEquals(3, recorders.total(Metric.TTFT).getTotalCount(), "every request reached the histograms");
    }

    @Test
    void shouldFlushTheListenerWithoutWaitingForTheEndOfTheRun() throws InterruptedException
    {
        listenerMayGo.countDown();
        runRequest(1, 1_000_000);
        assertTrue(flushed.await(WAIT_S, TimeUnit.SECONDS), "flushed while the stage still runs");
        awaitCompleted(1);
    }

    @Test
    void shouldFlushOnceAfterABurstRatherThanOncePerRequest() throws InterruptedException
    {
        runRequest(1, 1_000_000);
        runRequest(2, 2_000_000);
        runRequest(3, 3_000_000);
        listenerMayGo.countDown();
        awaitCompleted(3);
        assertTrue(flushed.await(WAIT_S, TimeUnit.SECONDS));
        assertEquals(1, flushes.get(), "three requests processed together, written out together");
    }

    @Test
    void shouldProcessEverythingQueuedBeforeStopping() throws InterruptedException
    {
        runRequest(1, 1_000_000);
        runRequest(2, 2_000_000);
        listenerMayGo.countDown();
        collector.close();
        collectorThread.join(TimeUnit.SECONDS.toMillis(WAIT_S));
        stage.close();
        stageThread.join(TimeUnit.SECONDS.toMillis(WAIT_S));
        assertEquals(2, seen.get());
        assertEquals(0, stage.backlog());
        assertTrue(flushes.get() >= 1, "stopping flushes");
    }

    @Test
    void shouldCountTheTokensFailedRequestsConsumedButNotTheInputOfOneRefusedBeforeAnyByte()
        throws InterruptedException
    {
        listenerMayGo.countDown();
        // Streams two content chunks, then breaks: the server had taken on its 100 input tokens.
        RequestSlot slot = pool.acquire(TimeUnit.SECONDS.toNanos(WAIT_S));
        slot.requestId = 1;
        slot.phase = RequestSlot.PHASE_MEASURE;
        slot.promptTokensHint = 100;
        recorder.begin(slot);
        slot.sentNs = 1_000_000;
        final byte[] bytes = (CONTENT + CONTENT).getBytes(StandardCharsets.UTF_8);
        recorder.onBytes(bytes, 0, bytes.length, 1_001_000);
        recorder.finish(1_002_000, ErrorClass.STREAM_CUT, null);
        awaitCompleted(1);
        // Refused before any byte came back: its 50 input tokens never reached the model.
        slot = pool.acquire(TimeUnit.SECONDS.toNanos(WAIT_S));
        slot.requestId = 2;
        slot.phase = RequestSlot.PHASE_MEASURE;
        slot.promptTokensHint = 50;
        recorder.begin(slot);
        slot.sentNs = 2_000_000;
        recorder.finish(2_001_000, ErrorClass.CONNECT, null);
        awaitCompleted(2);

        assertEquals(2, collector.counters().get(Collector.MEASURED_ERROR));
        assertEquals(100, collector.counters().get(Collector.MEASURED_WASTED_INPUT_TOKENS));
        assertEquals(2, collector.counters().get(Collector.MEASURED_FAILED_OUTPUT_TOKENS));
        assertEquals(0, collector.counters().get(Collector.MEASURED_WASTED_TOKENS), "none was cancelled");
    }

    @Test
    void shouldCountTheTokenizerCountedInputOfRequestsTheServerFailedWithoutAnswering() throws InterruptedException
    {
        listenerMayGo.countDown();
        // A 500 and a first-byte timeout: no byte of an answer, but the server had the prompt (the audit's 46 failed
        // requests whose 725 input tokens were left out of the wasted work). Their counts are the tokenizer's.
        final ErrorClass[] failures = {ErrorClass.HTTP_5XX, ErrorClass.TIMEOUT_FIRST_BYTE, ErrorClass.HTTP_429};
        for (int i = 0; i < failures.length; i++)
        {
            final RequestSlot slot = pool.acquire(TimeUnit.SECONDS.toNanos(WAIT_S));
            slot.requestId = i + 1;
            slot.phase = RequestSlot.PHASE_MEASURE;
            slot.promptTokensHint = 300 + i;
            recorder.begin(slot);
            slot.sentNs = 1_000_000L * (i + 1);
            recorder.finish(slot.sentNs + 1_000, failures[i], null);
            awaitCompleted(i + 1);
        }

        assertEquals(3, collector.counters().get(Collector.MEASURED_ERROR));
        assertEquals(300 + 301, collector.counters().get(Collector.MEASURED_WASTED_INPUT_TOKENS),
            "the 500's and the timeout's prompts count; the 429 was shed before any work");
        assertEquals(300 + 301, collector.counters().get(Collector.MEASURED_WASTED_INPUT_TOKENS_TOKENIZER),
            "no server reported usage for them: the harness's tokenizer counted them");
    }

    private void awaitCompleted(final long count) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (collector.counters().get(Collector.COMPLETED) < count && System.nanoTime() < deadlineNs)
        {
            Thread.sleep(1);
        }
        assertEquals(count, collector.counters().get(Collector.COMPLETED));
    }

    private static void await(final CountDownLatch latch)
    {
        try
        {
            latch.await(WAIT_S, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
