package io.tokenclock.report;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.RunOptions;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.SafepointCounters;
import io.tokenclock.recording.RequestStage;
import io.tokenclock.recording.Slo;
import io.tokenclock.result.ReadinessReport;
import io.tokenclock.result.RunResult;
import io.tokenclock.workload.AgentWorkload;
import io.tokenclock.workload.CancellationRule;

/**
 * Writes {@code record.json}: the benchmark record, one section per part of the contract (model, runtime, hardware,
 * workload, load, measurement, report), the exact command, and a grade. Fields that this version cannot capture yet
 * are present as null and listed under {@code gaps} with what would fill them: a gap is stated, never hidden.
 * Format documented in docs/RESULTS.md.
 */
public final class RecordWriter
{
    /** Version of the metric definitions in docs/METRICS.md that this build implements. */
    public static final String FORMULAS_VERSION = "tokenclock-metrics/1";
    public static final int RECORD_FORMAT = 4;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RecordWriter()
    {
    }

    /**
     * Writes the record atomically: to a temporary file beside it, then renamed over it, so that a reader (or a run
     * killed at any moment) finds the previous version or the new one, never a torn file.
     */
    public static void write(final RunResult r, final String workloadDescription, final Path file) throws IOException
    {
        final Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, JSON.writeValueAsBytes(build(r, workloadDescription)));
        try
        {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final AtomicMoveNotSupportedException ex)
        {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    static ObjectNode build(final RunResult r, final String workloadDescription)
    {
        final RunOptions o = r.options();
        final List<String> gaps = new ArrayList<>();
        final ObjectNode root = JSON.createObjectNode();
        header(root, r);
        final JsonNode contract = o.output().contract() == null ? JSON.createObjectNode() : o.output().contract();
        root.set("model", model(r, contract.path("model"), gaps));
        root.set("runtime", runtime(r, contract.path("runtime"), gaps));
        root.set("hardware", hardware(contract.path("hardware"), gaps));
        root.set("workload", workload(r, workloadDescription, contract, gaps));
        root.set("load", load(r));
        if (r.shard() != null)
        {
            root.set("shard", ShardSection.of(r));
        }
        root.set("measurement", measurement(r).set("server_metrics", ServerMetricsReport.scraping(r)));
        root.set("report", report(r).set("server", ServerMetricsReport.window(r)));
        CostEnergyReport.addTo(root, r, gaps);
        require(gaps, r.counts().ok() > 0, "report: no measured request succeeded");
        QualitySection.gaps(r, gaps);
        final ObjectNode contractNode = root.putObject("contract");
        contractNode.put("file", o.output().contractPath() == null ? null : o.output().contractPath().toString());
        contractNode.set("declared", o.output().contract() == null ? null : o.output().contract().deepCopy());
        final ObjectNode grade = root.putObject("grade");
        grade.put("grade", gaps.isEmpty() ? "comparison-grade" : "local-debugging");
        final ArrayNode missing = grade.putArray("missing");
        gaps.forEach(missing::add);
        return root;
    }

    /** What wrote the record, which run it is, whether it is whole, and the command that made it. */
    private static void header(final ObjectNode root, final RunResult r)
    {
        root.putObject("tokenclock")
            .put("record_format", RECORD_FORMAT)
            .put("formulas_version", FORMULAS_VERSION)
            .put("version", version());
        root.put("run_id", r.target().runId());
        root.put("partial", r.partial());
        root.put("partial_reason", r.partialReason());
        root.put("started_at", r.target().startedAt().toString());
        final ArrayNode cmd = root.putArray("command");
        r.options().output().commandLine().forEach(cmd::add);
    }

    /** The {@code model} section: what was asked for and served, as declared, and how it decoded. */
    private static ObjectNode model(final RunResult r, final JsonNode declared, final List<String> gaps)
    {
        final RunOptions o = r.options();
        final ObjectNode model = JSON.createObjectNode();
        model.put("name", r.target().model());
        final ArrayNode served = model.putArray("served_models");
        r.target().server().modelIds().forEach(served::add);
        model.put("revision", text(declared, "revision"));
        model.put("tokenizer", r.provenance().tokenizerId());
        model.put("tokenizer_sha256", r.provenance().tokenizerSha256());
        if (declared.has("context_limit"))
        {
            model.put("context_limit", declared.get("context_limit").asLong());
        }
        else
        {
            model.putNull("context_limit");
        }
        require(gaps, declared.has("revision"), "model.revision (contract: model.revision)");
        require(gaps, o.model().tokenizer() != null, "model.tokenizer (contract: model.tokenizer, or --tokenizer)");
        require(gaps, declared.has("context_limit"), "model.context_limit (contract: model.context_limit)");
        final ObjectNode decoding = model.putObject("decoding");
        decoding.put("max_tokens", o.workload().outputLengths() == null ? (Integer)o.model().maxTokens() : null);
        decoding.put("ignore_eos", o.model().ignoreEos());
        decoding.put("temperature", o.model().temperature());
        decoding.put("extra_body", o.model().extraBody());
        return model;
    }

    /** The {@code runtime} section: the endpoint, what the server said of itself, and what the contract declared. */
    private static ObjectNode runtime(final RunResult r, final JsonNode declared, final List<String> gaps)
    {
        final ObjectNode runtime = JSON.createObjectNode();
        runtime.put("endpoint", r.target().endpoint().shownCompletionUrl());
        runtime.put("api", r.target().endpoint().api().name().toLowerCase(Locale.ROOT));
        final ObjectNode engineHeaders = runtime.putObject("server_headers");
        r.target().server().engineHeaders().forEach(engineHeaders::put);
        runtime.set("models_response", r.target().server().modelsResponse());
        runtime.set("declared", declared.isMissingNode() ? null : declared.deepCopy());
        require(gaps, declared.has("engine") && declared.has("version") && declared.has("precision"),
            "runtime.declared engine, version and precision (contract: runtime)");
        return runtime;
    }

    /** The {@code hardware} section: the client machine as read, the server's as declared. */
    private static ObjectNode hardware(final JsonNode declared, final List<String> gaps)
    {
        final ObjectNode hardware = JSON.createObjectNode();
        hardware.set("client", JSON.valueToTree(EnvironmentCapture.client()));
        hardware.set("client_gpus", JSON.valueToTree(EnvironmentCapture.gpus()));
        hardware.set("server_declared", declared.isMissingNode() ? null : declared.deepCopy());
        require(gaps, declared.has("accelerators"),
            "hardware.server_declared accelerators (contract: hardware.accelerators)");
        return hardware;
    }

    /** The {@code workload} section: what was sent, its hash, and what counts as success. */
    private static ObjectNode workload(
        final RunResult r, final String description, final JsonNode contract, final List<String> gaps)
    {
        final RunOptions.Workload w = r.options().workload();
        final ObjectNode workload = JSON.createObjectNode();
        workload.put("prompts", description);
        workload.set("input_tokens", declared(w.inputLengths()));
        workload.set("output_tokens", declared(w.outputLengths()));
        workload.put("correlation", w.lengthCorrelation());
        workload.put("seed", w.seed());
        workload.put("hash", r.provenance().hash());
        workload.put("hash_requests", r.provenance().requests());
        workload.put("prompt_token_residuals", r.provenance().residualRequests());
        final String success = contract.path("quality").path("success").asText(null);
        workload.put("success_criterion", success);
        workload.put("cancellation", w.cancelRate() > 0 ? new CancellationRule(w.cancelRate(), w.cancelAfterMs(),
            w.cancelAfterTokens(), w.seed()).describe() : null);
        require(gaps, success != null, "workload.success_criterion (contract: quality.success)");
        return workload;
    }

    private static ObjectNode load(final RunResult r)
    {
        final RunOptions o = r.options();
        final ObjectNode load = JSON.createObjectNode();
        load.put("mode", o.closedLoop() ? "closed" : "open");
        load.put("scenario", o.load().scenario() == null ? null : o.load().scenario().flagValue());
        load.put("min_samples_for", o.load().minSamplesFor() == null ? null : o.load().minSamplesFor().label());
        load.put("concurrency", o.load().concurrency());
        load.put("rate_per_s", o.load().rate());
        load.put("arrival", o.closedLoop() ? null : o.load().arrival().name().toLowerCase(Locale.ROOT));
        load.put("burstiness", o.closedLoop() ? null : o.load().burstiness());
        load.put("max_in_flight", o.maxInFlight());
        load.put("requests", o.load().requests());
        load.put("duration_s", o.load().durationS());
        load.put("warmup_requests", o.state().warmupRequests());
        load.put("warmup_duration_s", o.state().warmupDurationS());
        final var schedule = o.rateSchedule();
        load.put("rate_schedule", schedule == null ? null : schedule.describe());
        load.put("seed", o.workload().seed());
        load.put("schedule_hash", r.provenance().scheduleHash());
        load.put("cache_policy", o.state().cachePolicy());
        load.put("cache_action", r.provenance().cacheAction());
        load.put("request_timeout_s", o.target().timeoutS());
        load.put("connect_timeout_s", o.target().connectTimeoutS());
        load.put("first_byte_timeout_s", o.target().firstByteTimeoutS());
        load.put("idle_timeout_s", o.target().idleTimeoutS());
        load.put("drain_timeout_s", o.load().drainTimeoutS());
        load.put("end_of_window_rule", o.load().drainTimeoutS() > 0 ?
            "grace: requests started in the window may run for up to drain_timeout_s after the last start; those " +
            "ending after the window closed are marked late (counted in report.counts.late_completions) and stay " +
            "in the metrics; any still running then are cancelled and counted as cancelled" :
            "cancel: requests still running when the last start is made are cancelled at once and counted as " +
            "cancelled");
        return load;
    }

    /**
     * The {@code measurement} section: where and how the client measured, then how the client itself behaved while
     * it did (threads, jitter, GC, CPU, readiness, JIT, safepoints, profile).
     */
    private static ObjectNode measurement(final RunResult r)
    {
        final ObjectNode m = JSON.createObjectNode();
        method(m, r);
        final RunResult.ClientHealth h = r.clientHealth();
        clientThreads(m.putObject("client_threads"), h);
        clientJitter(m.putObject("client_jitter"), h);
        clientGc(m.putObject("client_gc"), h);
        clientCost(m.putObject("client_cost"), h, r.counts().chunks());
        readiness(m.putObject("readiness"), r);
        m.putObject("client_jit").put("compilation_ms_during_load", h.jitMsDuringLoad())
            .put("method", "CompilationMXBean total compilation time (summed over compiler threads) from the start " +
                "of load to the end of the drain");
        safepoints(m.putObject("client_safepoints"), h.safepointsDuringLoad());
        if (h.profileEvent() != null)
        {
            final ObjectNode profile = m.putObject("profile");
            profile.put("mode", r.options().measurement().profile());
            profile.put("event", h.profileEvent());
            final ArrayNode files = profile.putArray("files");
            h.profileFiles().forEach(files::add);
        }
        return m;
    }

    /** The measurement boundary, the path to the server, the clock, and the rules every figure follows. */
    private static void method(final ObjectNode m, final RunResult r)
    {
        m.put("boundary", "client-side: from the client's write of the request to arrival of response bytes at the " +
            "client's socket; includes network, server queueing, prefill and decode");
        m.put("network_path", r.target().endpoint().isLoopback() ? "loopback" : "remote");
        m.put("tls", r.target().endpoint().tls() ? r.options().tlsTrust().describe() : null);
        m.set("tcp_connect_rtt", JSON.valueToTree(r.provenance().connectRtt()));
        m.put("clock", "System.nanoTime (CLOCK_MONOTONIC on Linux), one clock for all stamps, ns");
        m.put("transport", "Netty HTTP/1.1, " + r.provenance().transport() + " event loops, keep-alive, TCP_NODELAY");
        m.put("stamping", "one stamp per network read, taken before TLS/HTTP/SSE decoding; an SSE event is stamped " +
            "with the read that completed it");
        m.put("first_token_rule", "first chunk with non-empty content, reasoning_content/reasoning, or tool_calls; " +
            "role-only and usage-only chunks are not tokens");
        m.put("token_counts", "usage.completion_tokens from the server when reported (stream_options.include_usage), " +
            "else the harness's own count under the configured tokenizer, else the number of content-bearing chunks; " +
            "requests.jsonl says which per request and keeps both counts");
        m.put("formulas", "docs/METRICS.md, " + FORMULAS_VERSION);
        m.put("histograms", "HdrHistogram, values in ns, 3 significant digits");
        m.putNull("power_boundary");
    }

    /** What each of the client's threads does, and the request stage's scheduling priority. */
    private static void clientThreads(final ObjectNode n, final RunResult.ClientHealth h)
    {
        n.put("stamping", "the Netty event loop threads: read, stamp, frame SSE, publish fixed-size records, send")
            .put("collector", "one thread: drains the ring, rebuilds chunk timelines, frees permits")
            .put("request_stage", "one thread: token counts, metrics, histograms, requests.jsonl (flushed within " +
                RequestStage.FLUSH_INTERVAL_NS / 1_000_000 + " ms)")
            .put("request_stage_priority", h.stagePriority());
    }

    private static void clientJitter(final ObjectNode jitter, final RunResult.ClientHealth h)
    {
        jitter.put("method", "a thread asks to wake every " + h.hiccupIntervalNs() / 1_000_000.0 + " ms and records " +
            "how late it woke (jHiccup-style); covers the whole run, warmup and drain included");
        distribution(jitter.putObject("lateness"), h.hiccupsMs());
    }

    private static void clientGc(final ObjectNode gc, final RunResult.ClientHealth h)
    {
        final ArrayNode collectors = gc.putArray("collectors");
        h.gcCollectors().forEach(collectors::add);
        gc.put("collections", h.gcCount());
        gc.put("total_ms", h.gcTotalMs());
        gc.put("max_ms", h.gcMaxMs());
    }

    /** The client's CPU time over the load, in all and per chunk, and its peak heap. */
    private static void clientCost(final ObjectNode cost, final RunResult.ClientHealth h, final long chunks)
    {
        cost.put("method", (h.cpu().split() ? "process CPU from /proc/self/stat (utime, stime; 10 ms ticks)" :
            "process CPU from the JVM's process CPU clock (user and system not told apart: all counted as user)") +
            ", every thread of the process including those that ended, from the start of load (after the " +
            "self-warm-up and pre-connection) to the end of the drain; includes an embedded simulator when there is " +
            "one");
        cost.put("cpu_user_s", h.cpuUserNs() / 1e9).put("cpu_system_s", h.cpuSystemNs() / 1e9);
        cost.put("cpu_user_us_per_chunk", chunks > 0 ? h.cpuUserNs() / 1e3 / chunks : 0);
        cost.put("cpu_system_us_per_chunk", chunks > 0 ? h.cpuSystemNs() / 1e3 / chunks : 0);
        cost.put("peak_heap_bytes", h.peakHeapBytes());
    }

    /** What the client did before t0 to be ready, and how long the server took to be. */
    private static void readiness(final ObjectNode ready, final RunResult r)
    {
        final ReadinessReport rd = r.clientHealth().readiness();
        ready.put("self_warmup_requests", rd.warmupRequests());
        ready.put("self_warmup_chunks", rd.warmupChunks());
        ready.put("self_warmup_s", rd.warmupS());
        ready.put("self_warmup_jit_ms", rd.jitMsInWarmup());
        ready.put("preconnected", rd.preconnected());
        ready.put("preconnect_s", rd.preconnectS());
        ready.put("gc_before_t0_ms", rd.gcBeforeT0Ms());
        ready.put("compiler_threads_idle", rd.compilerThreadsIdle());
        ready.put("wait_ready_s", r.options().target().waitReadyS());
        ready.put("server_probes", r.target().server().probes());
        ready.put("server_ready_after_s", r.target().server().probes() == 0 ? null : r.target().server().readyAfterS());
    }

    /** The time every thread stood still at safepoints during load, or nulls saying why it is not known. */
    private static void safepoints(final ObjectNode safepoints, final SafepointCounters.Reading sp)
    {
        if (sp == null)
        {
            safepoints.putNull("count").putNull("total_ms").putNull("sync_ms");
            safepoints.put("method", "unavailable: the JVM's performance-data file (hsperfdata) could not be read");
        }
        else
        {
            safepoints.put("count", sp.safepoints()).put("total_ms", sp.totalNs() / 1e6)
                .put("sync_ms", sp.syncNs() / 1e6);
            safepoints.put("method", "HotSpot's sun.rt.safepoints, sun.rt.safepointTime and " +
                "sun.rt.safepointSyncTime (read from its hsperfdata memory) from the start of load to the end of " +
                "the drain; every Java thread, the stamping thread included, is stopped for total_ms; GC pauses are " +
                "among them");
        }
    }

    /** The {@code report} section: what the measured requests gave, in all, per segment and per task. */
    private static ObjectNode report(final RunResult r)
    {
        final ObjectNode rep = JSON.createObjectNode();
        final ObjectNode window = rep.putObject("window");
        window.put("start_ns", r.window().startNs());
        window.put("end_ns", r.window().endNs());
        window.put("duration_s", r.windowSeconds());
        window.put("wall_s", r.window().wallSeconds());
        counts(rep.putObject("counts"), r);
        final ObjectNode errors = rep.putObject("errors_by_class");
        for (final Map.Entry<String, Long> e : r.counts().errorsByClass().entrySet())
        {
            errors.put(e.getKey(), e.getValue());
        }
        final ObjectNode throughput = rep.putObject("throughput");
        final double w = r.windowSeconds();
        throughput.put("requests_per_s", Formulas.rate(r.counts().ok(), w));
        throughput.put("output_tokens_per_s", Formulas.rate(r.counts().outputTokens(), w));
        throughput.put("input_tokens_per_s", Formulas.rate(r.counts().inputTokens(), w));
        distributions(rep.putObject("distributions"), r.distributions());
        final ArrayNode tail = rep.putArray("tail_warnings");
        TailWarnings.of(r.distributions()).forEach(tail::add);
        rep.set("cold_start", coldStart(r.coldStart()));
        rep.set("tasks", tasks(r.tasks(), w));
        segments(rep.putObject("segments"), r.groups(), r.options().quality().rule().judgesOutputs());
        final ObjectNode harness = rep.putObject("harness");
        harness.put("ring_full_waits", r.counts().ringFullWaits());
        harness.put("clamped_values", r.counts().clampedValues());
        rep.set("goodput", GoodputSection.json(r));
        rep.set("quality", QualitySection.json(r));
        rep.set("repetitions", repetitions(r.options().state()));
        return rep;
    }

    /** Every measured request and what it carried, by outcome. */
    private static void counts(final ObjectNode counts, final RunResult r)
    {
        final RunResult.Counts c = r.counts();
        counts.put("measured", c.total());
        counts.put("ok", c.ok());
        counts.put("error", c.errors());
        counts.put("cancelled", c.cancelled());
        counts.put("warmup", c.warmupRequests());
        counts.put("chunks_all_phases", c.chunks());
        counts.put("output_tokens", c.outputTokens());
        counts.put("input_tokens", c.inputTokens());
        counts.put("cancelled_output_tokens", c.wastedOutputTokens());
        counts.put("late_completions", c.lateCompletions());
        counts.put("truncated", c.truncated());
        counts.put("retries_429", c.retries429());
        final long limited = c.errorsByClass().getOrDefault("http_429", 0L);
        counts.put("http_429_per_s", Formulas.rate(limited, r.windowSeconds()));
    }

    /** @return the cold-start request's figures, or null when there was none. */
    private static ObjectNode coldStart(final RunResult.ColdStart cold)
    {
        if (cold == null)
        {
            return null;
        }
        return JSON.createObjectNode().put("status", cold.status()).put("error", cold.error())
            .put("ttft_ms", cold.ttftMs()).put("tpot_ms", cold.tpotMs()).put("e2e_ms", cold.e2eMs())
            .put("output_tokens", cold.outputTokens());
    }

    /** @return the agent tasks' outcomes and timings over a window of {@code windowS} seconds, or null if none ran. */
    private static ObjectNode tasks(final AgentWorkload.Report tasks, final double windowS)
    {
        if (tasks == null)
        {
            return null;
        }
        final ObjectNode t = JSON.createObjectNode();
        t.put("tasks", tasks.tasks()).put("succeeded", tasks.succeeded())
            .put("failed_requests", tasks.failedRequests()).put("step_limited", tasks.stepLimited());
        t.put("success_rate", tasks.tasks() > 0 ? (double)tasks.succeeded() / tasks.tasks() : 0);
        t.put("tasks_per_s", Formulas.rate(tasks.tasks(), windowS));
        distribution(t.putObject("task_latency"), Distribution.of(tasks.latencyMs(), "ms", 1));
        distribution(t.putObject("steps"), Distribution.of(tasks.steps(), "steps", 1));
        t.put("model_time_s", tasks.modelSeconds()).put("tool_time_s", tasks.toolSeconds());
        t.put("retries", tasks.retries());
        return t;
    }

    /** One member per segment (or stage): its counts, rates over its own window, goodput, and distributions. */
    private static void segments(
        final ObjectNode groups, final List<RunResult.GroupResult> results, final boolean judgesOutputs)
    {
        for (final RunResult.GroupResult g : results)
        {
            final ObjectNode n = groups.putObject(g.name());
            n.put("ok", g.ok()).put("error", g.errors()).put("cancelled", g.cancelled());
            n.put("output_tokens", g.outputTokens()).put("input_tokens", g.inputTokens());
            n.put("window_s", g.windowSeconds());
            n.put("requests_per_s", Formulas.rate(g.ok(), g.windowSeconds()));
            n.put("output_tokens_per_s", Formulas.rate(g.outputTokens(), g.windowSeconds()));
            GoodputSection.group(n, g, judgesOutputs);
            distributions(n.putObject("distributions"), g.distributions());
        }
    }

    /** @return which repetition this run is and where their spread is, or null for a single run. */
    private static ObjectNode repetitions(final RunOptions.State state)
    {
        if (state.repetitions() <= 1)
        {
            return null;
        }
        return JSON.createObjectNode().put("index", state.repetitionIndex()).put("of", state.repetitions())
            .put("summary", "../repetitions.json");
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
    public static void putDistributions(final ObjectNode report, final Map<Metric, Distribution> distributions)
    {
        distributions(report.putObject("distributions"), distributions);
        final ArrayNode tail = report.putArray("tail_warnings");
        TailWarnings.of(distributions).forEach(tail::add);
    }

    /** One member per metric; a server-reported one only when the server reported it (see docs/RESULTS.md). */
    private static void distributions(final ObjectNode n, final Map<Metric, Distribution> distributions)
    {
        for (final Map.Entry<Metric, Distribution> e : distributions.entrySet())
        {
            if (!e.getKey().serverReported() || e.getValue().count() > 0)
            {
                distribution(n.putObject(e.getKey().key()), e.getValue());
            }
        }
    }

    private static void distribution(final ObjectNode n, final Distribution d)
    {
        n.put("unit", d.unit());
        n.put("count", d.count());
        if (d.count() > 0)
        {
            n.put("min", d.min()).put("mean", d.mean()).put("stdev", d.stdev()).put("p50", d.p50())
                .put("p90", d.p90()).put("p95", d.p95()).put("p99", d.p99()).put("p99_9", d.p999())
                .put("max", d.max());
            interval(n.putArray("p99_ci95"), d.p99Low(), d.p99High());
            interval(n.putArray("p99_9_ci95"), d.p999Low(), d.p999High());
        }
    }

    /** Writes [low, high] with null for a side the samples cannot bound. */
    private static void interval(final ArrayNode a, final double low, final double high)
    {
        if (Double.isNaN(low))
        {
            a.addNull();
        }
        else
        {
            a.add(low);
        }
        if (Double.isNaN(high))
        {
            a.addNull();
        }
        else
        {
            a.add(high);
        }
    }

    static String version()
    {
        final String v = RecordWriter.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }
}
