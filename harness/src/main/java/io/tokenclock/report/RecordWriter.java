package io.tokenclock.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import io.tokenclock.api.Api;
import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.health.SafepointCounters;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.Metric;
import io.tokenclock.recording.RequestStage;
import io.tokenclock.results.record.Dist;
import io.tokenclock.results.record.LoadSection;
import io.tokenclock.results.record.MeasurementSection;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.record.ReportSection;
import io.tokenclock.results.record.RunRecord;
import io.tokenclock.run.ReadinessReport;
import io.tokenclock.run.RunResult;
import io.tokenclock.secrets.Redaction;
import io.tokenclock.transport.StampingReport;
import io.tokenclock.workload.AgentWorkload;
import io.tokenclock.workload.CancellationRule;
import io.tokenclock.workload.ImageSpec;
import io.tokenclock.workload.ImageSynthesizer;
import io.tokenclock.workload.SessionWorkload;

/**
 * Writes {@code record.json}: the benchmark record, one section per part of the contract (model, runtime, hardware,
 * workload, load, measurement, report), the exact command, and a grade. Fields that this version cannot capture yet
 * are present as null and listed under {@code grade.missing} with what would fill them: a gap is stated, never
 * hidden.
 * Format documented in docs/RESULTS.md.
 */
public final class RecordWriter
{
    /** Version of the metric definitions in docs/METRICS.md that this build implements. */
    public static final String FORMULAS_VERSION = RunRecord.FORMULAS;
    public static final int RECORD_FORMAT = RunRecord.FORMAT;

    private static final ObjectMapper JSON = RecordJson.JSON;
    private static final String BOUNDARY = "client-side: from the client's write of the request to arrival of " +
        "response bytes at the client's socket; includes network, server queueing, prefill and decode";
    private static final String CLOCK = "System.nanoTime (CLOCK_MONOTONIC on Linux), one clock for all stamps, ns";
    /** Which chunk is the first token: the rule {@code compare} holds two results to. */
    public static final String FIRST_TOKEN_RULE = "first chunk with non-empty content, reasoning_content/reasoning, " +
        "or tool_calls; role-only and usage-only chunks are not tokens";
    /** How output tokens are counted. */
    public static final String TOKEN_COUNTS = "usage.completion_tokens from the server when reported " +
        "(stream_options.include_usage), else the harness's own count under the configured tokenizer, else the " +
        "number of content-bearing chunks; requests.jsonl says which per request and keeps both counts";
    /** How percentiles are taken. */
    public static final String HISTOGRAMS = "HdrHistogram, values in ns, 3 significant digits";

    private RecordWriter()
    {
    }

    /**
     * Writes the record atomically: to a temporary file beside it, then renamed over it, so that a reader (or a run
     * killed at any moment) finds the previous version or the new one, never a torn file.
     */
    public static void write(final RunResult r, final String workloadDescription, final Path file) throws IOException
    {
        RecordJson.write(build(r, workloadDescription), file);
    }

    /** @return the run's record: every section built once, from the result, and never changed after. */
    public static RunRecord build(final RunResult r, final String workloadDescription)
    {
        final RunOptions o = r.options();
        final List<String> gaps = new ArrayList<>();
        final JsonNode contract = o.output().contract() == null ? JSON.createObjectNode() : o.output().contract();
        final RunRecord.Model model = model(r, contract.path("model"), gaps);
        final RunRecord.Runtime runtime = runtime(r, contract.path("runtime"), gaps);
        final RunRecord.Hardware hardware = hardware(r, contract.path("hardware"), gaps);
        final RunRecord.Workload workload = workload(r, workloadDescription, contract, gaps);
        final MeasurementSection measurement = measurement(r);
        final ReportSection report = report(r);
        CostEnergyReport.gaps(r, gaps);
        require(gaps, r.counts().ok() > 0, "report: no measured request succeeded");
        require(gaps, !r.partial(), "partial: " + r.partialReason() + " (the record does not cover the whole " +
            "planned run: run it to the end)");
        QualitySection.gaps(r, gaps);
        StampingSection.compromised(r.provenance().stamping(), r.clientHealth().stampingSaturation())
            .ifPresent(line -> gaps.add("measurement.stamping: " + line));
        final RunRecord.Contract contractSection = new RunRecord.Contract(
            o.output().contractPath() == null ? null : o.output().contractPath().toString(),
            o.output().contract() == null ? null : o.output().contract().deepCopy(), options(o, RunOption.all()));
        final RunRecord.Grade grade = new RunRecord.Grade(gaps.isEmpty() ? RunRecord.COMPARISON_GRADE :
            "local-debugging", List.copyOf(gaps));
        return new RunRecord(new RunRecord.Header(RECORD_FORMAT, FORMULAS_VERSION, version()), r.target().runId(),
            r.partial(), r.partialReason(), r.target().startedAt().toString(),
            List.copyOf(o.output().commandLine()), model, runtime, hardware, workload, load(r),
            r.shard() == null ? null : ShardSection.of(r), measurement, report, contractSection, grade);
    }

