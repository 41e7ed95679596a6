package io.tokenclock.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.EnumMap;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.load.ArrivalProcess;
import io.tokenclock.load.LoadGenerator;
import io.tokenclock.load.LoadPlan;
import io.tokenclock.load.RateSchedule;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.GcPauseMonitor;
import io.tokenclock.metrics.HiccupMonitor;
import io.tokenclock.metrics.ProcessUsage;
import io.tokenclock.metrics.SafepointCounters;
import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.Collector;
import io.tokenclock.recording.RequestListener;
import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestStage;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.GroupStats;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.Slo;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.report.EnvironmentCapture;
import io.tokenclock.report.ProgressLine;
import io.tokenclock.report.RecordWriter;
import io.tokenclock.report.RequestsJsonlWriter;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.transport.StreamingClient;
import io.tokenclock.workload.RequestBodyFactory;
import io.tokenclock.workload.Workload;
import io.tokenclock.workload.WorkloadGenerator;
import io.tokenclock.workload.tokenizer.Tokenizer;
import io.tokenclock.workload.tokenizer.Tokenizers;

/**
 * Runs one benchmark: probes the server, wires load generator, Netty client, ring buffer and collector around one
 * clock, shows progress, drains, and writes {@code requests.jsonl} and {@code record.json}.
 * <p>
 * Threads: the load generator (its own), the client's event loops (stamping and framing), the collector (chunk
 * timelines, permits), the request stage (metrics and requests.jsonl, at idle priority), and the calling thread,
 * which samples histograms for the progress line and assembles the result.
 */
public final class BenchmarkRunner
{
    /** A run directory holding one of these already holds a run, and is not overwritten without {@code --force}. */
    private static final List<String> RUN_FILES = List.of("record.json", "requests.jsonl");

    private Interruption interruption = Interruption.NONE;

    /** Ring capacity: 4 MiB holds 131,072 chunk records, seconds of headroom at any rate this client can reach. */
    private static final int RING_BYTES = 4 * 1024 * 1024;
    private static final long PROGRESS_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /** The hiccup monitor asks to wake every millisecond, as jHiccup does. */
    private static final long HICCUP_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final NanoClock clock;

    public BenchmarkRunner()
    {
        this(SystemNanoClock.INSTANCE);
    }

    public BenchmarkRunner(final NanoClock clock)
    {
        this.clock = clock;
    }

    /** The longest wait for pre-opened connections before the run starts anyway. */
    private static final long PRECONNECT_TIMEOUT_MS = 10_000;

    /**
     * Runs the benchmark described by {@code options} (already validated).
     *
     * @param err where the live progress line goes (only when {@code options.progress}).
     * @throws ServerProbe.UnreachableException when the server cannot be used at all.
     */
    /** Lets Ctrl-C and SIGTERM stop this runner's runs gracefully ({@link Interruption}); none by default. */
    public BenchmarkRunner interruptedBy(final Interruption signals)
    {
        this.interruption = signals;
        return this;
    }

