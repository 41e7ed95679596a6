package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.RunOptions;
import io.tokenclock.goodput.GoodputCounts;
import io.tokenclock.goodput.Slo;
import io.tokenclock.health.ProcessUsage;
import io.tokenclock.health.SafepointCounters;
import io.tokenclock.health.StampingSaturation;
import io.tokenclock.health.ThreadCpu;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.run.ClientHost;
import io.tokenclock.run.ReadinessReport;
import io.tokenclock.run.RunResult;
import io.tokenclock.run.ServerInfo;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.transport.StampingReport;
import io.tokenclock.workload.AgentWorkload;
import io.tokenclock.workload.SessionReport;
import io.tokenclock.workload.dist.TruncatedNormal;

/**
 * Pins the whole of what a run writes and prints, byte for byte: {@code record.json}, {@code requests.jsonl}, the
 * console summary and the record block of two fixed synthetic runs, one that takes nearly every optional branch and
 * one that takes nearly none. The expected files under {@code src/test/resources/io/tokenclock/report/golden} were
 * produced by the code before it was split into small methods (issue 10), so that the split is proven not to change
 * a byte. The client machine's inventory ({@code hardware.client}, {@code hardware.client_gpus}) is the runner's to
 * read, and these results carry none; a fixed one is set before comparing.
 * <p>
 * A deliberate change of a format updates the files: run this test with {@code -Dtokenclock.golden.write=true}, which
 * rewrites them and skips the comparison, then review the diff.
 */
final class ReportGoldenTest
{
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final Path SOURCE_DIR = Path.of("src", "test", "resources", "io", "tokenclock", "report", "golden");
    private static final boolean WRITE = Boolean.getBoolean("tokenclock.golden.write");
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    @Test
    void shouldWriteAndPrintAFullRunExactlyAsBefore() throws IOException
    {
        check("full", full());
        Assumptions.assumeFalse(WRITE, "golden files rewritten, nothing compared");
    }

    @Test
    void shouldWriteAndPrintABareRunExactlyAsBefore() throws IOException
    {
        check("bare", bare());
        Assumptions.assumeFalse(WRITE, "golden files rewritten, nothing compared");
    }

    @Test
    void shouldWriteEveryKindOfRequestLineExactlyAsBefore() throws IOException
    {
        final Path file = dir.resolve("requests.jsonl");
        try (RequestsJsonlWriter writer = new RequestsJsonlWriter(file, true))
        {
            final RequestMetrics m = new RequestMetrics();
            for (final RequestSlot slot : requests())
            {
                writer.onRequestComplete(slot, m.compute(slot));
            }
        }
        compare("requests.jsonl", Files.readString(file, StandardCharsets.UTF_8));
        Assumptions.assumeFalse(WRITE, "golden files rewritten, nothing compared");
    }