    /**
     * {@code contract.options}: each plain option of {@code table} that a user can name (by a flag or a key) as the
     * run resolved it, under its contract key, else its option's name (never a {@code --no-} flag, whose value would
     * read backwards); an enum by its word, a string with any URL in it redacted (a {@code --server-metrics} token, a
     * URL's user information). E.g. {@code "measurement.io_threads" : 0, "target.endpoint" : "chat", "runId" :
     * null, "htmlReport" : true}.
     *
     * @param o     the run's options.
     * @param table the options, as {@link RunOption#all()} (a test passes others).
     * @return one member per option, in the table's order.
     */
    public static ObjectNode options(final RunOptions o, final List<RunOption<?>> table)
    {
        final RunOptionsBuilder resolved = o.toBuilder();
        final ObjectNode out = JSON.createObjectNode();
        for (final RunOption<?> option : table)
        {
            if (option.plain() && (option.key() != null || option.flag() != null))
            {
                out.set(option.key() != null ? option.key() : option.field(), value(option, resolved.get(option)));
            }
        }
        return out;
    }

    private static <T> JsonNode value(final RunOption<T> option, final Object value)
    {
        if (value == null)
        {
            return NullNode.getInstance();
        }
        if (value instanceof Enum<?>)
        {
            return TextNode.valueOf(option.word(option.cast(value)));
        }
        if (value instanceof Number || value instanceof Boolean)
        {
            return JSON.valueToTree(value);
        }
        return TextNode.valueOf(Redaction.urlsIn(value.toString()));
    }

    /** The {@code model} section: what was asked for and served, as declared, and how it decoded. */
    private static RunRecord.Model model(final RunResult r, final JsonNode declared, final List<String> gaps)
    {
        final RunOptions o = r.options();
        require(gaps, declared.has("revision"), "model.revision (contract: model.revision)");
        require(gaps, o.model().tokenizer() != null, "model.tokenizer (contract: model.tokenizer, or --tokenizer)");
        require(gaps, declared.has("context_limit"), "model.context_limit (contract: model.context_limit)");
        final RunRecord.Decoding decoding = new RunRecord.Decoding(
            o.workload().outputLengths() == null ? (Integer)o.model().maxTokens() : null, o.model().ignoreEos(),
            o.model().temperature(), o.model().extraBody());
        return new RunRecord.Model(r.target().model(), List.copyOf(r.target().server().modelIds()),
            text(declared, "revision"), r.provenance().tokenizerId(), r.provenance().tokenizerSha256(),
            declared.has("context_limit") ? declared.get("context_limit").asLong() : null, decoding);
    }

    /** The {@code runtime} section: the endpoint, what the server said of itself, and what the contract declared. */
    private static RunRecord.Runtime runtime(final RunResult r, final JsonNode declared, final List<String> gaps)
    {
        require(gaps, declared.has("engine") && declared.has("version") && declared.has("precision"),
            "runtime.declared engine, version and precision (contract: runtime)");
        return new RunRecord.Runtime(r.target().endpoint().shownCompletionUrl(),
            r.target().endpoint().api().word(),
            new LinkedHashMap<>(r.target().server().engineHeaders()), r.target().server().modelsResponse(),
            declared.isMissingNode() ? null : declared.deepCopy());
    }