    public RunResult run(final RunOptions options, final PrintStream err)
        throws ServerProbe.UnreachableException, IOException, InterruptedException
    {
        if (options.outputDir != null)
        {
            refuseExistingRun(options.outputDir, options);
        }
        if (!options.selfWarmupRun)
        {
            // Open loop without --max-concurrency: the connections it expects (a latency of 1 s before the probe).
            DescriptorLimit.check(options.closedLoop() || options.users != null || options.maxConcurrency != null ?
                options.maxInFlight() : Readiness.expectedConcurrency(options, Double.NaN));
        }
        final Endpoint endpoint = Endpoint.parse(options.url, options.api);
        final Map<String, String> headers = requestHeaders(options, endpoint);
        final ServerProbe probe = new ServerProbe(endpoint, headers, options.limits(), options.tlsTrust());
        final long readyDeadlineNs = System.nanoTime() + (long)(options.waitReadyS * 1e9);
        ServerProbe.Info server = options.preflight ? probe.modelsWhenReady(readyDeadlineNs, err) :
            ServerProbe.Info.NONE;
        final String model = options.model != null ? options.model : servedModel(server, endpoint, options);
        final boolean chat = endpoint.api() == Endpoint.Api.CHAT;
        final var extraBody = RequestBodyFactory.parseExtraBody(options.extraBody);
        final Tokenizer tokenizer = Workloads.tokenizer(options);
        final Workload workload = Workloads.generator(options, endpoint, model, tokenizer);
        if (options.preflight)
        {
            final RequestBodyFactory tiny = new RequestBodyFactory(chat, model, 4, false, options.temperature,
                extraBody);
            server = probe.preflightWhenReady(server, tiny.body("Say hello."), readyDeadlineNs, err);
        }
        final Map<String, Object> networkRtt = EnvironmentCapture.connectRtt(endpoint.host(), endpoint.port(), 20);
        String cacheAction = "flush".equals(options.cachePolicy) ?
            probe.flush(options.flushUrl, options.flushMethod) : null;
        if ("preload".equals(options.cachePolicy) && workload instanceof WorkloadGenerator synthetic)
        {
            final RequestBodyFactory one = new RequestBodyFactory(chat, model, 1, false, options.temperature,
                extraBody);
            final long startNs = System.nanoTime();
            final List<String> prompts = synthetic.preloadPrompts();
            for (final String prompt : prompts)
            {
                probe.preflight(server, one.body(prompt));
            }
            cacheAction = String.format(java.util.Locale.ROOT, "preloaded %d shared prefixes in %.2f s (one " +
                "max_tokens=1 request each, before warmup, not measured)", prompts.size(),
                (System.nanoTime() - startNs) / 1e9);
        }

        final long[] warm = options.selfWarmup ? Readiness.warmHarness(options, err, interruption) : new long[4];
        final Instant startedAt = Instant.now();
        final String runId = options.runId != null ? options.runId : "run-" +
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(startedAt);
        final Path outputDir = options.outputDir != null ? options.outputDir : Path.of("results", runId);
        refuseExistingRun(outputDir, options);
        Files.createDirectories(outputDir);

        final StreamingClient client = new StreamingClient(endpoint, clock, new ChunkRecords(RING_BYTES), headers,
            options.maxInFlight(), options.ioThreads, options.limits(), options.busyPoll, options.tlsTrust());
        final Readiness.Report ready = readyBeforeT0(options, client, server.preflightMs(), warm);
        final HiccupMonitor hiccups = new HiccupMonitor(HICCUP_INTERVAL_NS).start();
        final GcPauseMonitor gc = new GcPauseMonitor();
        final ProcessUsage usage = new ProcessUsage();
        final ProfilerSession profiler = options.profile == null ? null : ProfilerSession.start(options.profile,
            options.profileOut != null ? options.profileOut : outputDir, err);
        final ChunkRecords records = client.records();
        final GroupStats[] groups = groupNames(options, workload).stream()
            .map(name -> new GroupStats(name, sloFor(options, name))).toArray(GroupStats[]::new);
        final SlotPool pool = new SlotPool(options.maxInFlight());
        final MetricRecorders recorders = new MetricRecorders();
        final long wallStartNs = clock.nanoTime();
        final Collector collector;
        final LoadGenerator generator;
        final RunResult.ColdStart[] cold = new RunResult.ColdStart[1];
        final String[] transport = new String[1];
        final String[] stagePriority = {BackgroundPriority.NORMAL};
        final ProcessUsage.CpuTimes cpuAtLoadStart;
        final long jitMsAtLoadStart;
        final ProcessUsage.CpuTimes cpuInLoad;
        final long jitMsInLoad;
        final SafepointCounters safepoints = SafepointCounters.open();
        final SafepointCounters.Reading safepointsAtLoadStart;
        final SafepointCounters.Reading safepointsInLoad;
        try (client; RequestsJsonlWriter jsonl = new RequestsJsonlWriter(outputDir.resolve("requests.jsonl"),
            options.saveText))
        {
            transport[0] = client.transport();
            if (options.sticky && options.users != null)
            {
                client.stickyUsers(options.users);
            }
            generator = LoadGenerator.of(plan(options, workload), clock, pool, workload, client::submit);
            generator.coldStart(options.coldStart);
            if (workload instanceof io.tokenclock.workload.AgentWorkload agents && options.agent != null &&
                options.agent.has("tool_command"))
            {
                final List<String> command = new java.util.ArrayList<>();
                options.agent.get("tool_command").forEach(part -> command.add(part.asText()));
                agents.toolCommand(command, (long)(options.agent.path("tool_timeout_ms").asDouble(30_000) * 1e6),
                    generator::onUserTurnEnded);
            }
            final LoadGenerator load = generator;
            collector = new Collector(records, pool, recorders, new RequestListener()
            {
                @Override
                public void onRequestComplete(final RequestSlot slot, final RequestMetrics m)
                {
                    jsonl.onRequestComplete(slot, m);
                    if (slot.phase == RequestSlot.PHASE_COLD)
                    {
                        cold[0] = new RunResult.ColdStart(slot.status == RequestSlot.STATUS_OK ? "ok" : "error",
                            slot.errorClass.label(), m.ttftNs / 1e6, m.tpotNs / 1e6, m.e2eNs / 1e6, m.outputTokens);
                    }
                    if (slot.user >= 0)
                    {
                        load.onUserTurnEnded(slot.user, TurnResults.of(slot));
                    }
                }

                @Override
                public void flush()
                {
                    jsonl.flush();
                }
            }, groups);
            collector.windowClose(generator::windowCloseNs).slo(options.slo)
                .acceptTruncated(options.acceptTruncated);
            if (options.tokenizer != null)
            {
                collector.tokenCounter(slot -> tokenizer.count(
                    RequestsJsonlWriter.decodeRaw(slot.text, slot.textLength) +
                    RequestsJsonlWriter.decodeRaw(slot.reasoning, slot.reasoningLength)));
            }
            final RequestStage stage = collector.stageOnOwnThread();
            final Thread stageThread = startStage(stage, stagePriority);
            final Thread collectorThread = new Thread(collector, "tokenclock-collector");
            collectorThread.setDaemon(true);
            collectorThread.start();

            final Thread generatorThread = new Thread(generator, "tokenclock-load");
            generatorThread.setDaemon(true);
            final Throwable[] generatorFailure = new Throwable[1];
            generatorThread.setUncaughtExceptionHandler((t, ex) -> generatorFailure[0] = ex);
            cpuAtLoadStart = ProcessUsage.cpuNow();
            jitMsAtLoadStart = Readiness.compilationMs();
            safepointsAtLoadStart = safepoints == null ? null : safepoints.now();
            if (!options.selfWarmupRun)
            {
                // A record exists from the window's first moment: what a kill -9 leaves beside requests.jsonl.
                final RunResult.ClientHealth none = health(hiccups, gc, profiler, ProcessUsage.cpuNow()
                    .since(cpuAtLoadStart), usage, ready, 0, null, stagePriority[0]);
                RecordWriter.write(result(options, endpoint, model, server, runId, outputDir, startedAt, 0,
                    recorders, collector, records, none, provenance(workload, generator, tokenizer, cacheAction,
                    networkRtt, transport[0]), groups, null, null, IN_PROGRESS), workload.describe(),
                    outputDir.resolve("record.json"));
            }
            if (interruption.requested())
            {
                generator.stop(); // stopped before the window opened: no request starts
            }
            generatorThread.start();

            final ProgressLine progress = options.progress ? new ProgressLine(err, options) : null;
            superviseUntilDrained(options, generator, pool, client, collector, recorders, groups, progress);
            generatorThread.join(TimeUnit.SECONDS.toMillis(5));
            if (generatorFailure[0] != null)
            {
                throw new IllegalStateException("the load generator failed: " + generatorFailure[0]);
            }
            collector.close();
            collectorThread.join(TimeUnit.SECONDS.toMillis(10));
            stage.close();
            stageThread.join(TimeUnit.SECONDS.toMillis(10));
            cpuInLoad = ProcessUsage.cpuNow().since(cpuAtLoadStart);
            jitMsInLoad = Readiness.compilationMs() - jitMsAtLoadStart;
            safepointsInLoad = safepoints == null ? null : safepoints.now().since(safepointsAtLoadStart);
            recorders.sample();
            sampleGroups(groups);
            if (progress != null)
            {
                progress.finish();
            }
        }

        final double wallSeconds = (clock.nanoTime() - wallStartNs) / 1e9;
        if (profiler != null)
        {
            profiler.close();
        }
        hiccups.close();
        gc.close();
        final RunResult.ClientHealth health = health(hiccups, gc, profiler, cpuInLoad, usage, ready, jitMsInLoad,
            safepointsInLoad, stagePriority[0]);
        Tokenizers.closeQuietly(tokenizer);
        final RunResult result = result(options, endpoint, model, server, runId, outputDir, startedAt, wallSeconds,
            recorders, collector, records, health, provenance(workload, generator, tokenizer, cacheAction,
            networkRtt, transport[0]), groups, cold[0],
            workload instanceof io.tokenclock.workload.AgentWorkload agents ? agents.report() : null,
            interruption.requested() ? interruptedReason(options) : null);
        if (!options.selfWarmupRun)
        {
            RecordWriter.write(result, workload.describe(), outputDir.resolve("record.json"));
        }
        return result;
    }

