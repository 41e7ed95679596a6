package io.tokenclock.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.results.record.Dist;

/**
 * The four importers, each trap of the peers' formats on a file in the published shape (fixtures under
 * {@code src/test/resources/io/tokenclock/peers}): first token, TPOT, end of e2e, units, percentiles, clocks, and a
 * file that is not what it claims.
 */
final class PeersTest
{
    static final Path DIR = Path.of("src", "test", "resources", "io", "tokenclock", "peers");

    @TempDir
    Path tmp;

    private static PeerRun only(final String name) throws IOException
    {
        final List<PeerRun> runs = Peers.read(DIR.resolve(name));
        assertEquals(1, runs.size(), name);
        return runs.get(0);
    }

    private static Dist ours(final PeerRun r, final String metric)
    {
        return r.record().report().distributions().get(metric);
    }

    @Test
    void shouldConvertVllmArraysFromSecondsAndKeepItsSummaryInMs() throws IOException
    {
        final PeerRun r = only("vllm-save-result.json");
        assertEquals(200.0, r.reported().get("ttft").mean(), "summary keys are ms already");
        assertEquals(200.0, ours(r, "ttft").p50(), 0.5, "ttfts are seconds: 0.2 s is 200 ms");
        assertEquals(3, ours(r, "ttft").count(), "the failed request (error, no output) is left out");
    }

    @Test
    void shouldRecomputeVllmTpotUnderTokenclocksDefinitionBesideItsOwn() throws IOException
    {
        final PeerRun r = only("vllm-save-result.json");
        // (sum of chunk gaps) / (n_out - 1): 30/3, 40/2, 10/1 ms
        assertEquals(10.0, ours(r, "tpot").p50(), 0.05);
        assertEquals(20.0, ours(r, "tpot").max(), 0.05);
        assertEquals(13.33, r.reported().get("tpot").mean(), 1e-9);
        assertTrue(r.definitions().get("tpot").contains("(latency - ttft) / (output_len - 1)"));
    }

    @Test
    void shouldSayVllmTtftEndsAtARoleOnlyChunkSoTheTimingEndpointsDiffer() throws IOException
    {
        final PeerRun r = only("vllm-save-result.json");
        assertTrue(r.record().measurement().firstTokenRule().contains("role-only chunk included"));
        assertTrue(r.record().measurement().boundary().contains("last chunk with choices"), "its e2e end");
    }

    @Test
    void shouldShowThatVllmsLinearPercentileIsNotHdrHistograms() throws IOException
    {
        final PeerRun r = only("vllm-save-result.json");
        assertEquals(298.0, r.reported().get("ttft").p99(), "NumPy's interpolated p99 of 100, 200, 300 ms");
        assertTrue(ours(r, "ttft").p99() >= 299.9, "HdrHistogram's p99 is a recorded value: " + ours(r, "ttft"));
        assertEquals(PeerRecord.HDR, r.record().measurement().histograms());
    }

