package io.tokenclock.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.tokenclock.metrics.Counter;
import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.RunRecord;

/**
 * Every importer on every real peer file (src/test/resources/io/tokenclock/peers/real, sources and licences in its
 * NOTICE.md): the importer of the file's tool reads it with the figures the file holds, checked by hand from the file
 * (the comment beside each), and no other importer claims it.
 */
final class RealPeerFilesTest
{
    static final Path REAL = PeersTest.DIR.resolve("real");
    static final Path VLLM_APPEND = REAL.resolve("vllm-0.9-append-metadata.jsonl");
    static final Path AIPERF_2025 = REAL.resolve("aiperf-2025-10-run1");
    static final Path AIPERF_2026 = REAL.resolve("aiperf-2026-04-v0.8.0-bare");
    static final Path GUIDELLM_03 = REAL.resolve("guidellm-0.3-benchmarks_stripped.json");
    /** Every real fixture: what {@code record}, {@code report} and {@code compare} must read. */
    static final List<Path> ALL = List.of(VLLM_APPEND, AIPERF_2025, AIPERF_2026, GUIDELLM_03);

    private static Dist ours(final PeerRun r, final String metric)
    {
        return r.record().report().distributions().get(metric);
    }

    @Test
    void shouldReadEveryLineOfAVllmAppendResultFileWithItsInfRateAndMetadataKeys() throws IOException
    {
        final List<PeerRun> runs = Peers.read(VLLM_APPEND);
        assertEquals(9, runs.size(), "nine --append-result lines: three deployments at 10, 30 and inf req/s");
        final PeerRun inf = runs.get(2);
        assertEquals("vllm", inf.tool());
        // line 3: "request_rate": "inf", "median_ttft_ms": 4066.1594384998807, "p99_ttft_ms": 9951.535929819987
        assertEquals(4066.1594384998807, inf.reported().get("ttft").p50());
        assertEquals(9951.535929819987, inf.reported().get("ttft").p99());
        assertEquals("burst", inf.record().load().mode(), "an infinite rate sends every request at once");
        assertNull(inf.record().load().ratePerS());
        assertTrue(inf.notes().contains("request_rate \"inf\": every request sent at once"), inf.notes().toString());
        assertTrue(inf.notes().stream().anyMatch(n -> n.contains("deployment=no-features") &&
            n.contains("gpu=4xNVIDIA_L40S")), "--metadata keys kept in a note: " + inf.notes());
    }

    @Test
    void shouldMapAVllmLineAtAFiniteRateWithTheOldGoodputKey() throws IOException
    {
        final PeerRun first = Peers.read(VLLM_APPEND).get(0);
        final RunRecord r = first.record();
        // line 1: request_rate 10.0, completed 300, model_id meta-llama/Llama-3.2-3B-Instruct, no "failed" key,
        // "request_goodput:": null (the colon key, null without --goodput: no note)
        assertEquals("open", r.load().mode());
        assertEquals(10.0, r.load().ratePerS());
        assertEquals(300, r.report().counts().values().get(Counter.OK));
        assertEquals(0, r.report().counts().values().get(Counter.ERRORS));
        assertEquals("meta-llama/Llama-3.2-3B-Instruct", r.model().name());
        assertFalse(first.notes().stream().anyMatch(n -> n.contains("goodput")), first.notes().toString());
        // total_input_tokens 299700 over duration 35.84472489100017 s
        assertEquals(299700 / 35.84472489100017, r.report().throughput().inputTokensPerS(), 1e-9);
        assertEquals(r.report().distributions(), first.reported(), "no per-request arrays: its own figures");
    }