    /**
     * Starts the request stage on its own thread, lowered to the idle scheduling class ({@link BackgroundPriority})
     * before it takes its first request; waits for that, so no process is spawned inside the measured window.
     *
     * @param priority receives what the stage runs at.
     */
    private static Thread startStage(final RequestStage stage, final String[] priority) throws InterruptedException
    {
        final CountDownLatch lowered = new CountDownLatch(1);
        final Thread thread = new Thread(() ->
        {
            priority[0] = BackgroundPriority.lowerCurrentThread();
            lowered.countDown();
            stage.run();
        }, "tokenclock-requests");
        thread.setDaemon(true);
        thread.start();
        lowered.await(5, TimeUnit.SECONDS);
        return thread;
    }

    /** {@code partial_reason} of the record written when the window opens, replaced at the end. */
    static final String IN_PROGRESS = "the run was in progress: this record was written when the measured window " +
        "opened and is replaced when the run ends; requests.jsonl holds every request that finished";

    private String interruptedReason(final RunOptions options)
    {
        return String.format(java.util.Locale.ROOT, "interrupted by %s: no request was started after it; requests " +
            "in flight had %.0f s (--grace) to finish, the rest were cancelled", interruption.signalName(),
            options.graceS);
    }

    /**
     * @return the first model the server lists, when no {@code --model} was given; otherwise says why there is none:
     * the real status and body of {@code /models} (exit 3), or an empty list (exit 2).
     */
    private static String servedModel(final ServerProbe.Info server, final Endpoint endpoint,
        final RunOptions options) throws ServerProbe.UnreachableException
    {
        if (!options.preflight)
        {
            throw new IllegalArgumentException("--model is required with --no-preflight (nothing asks the server " +
                "which models it serves)");
        }
        final int status = server.modelsStatus();
        if (status != 200)
        {
            final boolean loading = status == 502 || status == 503 || status == 504;
            throw new ServerProbe.UnreachableException("GET " + endpoint.shownModelsUrl() + " answered " + status +
                (server.modelsDetail().isEmpty() ? "" : ": " + server.modelsDetail()) + (loading ?
                    " (the server is not ready: --wait-ready S waits for it" +
                        (options.waitReadyS > 0 ? ", and " + options.waitReadyS + " s were not enough)" : ")") :
                    status == 404 ? " (is --url the API base, ending in /v1? without /models, give --model)" :
                        " (give --model to skip the listing)"));
        }
        if (server.modelIds().isEmpty())
        {
            throw new IllegalArgumentException("--model is required: " + endpoint.shownModelsUrl() + " lists no model");
        }
        return server.modelIds().get(0);
    }