    /** The {@code hardware} section: the client machine as the runner read it, the server's as declared. */
    private static RunRecord.Hardware hardware(final RunResult r, final JsonNode declared, final List<String> gaps)
    {
        require(gaps, declared.has("accelerators"),
            "hardware.server_declared accelerators (contract: hardware.accelerators)");
        return new RunRecord.Hardware(JSON.valueToTree(r.host().machine()), JSON.valueToTree(r.host().gpus()),
            declared.isMissingNode() ? null : declared.deepCopy());
    }

    /** The {@code workload} section: what was sent, its hash, and what counts as success. */
    private static RunRecord.Workload workload(
        final RunResult r, final String description, final JsonNode contract, final List<String> gaps)
    {
        final RunOptions.Workload w = r.options().workload();
        final String success = contract.path("quality").path("success").asText(null);
        require(gaps, success != null, "workload.success_criterion (contract: quality.success)");
        return new RunRecord.Workload(description, declared(w.inputLengths()), declared(w.outputLengths()),
            w.lengthCorrelation(), w.seed(), r.provenance().hash(), r.provenance().requests(),
            r.provenance().residualRequests(), success, w.cancelRate() > 0 ? new CancellationRule(w.cancelRate(),
            w.cancelAfterMs(), w.cancelAfterTokens(), w.seed()).describe() : null,
            r.options().target().api().batched() ? w.embedBatch() : null, images(r));
    }

    /** The synthetic images, or null without any: what they were, how many were sent, their bytes. */
    private static RunRecord.Images images(final RunResult r)
    {
        final ImageSpec spec = r.options().workload().images();
        if (spec == null)
        {
            return null;
        }
        final long sent = r.provenance().imagesSent();
        final boolean sessions = r.options().load().users() != null;
        return new RunRecord.Images(spec.count(), spec.width() + "x" + spec.height(), spec.format().word(),
            "synthetic: tiles of " + ImageSynthesizer.TILE + " pixels in colours drawn from the seed, " +
            (sessions ? "user, session, turn" : "request") + " and image index; encoded by javax.imageio", sent,
            r.provenance().imageBytesSent(), sent == 0 ? 0 : (double)r.provenance().imageBytesSent() / sent,
            "counted by the server only: its usage's prompt tokens include the images' tokens; the harness cannot " +
            "count image tokens itself, so its own input count (input_tokens without usage) leaves them out",
            sessions ? SessionWorkload.IMAGE_RULE : null);
    }

    private static LoadSection load(final RunResult r)
    {
        final RunOptions o = r.options();
        final var schedule = o.rateSchedule();
        final boolean open = !o.closedLoop();
        return new LoadSection(open ? "open" : "closed",
            o.load().scenario() == null ? null : o.load().scenario().flagValue(),
            o.load().minSamplesFor() == null ? null : o.load().minSamplesFor().label(), o.load().concurrency(),
            o.load().rate(), open ? o.load().arrival().name().toLowerCase(Locale.ROOT) : null,
            open ? (Double)o.load().burstiness() : null, o.maxInFlight(), o.load().requests(), o.load().durationS(),
            o.state().warmupRequests(), o.state().warmupDurationS(), schedule == null ? null : schedule.describe(),
            o.workload().seed(), r.provenance().scheduleHash(), o.state().cachePolicy(), r.provenance().cacheAction(),
            o.target().timeoutS(), o.target().connectTimeoutS(), o.target().firstByteTimeoutS(),
            o.target().idleTimeoutS(), o.load().drainTimeoutS(), endOfWindowRule(o.load().drainTimeoutS()),
            o.workload().trace() ? o.load().traceSpeedup() : null);
    }

    private static String endOfWindowRule(final double drainTimeoutS)
    {
        return drainTimeoutS > 0 ?
            "grace: requests started in the window may run for up to drain_timeout_s after the last start; those " +
            "ending after the window closed are marked late (counted in report.counts.late_completions) and stay " +
            "in the metrics; any still running then are cancelled and counted as cancelled" :
            "cancel: requests still running when the last start is made are cancelled at once and counted as " +
            "cancelled";
    }