    private void check(final String name, final RunResult r) throws IOException
    {
        final Path file = dir.resolve(name + "-record.json");
        RecordWriter.write(r, "synthetic " + name + " prompts", file);
        final String written = Files.readString(file, StandardCharsets.UTF_8);
        final ObjectNode record = (ObjectNode)JSON.readTree(written);
        assertEquals(written, JSON.writeValueAsString(record), "reading and writing again keeps every byte");
        final ObjectNode hardware = (ObjectNode)record.get("hardware");
        hardware.set("client", JSON.createObjectNode().put("hostname", "golden").put("cpu_model", "Golden CPU")
            .put("logical_cpus", 8).put("memory_total_bytes", 17_179_869_184L).put("os", "Linux 6.1 amd64")
            .put("jvm", "Golden JVM 25"));
        hardware.set("client_gpus", JSON.createArrayNode());
        final ByteArrayOutputStream summary = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(summary, true, StandardCharsets.UTF_8))
        {
            ConsoleSummary.print(r, out);
        }
        compare(name + "-record.json", JSON.writeValueAsString(record));
        compare(name + "-summary.txt", summary.toString(StandardCharsets.UTF_8));
        compare(name + "-block.txt", RecordBlock.render(io.tokenclock.results.record.RecordJson.of(record)));
    }

    private static void compare(final String file, final String actual) throws IOException
    {
        if (WRITE)
        {
            Files.createDirectories(SOURCE_DIR);
            Files.writeString(SOURCE_DIR.resolve(file), actual, StandardCharsets.UTF_8);
            return;
        }
        try (InputStream in = ReportGoldenTest.class.getResourceAsStream("golden/" + file))
        {
            if (in == null)
            {
                throw new AssertionError("no golden file " + file + " (write it with -Dtokenclock.golden.write=true)");
            }
            assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), actual, file);
        }
    }

    /** A partial open-loop run over TLS with nearly every optional part: SLO, segments, tasks, cold start, ... */
    private static RunResult full()
    {
        final ObjectNode contract = JSON.createObjectNode();
        contract.putObject("model").put("revision", "abc123").put("context_limit", 8192);
        contract.putObject("runtime").put("engine", "vllm").put("version", "0.6.3").put("precision", "bf16");
        contract.putObject("hardware").put("accelerators", "1x H100 80GB");
        contract.putObject("quality").put("success", "status ok and finish_reason stop");
        final Map<String, Object> declared = new LinkedHashMap<>();
        declared.put("dist", "normal");
        declared.put("mean", 200);
        declared.put("stdev", 40);
        final LengthSpec outputLengths = new LengthSpec(new TruncatedNormal(200, 40, 1, 1_000_000), declared);
        final RunOptions o = RunOptions.builder().url("https://llm.example:8443/v1").insecure(true).rate(12.0)
            .arrival(ArrivalProcess.Kind.GAMMA).burstiness(0.5).maxConcurrency(64).durationS(30.0)
            .stages(List.of(new RateSchedule.Stage(8, 10), new RateSchedule.Stage(16, 20))).warmupRequests(5)
            .coldStart(true).cachePolicy("flush").flushUrl("https://llm.example:8443/reset_prefix_cache")
            .repetitions(3).repetitionIndex(2).profile("cpu").retries429(2).acceptTruncated(true)
            .slo(Slo.ofMillis(500.0, 50.0, null)).tokenizer("cl100k_base").temperature(0.0).ignoreEos(true)
            .extraBody("{\"top_k\":1}").outputLengths(outputLengths).lengthCorrelation(0.3).seed(42)
            .cancelRate(0.1).cancelAfterTokens(20).drainTimeoutS(5).idleTimeoutS(30).waitReadyS(60)
            .commandLine(List.of("tokenclock", "run", "--config", "chat.yaml", "--insecure")).contract(contract)
            .contractPath(Path.of("contracts/chat.yaml")).build();
        final Map<String, Long> errors = new LinkedHashMap<>();
        errors.put("http_429", 3L);
        errors.put("timeout", 1L);
        final Map<Counter, Long> c = new EnumMap<>(Counter.class);
        c.put(Counter.OK, 196L);
        c.put(Counter.ERRORS, 4L);
        c.put(Counter.CANCELLED, 20L);
        c.put(Counter.WARMUP_REQUESTS, 5L);
        c.put(Counter.CHUNKS, 41_234L);
        c.put(Counter.OUTPUT_TOKENS, 39_000L);
        c.put(Counter.INPUT_TOKENS, 98_000L);
        c.put(Counter.WASTED_OUTPUT_TOKENS, 812L);
        c.put(Counter.LATE_COMPLETIONS, 7L);
        c.put(Counter.TRUNCATED, 2L);
        c.put(Counter.RETRIES_429, 6L);
        c.put(Counter.RING_FULL_WAITS, 3L);
        c.put(Counter.CLAMPED_VALUES, 1L);
        c.put(Counter.WASTED_INPUT_TOKENS, 3_000L);
        c.put(Counter.FAILED_OUTPUT_TOKENS, 120L);
        c.put(Counter.CACHED_TOKENS, 61_440L);
        c.put(Counter.CACHE_REPORTING_REQUESTS, 196L);
        c.put(Counter.CACHE_REPORTING_INPUT_TOKENS, 98_000L);
        c.put(Counter.IDEAL_CACHED_TOKENS, 70_000L);
        c.put(Counter.IDEAL_INPUT_TOKENS, 98_000L);
        c.put(Counter.ENGINE_DRAFT_TOKENS, 9_000L);
        c.put(Counter.ENGINE_DRAFT_ACCEPTED, 6_300L);
        final RunResult.Counts counts = new RunResult.Counts(c, errors);
        final AgentWorkload.Report tasks = new AgentWorkload.Report(12, 9, 2, 1, 1, 0, histogram(900, 1_500, 4_200),
            histogram(3, 4, 9), 41.5, 12.25, 3, new AgentWorkload.Ledger(new AgentWorkload.Outcome[0], new long[0],
            new int[0], new long[0]));
        final Map<Metric, Distribution> groupTimes = distributions(120);
        final List<RunResult.GroupResult> groups = List.of(
            new RunResult.GroupResult("chat", 120, 2, 12, 24_000, 60_000, 29.5, groupTimes,
                Slo.ofMillis(400.0, null, null), new GoodputCounts(134, 101, 20_000, 19, 0, 0, 0, 0, 2, 12, 0)),
            new RunResult.GroupResult("a-very-long-segment-name", 76, 2, 8, 15_000, 38_000, 29.75,
                distributions(76), null, null));
        final RunResult.ClientHealth health = new RunResult.ClientHealth(
            new Distribution("ms", 30_000, 0.01, 0.08, 0.2, 0.05, 0.1, 0.2, 1.75, 4.5, 9.25, 1.5, 2.0, 4.0, 9.25),
            1_000_000, 14, 230, 41, 2, 1_310, List.of("G1 Young Generation", "G1 Old Generation", "G1 Concurrent GC"),
            "cpu",
            List.of("results/full/profile-cpu.html"), new ProcessUsage.CpuTimes(3_250_000_000L, 750_000_000L, true),
            byThread(), 268_435_456L, new ReadinessReport(200, 4_000, 2.5, 812.5, 64, 0.125, 15.5, 120.5, 2, "used"),
            180, 150,
            new SafepointCounters.Reading(410, 95_500_000L, 3_250_000L), "SCHED_IDLE",
            new StampingSaturation.Result(30, 2, 0.93, "tokenclock-ksta", null));
        final Map<String, Object> rtt = new LinkedHashMap<>();
        rtt.put("probes", 20);
        rtt.put("min_ms", 0.21);
        rtt.put("p50_ms", 0.25);
        rtt.put("p99_ms", 0.9);
        rtt.put("max_ms", 1.1);
        final RunResult.Provenance provenance = new RunResult.Provenance("9f".repeat(32), "5a".repeat(32), 225, 2,
            "c1".repeat(32), "cl100k_base", "flushed: HTTP 200", rtt, "recvmsg epoll (FFM, SO_TIMESTAMPING)",
            new StampingReport("kernel", "kernel", "kernel", 4_400, 3, null, 1_764_000_000_000_000_000L,
                1_764_000_000_000_000_120L, 0, 12, 5, new StampingReport.Chunks(4_390, 3, 2, 220, 0),
                new StampingReport.ReceiveDelay(4_397, 21_000, 640_000, 1_900_000, 2_400_000),
                new StampingReport.SendDelay(218, 2, 0, 0, 9_000, 31_000, 48_000, 48_000),
                new StampingReport.PacketTap("auto", "lo", "auto: a packet socket may be opened, and 127.0.0.1 " +
                    "answers on lo", null, 17, 1, 4_650, 4_410, 0, 0, 65_536, -1)));
        return new RunResult(o, target(o, "full", true), counts,
            new RunResult.Window(1_000 * MS, 31_000 * MS, 44.5), distributions(200), health, provenance, groups,
            new RunResult.ColdStart("ok", null, 812.5, 21.25, 5_040.75, 230), tasks,
            "interrupted (SIGINT) after 31 s", null, new GoodputCounts(220, 150, 30_000, 30, 16, 0, 0, 0, 4, 20, 0),
            null, null, null, ClientHost.NONE, new SessionReport("mooncake", 10.0, 12, 11, 200, 2,
            histogram(8, 18, 40), histogram(1_500, 4_000, 9_000), 25.5, 61.25));
    }

    /** A complete closed-loop run over plain HTTP with none of the optional parts, and no request that succeeded. */
    private static RunResult bare()
    {
        final RunOptions o = RunOptions.builder().url("http://127.0.0.1:8000/v1").concurrency(4).requests(4L)
            .commandLine(List.of("tokenclock", "run", "--url", "http://127.0.0.1:8000/v1", "--concurrency", "4"))
            .build();
        final RunResult.Counts counts = new RunResult.Counts(Map.of(Counter.ERRORS, 4L),
            Map.of(ErrorClass.HTTP_429.label(), 4L));
        final Map<Metric, Distribution> none = new EnumMap<>(Metric.class);
        for (final Metric m : Metric.values())
        {
            none.put(m, empty(m.unit()));
        }
        final RunResult.ClientHealth health = new RunResult.ClientHealth(empty("ms"), 1_000_000, 0, 0, 0, 0, 0,
            List.of(), null, List.of(), new ProcessUsage.CpuTimes(20_000_000L, 0, false),
            ThreadCpu.ByGroup.unavailable("no /proc/self/task: per-thread CPU is read on Linux only", 20_000_000L),
            8_388_608L, ReadinessReport.NONE, 0, -1,
            null, "normal", null);
        final RunResult.Provenance provenance = new RunResult.Provenance("0b".repeat(32), null, 4, 0, null, null,
            "preserve: no flush", Map.of(), "nio", StampingReport.user(null));
        return new RunResult(o, target(o, "bare", false), counts, new RunResult.Window(5 * MS, 905 * MS, 1.25), none,
            health, provenance, List.of(), null, null, null, null, null, null, null);
    }

    /**
     * The full run's CPU by thread: two snapshots of a 4.0 s window (a C1 compiler thread gone at the end, two
     * threads born in it), 3.52 s seen per thread, so 480 ms ended.
     */
    private static ThreadCpu.ByGroup byThread()
    {
        final Map<Long, ThreadCpu.Sample> start = new LinkedHashMap<>();
        start.put(11L, new ThreadCpu.Sample("multiThreadIoEv", 500_000_000L, 1_000));
        start.put(12L, new ThreadCpu.Sample("tokenclock-coll", 100_000_000L));
        start.put(13L, new ThreadCpu.Sample("tokenclock-requ", 80_000_000L));
        start.put(14L, new ThreadCpu.Sample("C2 CompilerThre", 8_000_000_000L));
        start.put(15L, new ThreadCpu.Sample("tokenclock-load", 0));
        start.put(16L, new ThreadCpu.Sample("GC Thread#0", 40_000_000L));
        start.put(17L, new ThreadCpu.Sample("C1 CompilerThre", 300_000_000L));
        final Map<Long, ThreadCpu.Sample> end = new LinkedHashMap<>();
        end.put(11L, new ThreadCpu.Sample("multiThreadIoEv", 2_300_000_000L, 41_000));
        end.put(12L, new ThreadCpu.Sample("tokenclock-coll", 340_000_000L));
        end.put(13L, new ThreadCpu.Sample("tokenclock-requ", 260_000_000L));
        end.put(14L, new ThreadCpu.Sample("C2 CompilerThre", 8_820_000_000L));
        end.put(15L, new ThreadCpu.Sample("tokenclock-load", 60_000_000L));
        end.put(16L, new ThreadCpu.Sample("GC Thread#0", 270_000_000L));
        end.put(18L, new ThreadCpu.Sample("tokenclock-hicc", 150_000_000L));
        end.put(19L, new ThreadCpu.Sample("java", 40_000_000L));
        return ThreadCpu.between(new ThreadCpu.Snapshot(start, null), new ThreadCpu.Snapshot(end, null),
            4_000_000_000L);
    }

    private static RunResult.Target target(final RunOptions o, final String runId, final boolean probed)
    {
        final ServerInfo server = probed ? new ServerInfo(List.of("meta-llama/Llama-3.1-8B-Instruct", "draft"),
            JSON.createObjectNode().put("object", "list"), 200, "", Map.of("server", "uvicorn"), 200, 12.5, 3.5, 4) :
            ServerInfo.NONE;
        return new RunResult.Target(Endpoint.parse(o.target().url(), o.target().api()),
            probed ? "meta-llama/Llama-3.1-8B-Instruct" : "tiny", server, runId, Path.of("/results", runId),
            Instant.parse("2025-01-02T03:04:05.678Z"));
    }

    /**
     * Every metric, with figures scaled from {@code n}: the engine's own TPOT not reported, TTFT's p99 unbounded
     * (fewer than 368 samples) and e2e's bounded.
     */
    private static Map<Metric, Distribution> distributions(final long n)
    {
        final Map<Metric, Distribution> d = new EnumMap<>(Metric.class);
        int k = 1;
        for (final Metric m : Metric.values())
        {
            final double b = k++ * 1.25;
            d.put(m, new Distribution(m.unit(), n, b, 2 * b, 0.5 * b, 1.75 * b, 3 * b, 3.5 * b, 4.25 * b, 5 * b,
                6.5 * b, 4 * b, 4.75 * b, 4.5 * b, Double.NaN));
        }
        d.put(Metric.ENGINE_TPOT, empty("ms"));
        d.put(Metric.TTFT, new Distribution("ms", n, 20.5, 48.25, 12.125, 45.0, 60.5, 70.25, 91.0, 97.5, 99.75,
            88.0, Double.NaN, Double.NaN, Double.NaN));
        d.put(Metric.E2E, new Distribution("ms", 10 * n, 900.0, 2_400.5, 310.25, 2_350.0, 2_800.0, 2_950.5,
            3_300.25, 3_900.0, 4_100.0, 3_200.0, 3_400.0, 3_800.0, Double.NaN));
        return d;
    }

    private static Distribution empty(final String unit)
    {
        return new Distribution(unit, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    private static Histogram histogram(final long... values)
    {
        final Histogram h = new Histogram(3);
        for (final long v : values)
        {
            h.recordValue(v);
        }
        return h;
    }

    /** Requests of every phase and outcome, with and without ids, users, token counts, engine timings and text. */
    private static List<RequestSlot> requests()
    {
        final RequestSlot ok = slot(1, RequestSlot.PHASE_MEASURE, 3);
        final byte[] id = ascii("chatcmpl-1");
        ok.setResponseId(id, 0, id.length);
        ok.user = 2;
        ok.finishReason = 1;
        ok.doneSeen = true;
        ok.usagePromptTokens = 120;
        ok.usageCompletionTokens = 3;
        ok.harnessOutputTokens = 3;
        final byte[] text = ascii("Hello there");
        ok.appendText(text, 0, text.length);
        final byte[] reasoning = ascii("think \\\"first\\\"");
        ok.appendReasoning(reasoning, 0, reasoning.length);
        ok.enginePromptNs = 31_402_000;
        ok.engineDecodeNs = 45_609_400;
        ok.enginePredictedTokens = 3;
        ok.engineDraftTokens = 6;
        ok.engineDraftAccepted = 2;
        ok.cachedTokens = 96;
        ok.idealCachedTokens = 112;
        ok.sessionId = "sess-c1ff91a76156";
        ok.turn = 4;
        final RequestSlot warm = slot(2, RequestSlot.PHASE_WARMUP, 2);
        warm.chunkTokens[1] = RequestSlot.TOKENS_UNKNOWN;
        warm.finishReason = 2;
        final byte[] escaped = ascii("caf\\u00e9");
        warm.appendText(escaped, 0, escaped.length);
        final RequestSlot limited = slot(3, RequestSlot.PHASE_RAMP, 0);
        limited.status = RequestSlot.STATUS_ERROR;
        limited.errorClass = ErrorClass.HTTP_429;
        limited.errorDetail = "HTTP 429: slow down";
        limited.httpStatus = 429;
        limited.retryAfterMs = 1_500;
        limited.retries429 = 2;
        final RequestSlot cut = slot(4, RequestSlot.PHASE_COLD, 1);
        cut.status = RequestSlot.STATUS_ERROR;
        cut.errorClass = ErrorClass.TRUNCATED;
        cut.late = true;
        final RequestSlot cancelled = slot(5, RequestSlot.PHASE_MEASURE, 2);
        cancelled.status = RequestSlot.STATUS_CANCELLED;
        cancelled.errorClass = ErrorClass.CANCEL_RULE;
        cancelled.truncated = true;
        cancelled.finishReason = 5;
        cancelled.task = 7;
        cancelled.step = 1;
        final RequestSlot answer = slot(6, RequestSlot.PHASE_MEASURE, 1);
        answer.task = 7;
        answer.step = 2;
        answer.cachedTokens = 0;
        return List.of(ok, warm, limited, cut, cancelled, answer);
    }

    private static RequestSlot slot(final long id, final int phase, final int chunks)
    {
        final RequestSlot s = new RequestSlot((int)id);
        s.reset();
        s.requestId = id;
        s.phase = phase;
        s.status = RequestSlot.STATUS_OK;
        s.httpStatus = 200;
        s.connectionId = (int)id % 2;
        s.newConnection = id == 1;
        s.scheduledNs = id * 1_000 * MS;
        s.submitNs = s.scheduledNs + 1_250;
        s.sentNs = s.scheduledNs + 52_345;
        s.headersNs = s.sentNs + 2 * MS + 345_678;
        for (int i = 0; i < chunks; i++)
        {
            s.addChunk(s.sentNs + (40 + 7 * i) * MS + 123_456, 1, RequestSlot.CHUNK_OUTPUT);
        }
        s.firstTokenNs = chunks > 0 ? s.chunkNs[0] : 0;
        s.firstOutputNs = s.firstTokenNs;
        s.endNs = s.sentNs + (50 + 7 * chunks) * MS + 999_999;
        return s;
    }

    private static byte[] ascii(final String s)
    {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