    /** Refuses a directory that already holds a run's results, unless {@code --force}: no run is lost silently. */
    private static void refuseExistingRun(final Path dir, final RunOptions options)
    {
        if (options.force || options.selfWarmupRun)
        {
            return;
        }
        for (final String name : RUN_FILES)
        {
            if (Files.exists(dir.resolve(name)))
            {
                throw new IllegalArgumentException(dir + " already holds a run (" + name + "): choose another " +
                    "--output-dir or --run-id, or pass --force to replace it");
            }
        }
    }

    private static RunResult.ClientHealth health(
        final HiccupMonitor hiccups, final GcPauseMonitor gc, final ProfilerSession profiler,
        final ProcessUsage.CpuTimes cpu, final ProcessUsage usage, final Readiness.Report ready, final long jitMs,
        final SafepointCounters.Reading safepoints, final String stagePriority)
    {
        return new RunResult.ClientHealth(Distribution.of(hiccups.snapshot(), "ms", 1e6), hiccups.intervalNs(),
            gc.count(), gc.totalMs(), gc.maxMs(), gc.collectors(), profiler == null ? null : profiler.event(),
            profiler == null ? List.of() : profiler.files(), cpu, usage.peakHeapBytes(), ready, jitMs, safepoints,
            stagePriority);
    }

