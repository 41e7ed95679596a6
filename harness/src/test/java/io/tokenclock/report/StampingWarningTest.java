package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import io.tokenclock.config.RunOptions;
import io.tokenclock.health.StampingSaturation;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.run.MinimalRuns;
import io.tokenclock.run.RunResult;
import io.tokenclock.transport.StampingReport;

/**
 * The one line that says the client's late reading compromised the stamps: above the bound on chunks that shared a
 * stamp (1 in 1,000 chunks, or 1 in 1,000 first chunks), and only then; with it the grade drops below
 * comparison-grade.
 */
final class StampingWarningTest
{
    private static final RunOptions OPTIONS = RunOptions.builder().url("http://127.0.0.1:8000/v1").concurrency(4)
        .requests(200L).build();

    private static RunResult run(final StampingReport.Chunks chunks, final StampingReport.PacketTap tap,
        final StampingSaturation.Result saturation)
    {
        final RunResult base = MinimalRuns.of(OPTIONS, 200, 20_000);
        final StampingReport stamping = new StampingReport("kernel", "kernel", "kernel", 21_000, 0, null, 0, 0, 0, 40,
            400, chunks, new StampingReport.ReceiveDelay(21_000, 20_000, 900_000, 12_000_000, 23_400_000),
            null, tap);
        final RunResult.Provenance p = base.provenance();
        final RunResult.ClientHealth h = base.clientHealth();
        final RunResult.ClientHealth health = new RunResult.ClientHealth(h.hiccupsMs(), h.hiccupIntervalNs(),
            h.gcCount(), h.gcTotalMs(), h.gcMaxMs(), h.gcConcurrentCycles(), h.gcConcurrentMs(), h.gcCollectors(),
            h.profileEvent(), h.profileFiles(), h.cpu(), h.cpuByThread(), h.peakHeapBytes(), h.readiness(),
            h.jitMsDuringLoad(), h.jitMsInWindow(), h.safepointsDuringLoad(), h.stagePriority(), saturation);
        return new RunResult(base.options(), base.target(), base.counts(), base.window(), base.distributions(),
            health, new RunResult.Provenance(p.hash(), p.scheduleHash(), p.requests(), p.residualRequests(),
            p.tokenizerSha256(), p.tokenizerId(), p.cacheAction(), p.connectRtt(), "recvmsg epoll", stamping),
            base.groups(), null, null, null, null, null, null, null);
    }

    private static List<String> warnings(final RunResult r)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            ConsoleSummary.print(r, out);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("took a later chunk's stamp"))
            .toList();
    }

    private static List<String> missing(final RunResult r)
    {
        final JsonNode record = RecordJson.tree(RecordWriter.build(r, "w"));
        final List<String> lines = new ArrayList<>();
        record.path("grade").path("missing").forEach(n -> lines.add(n.asText()));
        return lines.stream().filter(l -> l.startsWith("measurement.stamping")).toList();
    }

    @Test
    void shouldHoldChunksThatSharedAStampToOneInAThousandOfChunksAndOfFirstChunks()
    {
        assertFalse(new StampingReport.Chunks(20_000, 20, 0, 200, 0).compromised(), "1 in 1,000: at the bound");
        assertTrue(new StampingReport.Chunks(20_000, 21, 0, 200, 0).compromised(), "above it");
        assertFalse(new StampingReport.Chunks(20_000, 0, 0, 2_000, 2).compromised(), "first chunks: 1 in 1,000");
        assertTrue(new StampingReport.Chunks(20_000, 1, 0, 200, 1).compromised(),
            "one TTFT in 200 late: the chunks' own fraction (1 in 20,000) is far below, the requests' is not");
        assertFalse(new StampingReport.Chunks(0, 0, 0, 0, 0).compromised(), "nothing stamped, nothing to say");
        assertFalse(new StampingReport.Chunks(20_000, 0, 3_000, 200, 0).compromised(),
            "chunks the tap saw arrive in one segment did arrive together: not the client's doing");
    }

    @Test
    void shouldPrintNothingAndKeepTheGradeWhenTheChunksStayWithinTheBound()
    {
        final RunResult healthy = run(new StampingReport.Chunks(20_000, 20, 0, 200, 0), null,
            new StampingSaturation.Result(5, 0, 0.4, "tokenclock-ksta", null));
        assertEquals(List.of(), warnings(healthy));
        assertEquals(List.of(), missing(healthy));
        final JsonNode stamping = RecordJson.tree(RecordWriter.build(healthy, "w")).path("measurement")
            .path("stamping");
        assertEquals(20, stamping.path("shared_stamp_chunks").path("shared").asLong());
        assertFalse(stamping.path("shared_stamp_chunks").path("compromised").asBoolean());
        assertEquals(0, stamping.path("thread_saturation").path("seconds_above").asInt());
    }

    @Test
    void shouldSayInOneLineHowManyChunksHowLateAndWhatToDoAndDropTheGrade()
    {
        final RunResult late = run(new StampingReport.Chunks(20_000, 300, 0, 200, 4), StampingReport.PacketTap.none(
            "auto", null, "auto: no CAP_NET_RAW", null), new StampingSaturation.Result(5, 3, 0.97,
            "tokenclock-ksta", null));
        final List<String> lines = warnings(late);
        assertEquals(1, lines.size(), lines.toString());
        final String line = lines.get(0);
        assertTrue(line.startsWith("warning: 300 of 20000 chunks (4 of 200 first chunks) took a later chunk's stamp"),
            line);
        assertTrue(line.contains("23.4 ms (worst client receive delay)"), line);
        assertTrue(line.contains("over 85% of its core in 3 of 5 s"), line);
        assertTrue(line.contains("--packet-tap") && line.contains("more cores"), line);
        final List<String> missing = missing(late);
        assertEquals(1, missing.size(), missing.toString());
        assertEquals("local-debugging", RecordJson.tree(RecordWriter.build(late, "w")).path("grade").path("grade")
            .asText());
    }

    @Test
    void shouldNameTheTapsMissesAsTheCauseWhenTheTapWasOn()
    {
        final RunResult tapped = run(new StampingReport.Chunks(20_000, 300, 0, 200, 0), new StampingReport.PacketTap(
            "auto", "lo", "auto: ...", null, 20_000, 900, 21_000, 20_100, 900, 0, 65_536, -1), null);
        final String line = warnings(tapped).get(0);
        assertTrue(line.contains("the client read late") && line.contains("the packet tap on lo missed 900 reads " +
            "(900 packets dropped): give the client more cores"), line);
    }
}