    /**
     * The {@code measurement} section: where and how the client measured, then how the client itself behaved while
     * it did (threads, jitter, GC, CPU, readiness, JIT, safepoints, profile).
     */
    private static MeasurementSection measurement(final RunResult r)
    {
        final RunResult.ClientHealth h = r.clientHealth();
        final MeasurementSection.Profile profile = h.profileEvent() == null ? null : new MeasurementSection.Profile(
            r.options().measurement().profile(), h.profileEvent(), List.copyOf(h.profileFiles()));
        return new MeasurementSection(BOUNDARY, r.target().endpoint().isLoopback() ? "loopback" : "remote",
            r.target().endpoint().tls() ? r.options().tlsTrust().describe() : null,
            JSON.valueToTree(r.provenance().connectRtt()), CLOCK, StampingSection.transport(r.provenance()),
            StampingSection.json(r.provenance().stamping(), h.stampingSaturation()), FIRST_TOKEN_RULE, TOKEN_COUNTS,
            "docs/METRICS.md, " + FORMULAS_VERSION, HISTOGRAMS, r.energy() == null ? null : r.energy().powerBoundary(),
            clientThreads(r, h), clientJitter(h), new MeasurementSection.ClientGc(List.copyOf(h.gcCollectors()),
            h.gcCount(), h.gcTotalMs(), h.gcMaxMs(), h.gcConcurrentCycles(), h.gcConcurrentMs()),
            clientCost(h, r.counts().get(Counter.CHUNKS)),
            ClientCpuSection.of(h.cpuByThread(), r.counts().get(Counter.CHUNKS)), readiness(r),
            new MeasurementSection.ClientJit(h.jitMsDuringLoad(), h.jitMsInWindow() < 0 ? null : h.jitMsInWindow(),
            "CompilationMXBean total compilation time (summed over compiler threads) to the end of the drain, from " +
            "the start of load (the run's own warm-up requests included) and from the window's opening"),
            safepoints(h.safepointsDuringLoad()), profile, ServerMetricsReport.scraping(r));
    }

    /** What each of the client's threads does, and the request stage's scheduling priority. */
    private static MeasurementSection.ClientThreads clientThreads(final RunResult r, final RunResult.ClientHealth h)
    {
        return new MeasurementSection.ClientThreads(StampingSection.kernelClient(r.provenance()) ?
            "the kernel client's epoll loop threads (tokenclock-kstamp-N): recvmsg, stamp, decode HTTP, frame SSE, " +
            "publish fixed-size records, send" :
            "the Netty event loop threads: read, stamp, frame SSE, publish fixed-size records, send",
            "one thread: drains the ring, rebuilds chunk timelines, frees permits",
            "one thread: token counts, metrics, histograms, requests.jsonl (flushed within " +
                RequestStage.FLUSH_INTERVAL_NS / 1_000_000 + " ms)", h.stagePriority());
    }

    private static MeasurementSection.ClientJitter clientJitter(final RunResult.ClientHealth h)
    {
        return new MeasurementSection.ClientJitter("a thread asks to wake every " + h.hiccupIntervalNs() / 1_000_000.0 +
            " ms and records how late it woke (jHiccup-style); covers the whole run, warmup and drain included",
            h.hiccupIntervalNs() / 1_000, dist(h.hiccupsMs()));
    }

    /** The client's CPU time over the load, in all and per chunk, and its peak heap. */
    private static MeasurementSection.ClientCost clientCost(final RunResult.ClientHealth h, final long chunks)
    {
        final String method = (h.cpu().split() ? "process CPU from /proc/self/stat (utime, stime; 10 ms ticks)" :
            "process CPU from the JVM's process CPU clock (user and system not told apart: all counted as user)") +
            ", every thread of the process including those that ended, from the start of load (after the " +
            "self-warm-up and pre-connection) to the end of the drain; includes an embedded simulator when there is " +
            "one";
        return new MeasurementSection.ClientCost(method, h.cpuUserNs() / 1e9, h.cpuSystemNs() / 1e9,
            chunks > 0 ? h.cpuUserNs() / 1e3 / chunks : 0, chunks > 0 ? h.cpuSystemNs() / 1e3 / chunks : 0,
            h.peakHeapBytes());
    }

    /** What the client did before t0 to be ready, and how long the server took to be. */
    private static MeasurementSection.Readiness readiness(final RunResult r)
    {
        final ReadinessReport rd = r.clientHealth().readiness();
        final int probes = r.target().server().probes();
        return new MeasurementSection.Readiness(rd.warmupRequests(), rd.warmupChunks(), rd.warmupS(),
            rd.jitMsInWarmup(), rd.preconnected(), rd.preconnectS(), rd.gcBeforeT0Ms(), rd.compilerDrainMs(),
            rd.compilerThreadsIdle(),
            r.options().target().waitReadyS(), probes, probes == 0 ? null : r.target().server().readyAfterS(),
            rd.aotCache());
    }