    private static RunResult.Provenance provenance(
        final Workload workload, final LoadGenerator generator, final Tokenizer tokenizer, final String cacheAction,
        final Map<String, Object> networkRtt, final String transport)
    {
        return new RunResult.Provenance(workload.hash(), generator.scheduleHash(), workload.requests(),
            workload.residualRequests(), tokenizer.fileSha256(), tokenizer.id(), cacheAction, networkRtt, transport);
    }

    /**
     * Pre-connects and collects before t0 ({@link Readiness}); closes the client if that fails.
     *
     * @param warm the self-warm-up's {requests, chunks, ns, JIT ms}.
     */
    private static Readiness.Report readyBeforeT0(
        final RunOptions options, final StreamingClient client, final double preflightMs, final long[] warm)
        throws InterruptedException
    {
        try
        {
            final long startNs = System.nanoTime();
            final int preconnected = options.selfWarmupRun ? 0 :
                client.preconnect(Readiness.expectedConcurrency(options, preflightMs), PRECONNECT_TIMEOUT_MS);
            final double preconnectS = (System.nanoTime() - startNs) / 1e9;
            // Only after a self-warm-up: without one, the JIT's work is still ahead, and starving it would leave the
            // stamping path interpreted for longer.
            final int compilersIdle = options.selfWarmupRun || warm[0] == 0 ? 0 :
                BackgroundPriority.lowerCompilerThreads();
            final double gcMs = options.selfWarmupRun ? 0 : Readiness.collectNow();
            return new Readiness.Report(warm[0], warm[1], warm[2] / 1e9, warm[3], preconnected, preconnectS, gcMs,
                compilersIdle);
        }
        catch (final InterruptedException | RuntimeException ex)
        {
            client.close();
            throw ex;
        }
    }