    @Test
    void shouldReadAiperfs2025RecordsWrapperAndRecomputeFromItsJsonlLeavingCancelledRequestsOut() throws IOException
    {
        final PeerRun r = Peers.read(AIPERF_2025).get(0);
        assertEquals("aiperf", r.tool());
        // records.ttft.p50 2369.317693: with 89 values, NumPy's median is the 45th, which the JSONL gives too
        assertEquals(2369.317693, r.reported().get("ttft").p50());
        assertEquals(89, ours(r, "ttft").count(), "100 lines: 11 cancelled (code 499) left out");
        assertEquals(2369.317693, ours(r, "ttft").p50(), 2369.317693 * 1e-3, "HdrHistogram's 3 digits");
        // the 45th of the 89 request_latency values, 9097.345014999999 ms
        assertEquals(9097.345014999999, ours(r, "e2e").p50(), 9097.345 * 1e-3);
        assertEquals(21537, ours(r, "inter_chunk_latency").count(), "every gap of the 89 requests");
        assertEquals(89, r.record().report().counts().values().get(Counter.OK));
        assertEquals(11, r.record().report().counts().values().get(Counter.ERRORS), "records.error_request_count");
        assertEquals("openai/gpt-oss-20b", r.record().model().name(), "input_config.endpoint.model_names[0]");
        assertEquals(100, r.record().load().concurrency(), "input_config.loadgen.concurrency");
        assertTrue(r.notes().contains("89 successful records recomputed; left out: 11 cancelled (code 499), 0 " +
            "failed, 0 warm-up"), r.notes().toString());
    }

    @Test
    void shouldReadAiperfs2026TopLevelMetricsOfANonStreamingRun() throws IOException
    {
        final PeerRun r = Peers.read(AIPERF_2026).get(0);
        // request_latency p50 0.6734304999999999 ms, request_count 64, no TTFT (a non-streaming chat run)
        assertEquals(0.6734304999999999, r.reported().get("e2e").p50());
        assertFalse(r.reported().containsKey("ttft"));
        assertEquals(64, r.record().report().counts().values().get(Counter.OK));
        assertEquals(1854.929714829192, r.record().report().throughput().requestsPerS());
        assertEquals("mock-model", r.record().model().name(), "input_config.models.items[0].name");
        assertEquals(4, r.record().load().concurrency(), "the profiling phase's concurrency");
        assertEquals("aiperf 0.8.0", r.record().tokenclock().version());
    }

    @Test
    void shouldReadGuidellm03WithItsRequestTotalsBesideItsMetricsAndKeepItsOwnFiguresForASample()
        throws IOException
    {
        final PeerRun r = Peers.read(GUIDELLM_03).get(0);
        assertEquals("guidellm", r.tool());
        // request_totals {successful 46, errored 0, incomplete 1}, beside metrics
        assertEquals(46, r.record().report().counts().values().get(Counter.OK));
        // metrics.time_to_first_token_ms.successful.median 16.38054847717285; request_latency p99 0.68918... s
        assertEquals(16.38054847717285, r.reported().get("ttft").p50());
        assertEquals(689.1846656799316, r.reported().get("e2e").p99(), 1e-9);
        assertTrue(r.notes().contains("requests are a sample: 1 of 46 successful requests kept in the file; " +
            "GuideLLM's own distributions shown, not recomputed"), r.notes().toString());
        assertEquals(r.reported(), r.record().report().distributions(), "one request is no distribution");
        assertEquals(1, r.record().load().concurrency(), "the synchronous strategy");
    }

    @Test
    void shouldLetNoImporterClaimAnotherToolsFile() throws IOException
    {
        for (final Path p : ALL)
        {
            final PeerFile f = new PeerFile(p.toFile().isDirectory() ? p.resolve(Aiperf.FILE) : p);
            for (final PeerFile.Root root : f.roots())
            {
                final int claims = (Vllm.is(root.tree()) ? 1 : 0) + (Sglang.is(root.tree()) ? 1 : 0) +
                    (Aiperf.is(root.tree()) ? 1 : 0) + (Guidellm.is(root.tree()) ? 1 : 0);
                assertEquals(1, claims, p + " line " + root.line());
            }
        }
    }
}