    /** The time every thread stood still at safepoints during load, or nulls saying why it is not known. */
    private static MeasurementSection.ClientSafepoints safepoints(final SafepointCounters.Reading sp)
    {
        if (sp == null)
        {
            return new MeasurementSection.ClientSafepoints(null, null, null,
                "unavailable: the JVM's performance-data file (hsperfdata) could not be read");
        }
        return new MeasurementSection.ClientSafepoints(sp.safepoints(), sp.totalNs() / 1e6, sp.syncNs() / 1e6,
            "HotSpot's sun.rt.safepoints, sun.rt.safepointTime and sun.rt.safepointSyncTime (read from its " +
            "hsperfdata memory) from the start of load to the end of the drain; every Java thread, the stamping " +
            "thread included, is stopped for total_ms; GC pauses are among them");
    }

    /** The {@code report} section: what the measured requests gave, in all, per segment and per task. */
    private static ReportSection report(final RunResult r)
    {
        final double w = r.windowSeconds();
        final RunResult.Counts c = r.counts();
        final ReportSection.Window window = new ReportSection.Window(r.window().startNs(), r.window().endNs(), w,
            r.window().wallSeconds());
        final boolean streamed = r.options().target().api().streamed();
        final ReportSection.Throughput throughput = new ReportSection.Throughput(Formulas.rate(c.ok(), w),
            streamed ? Formulas.rate(c.get(Counter.OUTPUT_TOKENS), w) : null,
            Formulas.rate(c.get(Counter.INPUT_TOKENS), w),
            streamed ? null : Formulas.rate(c.get(Counter.INPUTS), w));
        final StampingReport stamping = r.provenance().stamping();
        return new ReportSection(window, counts(r), new LinkedHashMap<>(c.errorsByClass()), throughput,
            distributions(r.distributions(), streamed), tailWarnings(r), StampingSection.receiveDelay(stamping),
            StampingSection.sendDelay(stamping), coldStart(r.coldStart(), streamed), tasks(r.tasks(), w),
            segments(r.groups(), r.options().quality().rule().judgesOutputs(), streamed),
            new ReportSection.Harness(c.values()), GoodputSection.json(r),
            QualitySection.json(r), repetitions(r.options().state()), ServerMetricsReport.window(r),
            CostEnergyReport.costSection(r), CostEnergyReport.energySection(r), CacheSection.json(r),
            CacheSection.sessions(r));
    }

    /** The per-metric tail warnings, then a step of the realtime clock under kernel stamps, if one was seen. */
    private static List<String> tailWarnings(final RunResult r)
    {
        final List<String> tail = new ArrayList<>(TailWarnings.of(r.distributions()));
        StampingSection.tailWarning(r.provenance().stamping()).ifPresent(tail::add);
        return List.copyOf(tail);
    }

    /** Every measured request and what it carried, by outcome: each counter of {@code report.counts}. */
    private static ReportSection.Counts counts(final RunResult r)
    {
        final RunResult.Counts c = r.counts();
        final long limited = c.errorsByClass().getOrDefault("http_429", 0L);
        return new ReportSection.Counts(c.total(), c.values(), Formulas.rate(limited, r.windowSeconds()));
    }

    /** @return the cold-start request's figures (a stream's only for a streamed API), or null when there was none. */
    private static ReportSection.ColdStart coldStart(final RunResult.ColdStart cold, final boolean streamed)
    {
        return cold == null ? null : new ReportSection.ColdStart(cold.status(), cold.error(),
            streamed ? cold.ttftMs() : null, streamed ? cold.tpotMs() : null, cold.e2eMs(),
            streamed ? cold.outputTokens() : null);
    }