    private void superviseUntilDrained(
        final RunOptions options, final LoadGenerator generator, final SlotPool pool, final StreamingClient client,
        final Collector collector, final MetricRecorders recorders, final GroupStats[] groups,
        final ProgressLine progress) throws InterruptedException
    {
        long drainDeadlineNs = 0;
        boolean cancelled = false;
        long cancelDeadlineNs = 0;
        long graceDeadlineNs = 0;
        while (true)
        {
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(PROGRESS_INTERVAL_NS));
            recorders.sample();
            sampleGroups(groups);
            final long now = clock.nanoTime();
            if (progress != null)
            {
                progress.update(now, generator, pool, collector, recorders);
            }
            if (graceDeadlineNs == 0 && interruption.requested())
            {
                generator.stop();
                graceDeadlineNs = now + (long)(options.graceS * 1e9);
            }
            if (!generator.isFinished())
            {
                continue;
            }
            if (pool.inUse() == 0)
            {
                return;
            }
            if (drainDeadlineNs == 0)
            {
                drainDeadlineNs = now + (long)(options.drainTimeoutS * 1e9);
            }
            if (graceDeadlineNs != 0)
            {
                drainDeadlineNs = Math.min(drainDeadlineNs, graceDeadlineNs);
            }
            if (!cancelled && now >= drainDeadlineNs)
            {
                client.cancelAll();
                cancelled = true;
                cancelDeadlineNs = now + TimeUnit.SECONDS.toNanos(10);
            }
            if (cancelled && now >= cancelDeadlineNs)
            {
                return;
            }
        }
    }

    private static void sampleGroups(final GroupStats[] groups)
    {
        for (final GroupStats g : groups)
        {
            g.recorders().sample();
        }
    }

    /** @return the load plan of these options (public so that a replay rebuilds exactly the same schedule). */
    public static LoadPlan plan(final RunOptions o, final Workload workload)
    {
        final boolean closed = o.closedLoop();
        final RateSchedule schedule = rateSchedule(o);
        final ArrivalProcess arrivals = closed || o.fixedSchedule || o.users != null ? null :
            ArrivalProcess.of(o.arrival, schedule != null ? 1.0 : o.rate, o.burstiness, o.seed);
        return new LoadPlan(closed, closed ? o.concurrency : 0, arrivals, o.maxInFlight(),
            o.requests == null ? 0 : o.requests,
            schedule == null && o.durationS != null ? (long)(o.durationS * 1e9) : 0,
            o.warmupRequests, (long)(o.warmupDurationS * 1e9), o.fixedSchedule ? workload.traceOffsetsNs() : null,
            schedule, Math.max(1, workload.groupNames().size()), o.users == null ? 0 : o.users,
            o.concurrencyStages);
    }

    /** @return the open loop's ramp and stages, or null for a constant rate. */
    public static RateSchedule rateSchedule(final RunOptions o)
    {
        if (o.closedLoop() || o.fixedSchedule || (o.ramp == null && o.stages.isEmpty()))
        {
            return null;
        }
        final List<RateSchedule.Stage> stages = !o.stages.isEmpty() ? o.stages :
            List.of(new RateSchedule.Stage(o.rate, o.durationS));
        return new RateSchedule(o.ramp, stages);
    }

    /** @return the SLO of a group: its segment's own when declared, else the run's. */
    static Slo sloFor(final RunOptions o, final String groupName)
    {
        if (o.segments != null)
        {
            for (final com.fasterxml.jackson.databind.JsonNode s : o.segments)
            {
                final String name = s.path("name").asText();
                if ((groupName.equals(name) || groupName.endsWith(" / " + name)) && s.has("slo"))
                {
                    final com.fasterxml.jackson.databind.JsonNode slo = s.get("slo");
                    return Slo.ofMillis(number(slo, "ttft_ms"), number(slo, "tpot_ms"), number(slo, "e2e_ms"));
                }
            }
        }
        return o.slo;
    }

    private static Double number(final com.fasterxml.jackson.databind.JsonNode node, final String field)
    {
        return node.hasNonNull(field) ? node.get(field).asDouble() : null;
    }

    /** @return the names of the run's groups: stages x segments, or whichever of the two there is. */
    static List<String> groupNames(final RunOptions o, final Workload workload)
    {
        final RateSchedule schedule = rateSchedule(o);
        final List<String> segments = workload.groupNames();
        final List<String> stageNames = o.concurrencyStages != null ? o.concurrencyStages.stageNames() :
            schedule != null ? schedule.stageNames() : List.of();
        if (stageNames.size() < 2)
        {
            return segments;
        }
        final List<String> names = new java.util.ArrayList<>();
        for (final String stage : stageNames)
        {
            if (segments.isEmpty())
            {
                names.add(stage);
            }
            for (final String segment : segments)
            {
                names.add(stage + " / " + segment);
            }
        }
        return names;
    }

    /**
     * Extra headers plus one Authorization, if none was given: Basic from the URL's user information when it has
     * some (the most explicit), else the bearer token from the API key's environment variable, if set. Credentials
     * never leave this map.
     */
    static Map<String, String> requestHeaders(final RunOptions o, final Endpoint endpoint)
    {
        final Map<String, String> headers = new LinkedHashMap<>(o.headers);
        if (headers.keySet().stream().anyMatch(h -> h.equalsIgnoreCase("authorization")))
        {
            return headers;
        }
        final String key = o.apiKeyEnv == null ? null : System.getenv(o.apiKeyEnv);
        if (endpoint.userInfo() != null)
        {
            headers.put("authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
                endpoint.decodedUserInfo().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        else if (key != null && !key.isBlank())
        {
            headers.put("authorization", "Bearer " + key.strip());
        }
        return headers;
    }

    private static RunResult result(
        final RunOptions options, final Endpoint endpoint, final String model, final ServerProbe.Info server,
        final String runId, final Path outputDir, final Instant startedAt, final double wallSeconds,
        final MetricRecorders recorders, final Collector collector, final ChunkRecords records,
        final RunResult.ClientHealth health, final RunResult.Provenance provenance, final GroupStats[] groups,
        final RunResult.ColdStart cold, final io.tokenclock.workload.AgentWorkload.Report tasks,
        final String partialReason)
    {
        final java.util.List<RunResult.GroupResult> groupResults = new java.util.ArrayList<>();
        for (final GroupStats g : groups)
        {
            final Map<Metric, Distribution> d = new EnumMap<>(Metric.class);
            for (final Metric m : Metric.values())
            {
                d.put(m, Distribution.of(g.recorders().total(m), m));
            }
            groupResults.add(new RunResult.GroupResult(g.name(), g.ok(), g.errors(), g.cancelled(), g.outputTokens(),
                g.inputTokens(), g.windowSeconds(), d, g.slo(), g.good()));
        }
        final Map<Metric, Distribution> distributions = new EnumMap<>(Metric.class);
        for (final Metric m : Metric.values())
        {
            distributions.put(m, Distribution.of(recorders.total(m), m));
        }
        final AtomicLongArray c = collector.counters();
        final Map<String, Long> errors = new LinkedHashMap<>();
        final AtomicLongArray byClass = collector.errorsByClass();
        for (int i = 0; i < byClass.length(); i++)
        {
            if (byClass.get(i) > 0)
            {
                errors.put(ErrorClass.of(i).label(), byClass.get(i));
            }
        }
        return new RunResult(options, endpoint, model, server, runId, outputDir, startedAt, wallSeconds,
            distributions, c.get(Collector.MEASURED_OK), c.get(Collector.MEASURED_ERROR),
            c.get(Collector.MEASURED_CANCELLED), c.get(Collector.WARMUP_DONE), c.get(Collector.CHUNKS),
            c.get(Collector.MEASURED_OUTPUT_TOKENS), c.get(Collector.MEASURED_INPUT_TOKENS),
            c.get(Collector.MEASURED_WASTED_TOKENS), c.get(Collector.MEASURED_LATE), c.get(Collector.MEASURED_GOOD),
            c.get(Collector.MEASURED_TRUNCATED), c.get(Collector.MEASURED_RETRIES_429),
            errors,
            collector.windowStartNs(), collector.windowEndNs(), records.fullWaits(), recorders.clampedCount(), health,
            provenance, groupResults, cold, tasks, partialReason);
    }
}