    @Test
    void shouldNeverReadVllmStartTimesAsADate() throws IOException
    {
        final PeerRun r = only("vllm-save-result.json");
        assertEquals("20250102-030405", r.record().startedAt(), "the date is vLLM's own date field");
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("perf_counter")), r.notes().toString());
        assertTrue(r.record().measurement().clock().contains("not epoch"));
    }

    @Test
    void shouldReadEveryResultOfAnAppendResultFile() throws IOException
    {
        final List<PeerRun> runs = Peers.read(DIR.resolve("vllm-append.jsonl"));
        assertEquals(2, runs.size());
        assertEquals(250.0, runs.get(1).reported().get("ttft").mean());
        assertEquals(4.0, runs.get(1).record().load().ratePerS());
    }

    @Test
    void shouldNameTheFileTheFieldAndTheExpectationWhenVllmsFileIsNotWhatItClaims() throws IOException
    {
        final Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, Files.readString(DIR.resolve("vllm-save-result.json"))
            .replace("\"ttfts\": [0.1, 0.2, 0.3, 0.0]", "\"ttfts\": \"fast\""));
        final PeerFormatException ex = assertThrows(PeerFormatException.class, () -> Peers.read(bad));
        assertEquals(bad + ": field ttfts: expected an array of numbers, got \"fast\"", ex.getMessage());
    }

    @Test
    void shouldReadSglangsBareInfinityAndEveryLine() throws IOException
    {
        final List<PeerRun> runs = Peers.read(DIR.resolve("sglang.jsonl"));
        assertEquals(2, runs.size());
        assertNull(runs.get(0).record().load().ratePerS(), "an infinite rate is no open-loop rate");
        assertTrue(runs.get(0).notes().stream().anyMatch(n -> n.contains("Infinity")));
        assertEquals(4.0, runs.get(1).record().load().ratePerS());
    }

    @Test
    void shouldConvertSglangSecondsAndEndItsE2eAtDone() throws IOException
    {
        final PeerRun r = Peers.read(DIR.resolve("sglang.jsonl")).get(0);
        assertEquals(40.0, ours(r, "ttft").min(), 0.05, "ttfts are seconds");
        assertEquals(20.0, ours(r, "tpot").min(), 0.05, "gaps 20+20 ms over 2");
        assertTrue(r.record().measurement().boundary().contains("[DONE]"));
        assertNull(ours(r, "e2e"), "e2e is not recomputed from gaps: SGLang's ends at [DONE], not the last chunk");
        assertEquals(150.0, r.reported().get("e2e").mean());
    }

    @Test
    void shouldTakeAiperfsUnitFieldAsAuthoritative() throws IOException
    {
        final PeerRun r = Peers.read(DIR.resolve("aiperf")).get(0);
        assertEquals(110.0, r.reported().get("ttft").p50(), 1e-9, "its aggregate TTFT is in s: 0.11 s");
        assertEquals(120.0, ours(r, "ttft").max(), 0.1, "one record's TTFT is in s: 0.12 s");
        assertEquals(320.0, ours(r, "e2e").max(), 0.5, "one record's latency is in us");
        assertEquals(2, ours(r, "ttft").count(), "the errored record has no latency");
    }

    @Test
    void shouldMapAiperfsInterTokenLatencyToTpotAndItsChunkGapsToInterChunkLatency() throws IOException
    {
        final PeerRun r = Peers.read(DIR.resolve("aiperf")).get(0);
        assertEquals(57.5, r.reported().get("tpot").mean(), 1e-9);
        assertNull(r.reported().get("tpot").p99(), "AIPerf omits a field: it stays absent, not zero");
        assertEquals(7, ours(r, "inter_chunk_latency").count());
        assertEquals(50.0, ours(r, "tpot").min(), 0.05, "200 ms of gaps over 4");
    }

    @Test
    void shouldKeepAiperfsZonelessStartTimeAsWritten() throws IOException
    {
        final PeerRun r = Peers.read(DIR.resolve("aiperf").resolve("profile_export_aiperf.json")).get(0);
        assertEquals("2025-10-17T20:22:08.939332", r.record().startedAt());
        assertTrue(r.notes().get(0).contains("local time without a zone"), r.notes().toString());
    }

    @Test
    void shouldRefuseAnAiperfMetricWhoseUnitIsNoTime() throws IOException
    {
        final Path dir = Files.createDirectories(tmp.resolve("aiperf"));
        final Path bad = dir.resolve("profile_export_aiperf.json");
        Files.writeString(bad, Files.readString(DIR.resolve("aiperf/profile_export_aiperf.json"))
            .replace("\"unit\": \"s\", \"avg\": 0.11", "\"unit\": \"furlongs\", \"avg\": 0.11"));
        final PeerFormatException ex = assertThrows(PeerFormatException.class, () -> Peers.read(bad));
        assertEquals(bad + ": field time_to_first_token.unit: expected a unit of time (ns, us, ms, s, sec), got " +
            "\"furlongs\"", ex.getMessage());
    }

    @Test
    void shouldKeepGuidellmsTimePerOutputTokenApartFromTpot() throws IOException
    {
        final PeerRun r = only("guidellm-current.json");
        assertEquals(20.0, r.reported().get("tpot").mean(), "its inter_token_latency_ms is the others' TPOT");
        assertEquals(60.0, r.reported().get("time_per_output_token").mean(), "TTFT included: not a TPOT");
        assertNull(ours(r, "inter_chunk_latency"), "GuideLLM has no per-gap ITL");
        assertEquals(20.0, ours(r, "tpot").p50(), 0.05, "(last - first token) 80 ms over 4");
    }

    @Test
    void shouldReadGuidellmsEpochSecondsAndSayItsRequestsAreASample() throws IOException
    {
        final PeerRun r = only("guidellm-current.json");
        assertEquals("2025-01-02T03:04:05Z", r.record().startedAt());
        assertEquals(300.0, ours(r, "e2e").p50(), 0.5, "request_latency is seconds");
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("a sample: 2 of 3")), r.notes().toString());
    }

    @Test
    void shouldReadTheOlderGuidellmShapeWithItsNearestRankPercentiles() throws IOException
    {
        final PeerRun r = only("guidellm-older.json");
        assertTrue(r.shape().contains("older {args, benchmarks}"));
        assertEquals(Guidellm.NEAREST_RANK, r.record().measurement().histograms());
        assertEquals(4, r.record().load().concurrency());
        assertEquals(1900.0, ours(r, "e2e").p99(), 1e-9, "no requests kept: its own figures, seconds to ms");
    }

    @Test
    void shouldRefuseAGuidellmReportWithoutBenchmarks() throws IOException
    {
        final Path bad = tmp.resolve("benchmarks.json");
        Files.writeString(bad, "{\"metadata\": {}, \"benchmarks\": {}}");
        final PeerFormatException ex = assertThrows(PeerFormatException.class, () -> Peers.read(bad));
        assertEquals(bad + ": field benchmarks: expected a non-empty array of benchmarks, got {}", ex.getMessage());
    }

    @Test
    void shouldSayAFileInNoPeerShapeIsNone() throws IOException
    {
        final Path other = tmp.resolve("other.json");
        Files.writeString(other, "{\"hello\": 1}");
        assertNull(Peers.read(other));
    }
}