    /** @return the agent tasks' outcomes and timings over a window of {@code windowS} seconds, or null if none ran. */
    private static ReportSection.Tasks tasks(final AgentWorkload.Report tasks, final double windowS)
    {
        if (tasks == null)
        {
            return null;
        }
        return new ReportSection.Tasks(tasks.tasks(), tasks.succeeded(), tasks.failedRequests(),
            tasks.stepLimited(), tasks.tasks() > 0 ? (double)tasks.succeeded() / tasks.tasks() : 0,
            Formulas.rate(tasks.tasks(), windowS), dist(Distribution.of(tasks.latencyMs(), "ms", 1)),
            dist(Distribution.of(tasks.steps(), "steps", 1)), tasks.modelSeconds(), tasks.toolSeconds(),
            tasks.retries(), tasks.wrongAnswers(), tasks.unjudged(),
            tasks.failedRequests() + tasks.stepLimited() + tasks.wrongAnswers());
    }

    /** One member per segment (or stage): its counts, rates over its own window, goodput, and distributions. */
    private static Map<String, ReportSection.Segment> segments(
        final List<RunResult.GroupResult> results, final boolean judgesOutputs, final boolean streamed)
    {
        final Map<String, ReportSection.Segment> segments = new LinkedHashMap<>();
        for (final RunResult.GroupResult g : results)
        {
            final ReportSection.Goodput goodput = GoodputSection.group(g, judgesOutputs);
            final double w = g.windowSeconds();
            segments.put(g.name(), new ReportSection.Segment(g.ok(), g.errors(), g.cancelled(), g.outputTokens(),
                g.inputTokens(), w, Formulas.rate(g.ok(), w), Formulas.rate(g.outputTokens(), w),
                goodput == null ? null : goodput.slo() == null ? NullNode.getInstance() :
                TextNode.valueOf(goodput.slo()),
                goodput == null ? null : goodput.good(), goodput == null ? null : goodput.goodFraction(),
                goodput == null ? null : goodput.goodputPerS(), goodput, distributions(g.distributions(), streamed)));
        }
        return segments;
    }

    /** @return which repetition this run is and where their spread is, or null for a single run. */
    private static ReportSection.RepetitionRef repetitions(final RunOptions.State state)
    {
        return state.repetitions() <= 1 ? null : new ReportSection.RepetitionRef(state.repetitionIndex(),
            state.repetitions(), "../repetitions.json");
    }

    /** @return a length distribution as its contract declared it, or null when none was declared. */
    private static JsonNode declared(final LengthSpec spec)
    {
        return spec == null ? null : JSON.valueToTree(spec.declared());
    }

    private static void require(final List<String> gaps, final boolean filled, final String what)
    {
        if (!filled)
        {
            gaps.add(what);
        }
    }

    private static String text(final JsonNode node, final String field)
    {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }

    /**
     * Fills {@code report.distributions} and {@code report.tail_warnings} of a record from {@code distributions}, as
     * a run's record has them: what {@code merge} writes from the shards' histograms added together.
     */
    public static void putDistributions(final ObjectNode report, final Map<Metric, Distribution> distributions,
        final JsonNode record)
    {
        report.set("distributions", RecordJson.tree(distributions(distributions, streamed(record))));
        final ArrayNode tail = report.putArray("tail_warnings");
        TailWarnings.of(distributions).forEach(tail::add);
    }

    /** @return whether the API a record names ({@code runtime.api}) streams; a record that names none streamed. */
    public static boolean streamed(final JsonNode record)
    {
        final String word = record.path("runtime").path("api").asText("chat");
        return Arrays.stream(Api.values()).noneMatch(a -> a.word().equals(word) && !a.streamed());
    }

    /**
     * One member per metric that exists for the run's API ({@code streamed}: a stream's metrics are absent for an
     * answer read whole, never written as 0); a server-reported one only when the server reported it (see
     * docs/RESULTS.md).
     */
    private static Map<String, Dist> distributions(final Map<Metric, Distribution> distributions,
        final boolean streamed)
    {
        final Map<String, Dist> n = new LinkedHashMap<>();
        for (final Map.Entry<Metric, Distribution> e : distributions.entrySet())
        {
            if (e.getKey().appliesTo(streamed) && (!e.getKey().serverReported() || e.getValue().count() > 0))
            {
                n.put(e.getKey().key(), dist(e.getValue()));
            }
        }
        return n;
    }

    /** @return {@code d} as the record writes it: the figures only when it has samples. */
    public static Dist dist(final Distribution d)
    {
        return Dist.of(d);
    }

    static String version()
    {
        final String v = RecordWriter.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }
}
