package io.tokenclock.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.tokenclock.framing.ChunkParser;
import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.run.AnswerText;

/**
 * The measurement core alone, on hand-set stamps: bytes in, per-request metrics out, every number hand-computed.
 */
final class StreamRecorderCollectorTest
{
    private static final String ROLE =
        "data: {\"id\":\"chatcmpl-7\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}," +
        "\"finish_reason\":null}]}\n\n";

    /** Completed requests as the listener saw them: a copy of what matters, since slots are reused. */
    private record Seen(long id, int status, ErrorClass error, long ttftNs, long ttftFromScheduleNs, long ttfotNs,
        long ttstNs, double tpotNs, long e2eNs, long sendLagNs, long outputTokens, String source, int chunks,
        String text, String responseId, int phase)
    {
    }

    private ChunkRecords records;
    private SlotPool pool;
    private MetricRecorders recorders;
    private Collector collector;
    private StreamRecorder recorder;
    private final List<Seen> seen = new ArrayList<>();

    @BeforeEach
    void setUp()
    {
        records = new ChunkRecords(64 * 1024);
        pool = new SlotPool(4);
        recorders = new MetricRecorders();
        collector = new Collector(records, pool, recorders, (s, m) -> seen.add(new Seen(s.requestId, s.status,
            s.errorClass, m.ttftNs, m.ttftFromScheduleNs, m.ttfotNs, m.ttstNs, m.tpotNs, m.e2eNs, m.sendLagNs,
            m.outputTokens, m.tokenCountSource, s.chunkCount, AnswerText.decode(s.text.array(), s.text.length()),
            new String(s.responseId, 0, s.responseIdLength, StandardCharsets.UTF_8), s.phase)));
        recorder = new StreamRecorder(records);
    }

    private RequestSlot start(final long id, final int phase, final long scheduledNs, final long sentNs)
        throws InterruptedException
    {
        final RequestSlot slot = pool.acquire(1_000_000);
        assertNotNull(slot);
        slot.requestId = id;
        slot.phase = phase;
        slot.scheduledNs = scheduledNs;
        recorder.begin(slot);
        slot.sentNs = sentNs;
        return slot;
    }

    private void feed(final String text, final long arrivalNs)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        recorder.onBytes(bytes, 0, bytes.length, arrivalNs);
    }

    private static String content(final String text)
    {
        return "data: {\"id\":\"chatcmpl-7\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text +
            "\"},\"finish_reason\":null}]}\n\n";
    }

    @Test
    void shouldDeriveEveryMetricFromHandSetStamps() throws InterruptedException
    {
        start(1, RequestSlot.PHASE_MEASURE, 1_000, 2_000);
        feed(ROLE, 10_000);
        feed(content("Hel"), 12_000);
        feed(content("lo, \\\"world\\\"") + content("!"), 15_000);
        feed(content("\\n"), 21_000);
        feed("data: {\"id\":\"chatcmpl-7\",\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":5}}" +
            "\n\ndata: [DONE]\n\n", 22_000);
        recorder.finish(23_000, ErrorClass.NONE, null);
        collector.poll();

        assertEquals(1, seen.size());
        final Seen r = seen.get(0);
        assertEquals(RequestSlot.STATUS_OK, r.status());
        assertEquals(10_000, r.ttftNs(), "first content chunk (12,000) - sent (2,000); the role chunk is no token");
        assertEquals(11_000, r.ttftFromScheduleNs());
        assertEquals(10_000, r.ttfotNs());
        assertEquals(3_000, r.ttstNs(), "second content chunk (15,000) - first (12,000)");
        assertEquals(4, r.chunks());
        assertEquals(5, r.outputTokens(), "usage wins over the chunk count");
        assertEquals(RequestMetrics.SOURCE_USAGE, r.source());
        assertEquals((21_000 - 12_000) / 4.0, r.tpotNs(), 1e-9, "(t_last - t_first) / (n_out - 1)");
        assertEquals(21_000, r.e2eNs());
        assertEquals(1_000, r.sendLagNs());
        assertEquals("Hello, \"world\"!\n", r.text());
        assertEquals("chatcmpl-7", r.responseId());

        recorders.sample();
        assertEquals(3, recorders.total(Metric.INTER_CHUNK_LATENCY).getTotalCount(), "gaps between 4 chunks");
        assertEquals(0, recorders.total(Metric.INTER_CHUNK_LATENCY).getMinValue(), "two events in one read");
        assertEquals(1, recorders.total(Metric.TTFT).getTotalCount());
        assertEquals(0, pool.inUse(), "the slot is back in the pool");
    }

    @Test
    void shouldRecordTheEnginesOwnTimingsBesideTheClientsWhenTheServerReportsThem() throws InterruptedException
    {
        start(3, RequestSlot.PHASE_MEASURE, 0, 1_000);
        feed(content("a"), 2_000_000);
        feed(content("b"), 3_000_000);
        feed(content("c"), 4_000_000);
        feed("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]," +
            "\"timings\":{\"prompt_n\":5,\"prompt_ms\":1.75,\"predicted_n\":3,\"predicted_ms\":1.9}}\n\n", 4_100_000);
        recorder.finish(4_200_000, ErrorClass.NONE, null);
        collector.poll();
        start(4, RequestSlot.PHASE_MEASURE, 0, 5_000_000);
        feed(content("a") + content("b") + "data: [DONE]\n\n", 6_000_000);
        recorder.finish(6_100_000, ErrorClass.NONE, null);
        collector.poll();

        assertEquals(2, seen.size());
        recorders.sample();
        assertEquals(1, recorders.total(Metric.ENGINE_TTFT).getTotalCount(), "only the request that reported it");
        assertEquals(1_750_000, recorders.total(Metric.ENGINE_TTFT).getMaxValue(), 1_750_000 / 1000);
        assertEquals(950_000, recorders.total(Metric.ENGINE_TPOT).getMaxValue(), 950_000 / 1000,
            "1.9 ms over 3 - 1 steps");
        assertEquals(2, recorders.total(Metric.TPOT).getTotalCount());
        assertEquals(-1, pool.acquire(1_000_000).engineDecodeNs, "a reused slot forgets the last server's timings");
    }

    @Test
    void shouldCountReasoningAsFirstTokenAndReportFirstOutputSeparately() throws InterruptedException
    {
        start(2, RequestSlot.PHASE_MEASURE, 0, 1_000);
        feed(ROLE, 2_000);
        feed("data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"think\"}}]}\n\n", 5_000);
        feed("data: {\"choices\":[{\"delta\":{\"reasoning\":\" more\"}}]}\n\n", 6_000);
        feed(content("answer") + "data: [DONE]\n\n", 9_000);
        recorder.finish(9_500, ErrorClass.NONE, null);
        collector.poll();

        final Seen r = seen.get(0);
        assertEquals(4_000, r.ttftNs());
        assertEquals(8_000, r.ttfotNs());
        assertEquals(3, r.outputTokens(), "no usage: one token per content-bearing chunk");
        assertEquals(RequestMetrics.SOURCE_CHUNKS, r.source());
        assertEquals("answer", r.text());
        assertEquals(-1, r.ttftFromScheduleNs(), "closed loop without a schedule stamp has no TTFT-from-schedule");
    }

    @Test
    void shouldKeepPerChunkTokenCountsFromContinuousUsage() throws InterruptedException
    {
        start(3, RequestSlot.PHASE_MEASURE, 0, 1_000);
        feed("data: {\"choices\":[{\"delta\":{\"content\":\"a b\"}}],\"usage\":{\"completion_tokens\":2}}\n\n", 2_000);
        feed("data: {\"choices\":[{\"delta\":{\"content\":\" c d e\"}}],\"usage\":{\"completion_tokens\":5}}\n\n",
            8_000);
        feed("data: [DONE]\n\n", 8_500);
        recorder.finish(9_000, ErrorClass.NONE, null);
        collector.poll();
        assertEquals(5, seen.get(0).outputTokens());
        recorders.sample();
        assertEquals(3, recorders.total(Metric.TOKEN_ITL).getTotalCount(), "the second chunk's 3 tokens");
        assertEquals(2_000, recorders.total(Metric.TOKEN_ITL).getMaxValue(), 2, "gap 6,000 shared by 3 tokens");
    }

    @Test
    void shouldCountOutputWithTheHarnessTokenizerWhenTheServerGivesNoUsage() throws InterruptedException
    {
        collector.tokenCounter(s -> AnswerText.decode(s.text.array(), s.text.length()).strip().split("\\s+").length);
        start(20, RequestSlot.PHASE_MEASURE, 0, 1_000);
        feed(content("one two") + content(" three") + "data: [DONE]\n\n", 2_000);
        recorder.finish(3_000, ErrorClass.NONE, null);
        start(21, RequestSlot.PHASE_MEASURE, 0, 1_000);
        feed(content("one two") + "data: {\"choices\":[],\"usage\":{\"completion_tokens\":9}}\n\ndata: [DONE]\n\n",
            2_000);
        recorder.finish(3_000, ErrorClass.NONE, null);
        collector.poll();
        assertEquals(3, seen.get(0).outputTokens(), "three words, though two chunks");
        assertEquals(RequestMetrics.SOURCE_TOKENIZER, seen.get(0).source());
        assertEquals(9, seen.get(1).outputTokens(), "the server's usage still wins");
        assertEquals(RequestMetrics.SOURCE_USAGE, seen.get(1).source());
    }

    @Test
    void shouldTellTheTransportToStopAtAnErrorEventAndAtTheOutputLimitButNotBefore() throws InterruptedException
    {
        final StreamRecorder capped = new StreamRecorder(records, new ChunkParser(), 1 << 20, 3);
        final RequestSlot first = pool.acquire(1_000_000);
        assertNotNull(first);
        recorder.begin(first);
        feed(content("x"), 2_000);
        assertEquals(ErrorClass.NONE, recorder.stopNow(), "a content event: read on");
        feed("data: {\"error\":{\"message\":\"boom\"}}\n\n", 3_000);
        assertEquals(ErrorClass.ERROR_EVENT, recorder.stopNow());
        assertEquals(null, recorder.stopDetail(ErrorClass.ERROR_EVENT), "its text is the slot's");

        final RequestSlot second = pool.acquire(1_000_000);
        assertNotNull(second);
        capped.begin(second);
        final byte[] longer = content("abcdef").getBytes(StandardCharsets.UTF_8);
        capped.onBytes(longer, 0, longer.length, 2_000);
        assertEquals(ErrorClass.OVERSIZE, capped.stopNow(), "6 bytes of text against a cap of 3");
        assertEquals("more answer text than --max-output-bytes 3", capped.stopDetail(ErrorClass.OVERSIZE));
        assertEquals(StreamRecorder.CANCEL_RULE_DETAIL, capped.stopDetail(ErrorClass.CANCEL_RULE));
    }

    @Test
    void shouldClassifyStreamProblemsAndKeepTheRunGoing() throws InterruptedException
    {
        start(10, RequestSlot.PHASE_MEASURE, 0, 1_000);
        feed(content("x") + "data: {\"error\":{\"message\":\"boom\"}}\n\n", 2_000);
        recorder.finish(3_000, ErrorClass.NONE, null);

        start(11, RequestSlot.PHASE_MEASURE, 0, 1_000);
        feed(content("x") + "data: {\"choices\":[{\"delta\":{\"content\":\n\n", 2_000);
        recorder.finish(3_000, ErrorClass.NONE, null);

        start(12, RequestSlot.PHASE_MEASURE, 0, 1_000);
        feed(ROLE + "data: [DONE]\n\n", 2_000);
        recorder.finish(3_000, ErrorClass.NONE, null);

        start(13, RequestSlot.PHASE_MEASURE, 0, 1_000);
        feed(content("x"), 2_000);
        recorder.finish(3_000, ErrorClass.STREAM_CUT, "closed");
        collector.poll();

        assertEquals(ErrorClass.ERROR_EVENT, seen.get(0).error());
        assertEquals(ErrorClass.MALFORMED_EVENT, seen.get(1).error());
        assertEquals(ErrorClass.NO_CONTENT, seen.get(2).error());
        assertEquals(ErrorClass.STREAM_CUT, seen.get(3).error());
        assertEquals(1, seen.get(3).chunks(), "what arrived before the cut is kept");
        assertEquals(4, collector.counters().get(Collector.MEASURED_ERROR));
        assertEquals(1, collector.errorsByClass().get(ErrorClass.STREAM_CUT.ordinal()));
        recorders.sample();
        assertEquals(0, recorders.total(Metric.TTFT).getTotalCount(), "failed requests stay out of distributions");
    }

    @Test
    void shouldCallACleanEndWithoutFinishReasonOrDoneTruncatedAndAcceptEitherMarker() throws InterruptedException
    {
        start(30, RequestSlot.PHASE_MEASURE, 0, 1_000);
        feed(content("a") + content("b"), 2_000);
        recorder.finish(3_000, ErrorClass.NONE, null);
        start(31, RequestSlot.PHASE_MEASURE, 0, 1_000);
        feed(content("a") + "data: {\"choices\":[{\"delta\":{\"content\":\"b\"},\"finish_reason\":\"stop\"}]}\n\n",
            2_000);
        recorder.finish(3_000, ErrorClass.NONE, null);
        start(32, RequestSlot.PHASE_MEASURE, 0, 1_000);
        feed(content("a") + "data: [DONE]\n\n", 2_000);
        recorder.finish(3_000, ErrorClass.NONE, null);
        collector.poll();
        assertEquals(ErrorClass.TRUNCATED, seen.get(0).error());
        assertEquals(ErrorClass.NONE, seen.get(1).error(), "a finish_reason alone ends a stream properly");
        assertEquals(ErrorClass.NONE, seen.get(2).error(), "so does [DONE] alone");
        assertEquals(1, collector.counters().get(Collector.MEASURED_TRUNCATED));
        assertEquals(1, collector.errorsByClass().get(ErrorClass.TRUNCATED.ordinal()));
    }

    @Test
    void shouldHandWarmupToTheListenerButKeepItOutOfDistributions() throws InterruptedException
    {
        start(0, RequestSlot.PHASE_WARMUP, 0, 1_000);
        feed(content("w"), 2_000);
        recorder.finish(3_000, ErrorClass.NONE, null);
        collector.poll();
        recorders.sample();
        assertEquals(1, seen.size());
        assertEquals(RequestSlot.PHASE_WARMUP, seen.get(0).phase());
        assertEquals(0, recorders.total(Metric.TTFT).getTotalCount());
        assertEquals(1, collector.counters().get(Collector.WARMUP_DONE));
        assertEquals(0, collector.windowEndNs(), "warmup does not open the measurement window");
    }

    @Test
    void shouldEndUnsentRequestsWithTheirClass() throws InterruptedException
    {
        final RequestSlot slot = pool.acquire(1_000_000);
        slot.requestId = 5;
        slot.phase = RequestSlot.PHASE_MEASURE;
        StreamRecorder.failUnsent(records, slot, ErrorClass.CONNECT, "refused", 7_000);
        collector.poll();
        assertEquals(ErrorClass.CONNECT, seen.get(0).error());
        assertEquals(0, seen.get(0).chunks());
        assertFalse(seen.get(0).status() == RequestSlot.STATUS_OK);
    }
}
