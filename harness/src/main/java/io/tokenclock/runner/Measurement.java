package io.tokenclock.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.clock.WallClock;
import io.tokenclock.config.RunOptions;
import io.tokenclock.config.ShardSpec;
import io.tokenclock.energy.EnergyMeasurement;
import io.tokenclock.goodput.GoodputBook;
import io.tokenclock.goodput.GoodputCounts;
import io.tokenclock.goodput.GroupStats;
import io.tokenclock.goodput.Slo;
import io.tokenclock.load.LoadGenerator;
import io.tokenclock.metrics.Counter;
import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.quality.QualityReport;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.Collector;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestListener;
import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.RequestStage;
import io.tokenclock.recording.SlotPool;
import io.tokenclock.report.HistogramLogs;
import io.tokenclock.report.ProgressLine;
import io.tokenclock.report.RecordWriter;
import io.tokenclock.report.RequestsJsonlWriter;
import io.tokenclock.run.AnswerText;
import io.tokenclock.run.ReadinessReport;
import io.tokenclock.run.RunResult;
import io.tokenclock.run.ShardInfo;
import io.tokenclock.results.Index;
import io.tokenclock.results.Kind;
import io.tokenclock.transport.StreamClient;
import io.tokenclock.workload.AgentWorkload;
import io.tokenclock.workload.TraceWorkload;

/**
 * The measured phase of one run: wires the core around the client (slot pool, collector, request stage, load
 * generator, health monitors), opens the window, supervises it until every request has ended, and assembles the
 * {@link RunResult}. One instance per window: the run's, or one of the self-warm-up's rehearsals ({@link SelfWarmup},
 * which plays them all on one client). {@link #close()} releases the request log, the scrapers and the monitors; the
 * client belongs to whoever opened it.
 * <p>
 * Threads: the load generator, the client's event loops, the collector and the request stage each run on their own;
 * the calling thread supervises (samples histograms, draws progress, applies the drain and grace deadlines).
 */
final class Measurement implements AutoCloseable, RequestListener
{
    private static final long PROGRESS_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /** How long requests may take to end after {@link StreamClient#cancelAll()} before the run gives up on them. */
    private static final long CANCEL_WAIT_NS = TimeUnit.SECONDS.toNanos(10);

    private final RunOptions options;
    private final NanoClock clock;
    private final Preparation.Prepared prep;
    private final RunResult.Target target;
    private final StreamClient client;
    private final ReadinessReport ready;
    private final Interruption interruption;
    private final Monitors monitors;
    private final SlotPool pool;
    private final MetricRecorders recorders = new MetricRecorders();
    private final GroupStats[] groups;
    private final RequestsJsonlWriter jsonl;
    /** The JFR recording of {@code --jfr-events}, or null. */
    private final RequestRecording jfr;
    private final LoadGenerator generator;
    private final Collector collector;
    private final RequestStage stage;
    private final ServerTelemetry server;
    private final PowerTelemetry power;
    private final long wallStartNs;
    private final GoodputBook goodput;
    private final QualityPhase quality;
    private final long wallMinusMonotonicNs;
    private final Map<String, String> clockSync;
    private QualityReport qualityReport;
    private String refused;

    private volatile RunResult.ColdStart coldStart;
    private volatile EnergyMeasurement energy;
    private volatile Throwable generatorFailure;
    private volatile String stagePriority = BackgroundPriority.NORMAL;

    /** Wires the run around the client, which stays open after {@link #close()}. */
    Measurement(
        final RunOptions options, final NanoClock clock, final Preparation.Prepared prep,
        final RunResult.Target target, final StreamClient client, final ReadinessReport ready,
        final Interruption interruption, final PrintStream err) throws IOException
    {
        this.options = options;
        this.clock = clock;
        this.prep = prep;
        this.target = target;
        this.client = client;
        this.ready = ready;
        this.interruption = interruption;
        this.groups = RunShape.groupNames(options, prep.workload()).stream()
            .map(name -> new GroupStats(name, RunShape.sloFor(options, name))).toArray(GroupStats[]::new);
        this.pool = new SlotPool(options.maxInFlight());
        this.wallStartNs = clock.nanoTime();
        this.jsonl = new RequestsJsonlWriter(target.outputDir().resolve("requests.jsonl"), options.output().saveText(),
            target.endpoint().api());
        this.jfr = options.output().jfrEvents() ? RequestRecording.start(target.outputDir()) : null;
        if (options.load().sticky() && options.load().users() != null)
        {
            client.stickyUsers(options.load().users());
        }
        this.generator = prep.workload().driver(RunShape.plan(options, prep.workload()), clock, pool, client::submit);
        generator.coldStart(options.state().coldStart()).stripe(options.shard().stripe());
        this.wallMinusMonotonicNs = WallClock.wallMinusMonotonicNs();
        this.clockSync = options.shard().sharded() || options.shard().startAt() != null ? ClockSync.read() : Map.of();
        if (options.shard().startAt() != null)
        {
            generator.startAt(WallClock.epochNs(options.shard().startAt()) - wallMinusMonotonicNs);
        }
        Workloads.connectTools(options, prep.workload(), generator);
        this.collector = new Collector(client.records(), pool, recorders, this, groups);
        this.goodput = options.quality().goodput() ? new GoodputBook(options.quality().slo(),
            Arrays.stream(groups).map(GroupStats::slo).toArray(Slo[]::new), options.quality().rule().judgesOutputs()) :
            null;
        this.quality = new QualityPhase(options, prep.workload());
        collector.windowClose(generator::windowCloseNs).goodput(goodput).acceptTruncated(
            options.quality().acceptTruncated());
        if (options.model().tokenizer() != null)
        {
            collector.tokenCounter(slot -> prep.tokenizer().count(
                AnswerText.decode(slot.text.array(), slot.text.length()) +
                AnswerText.decode(slot.reasoning.array(), slot.reasoning.length())));
        }
        this.stage = collector.stageOnOwnThread();
        this.server = ServerTelemetry.open(options, clock, target.outputDir(), generator::measureStartNs);
        this.power = PowerTelemetry.open(options, clock, target.outputDir());
        this.monitors = Monitors.start(options, client.stamping().kernel(), target.outputDir(), err);
        generator.onWindowOpen(monitors::windowOpened); // the JIT's time in the window alone
    }

    /**
     * Runs the window: starts the threads, writes the first record, lets the generator go, supervises until every
     * request has ended (or the drain and grace deadlines passed), and stops the threads.
     *
     * @return the CPU, JIT and safepoint figures of the window.
     */
    Monitors.InLoad measure(final PrintStream err) throws IOException, InterruptedException
    {
        final Thread stageThread = startStage();
        final Thread collectorThread = daemon(collector, "tokenclock-collector");
        collectorThread.start();
        final Thread generatorThread = daemon(generator, "tokenclock-load");
        generatorThread.setUncaughtExceptionHandler((t, ex) -> generatorFailure = ex);
        // A record exists from the window's first moment: what a kill -9 leaves beside requests.jsonl. It is
        // written before the window's CPU is read, since no request is in flight yet: the first record a JVM writes
        // runs Jackson cold, 65 us per chunk of a one-stream window's 400-500 (results/client-cpu). The self-warm-up's
        // rehearsals write theirs too (into their own directory), so that the measured run's is not the first.
        writeRecord(result(monitors.inLoadSince(monitors.atLoadStart()), 0, null, BenchmarkRunner.IN_PROGRESS));
        final Monitors.AtLoadStart start = monitors.atLoadStart();
        if (interruption.requested())
        {
            generator.stop(); // stopped before the window opened: no request starts
        }
        refuseLateStart();
        server.start();
        power.start();
        generatorThread.start();
        final ProgressLine progress = options.output().progress() ? new ProgressLine(err, options) : null;
        new Supervisor(options, clock, interruption, generator, pool, client, collector, recorders, groups, progress)
            .untilDrained(PROGRESS_INTERVAL_NS, CANCEL_WAIT_NS);
        monitors.beforeStopping();
        generatorThread.join(TimeUnit.SECONDS.toMillis(5));
        if (generatorFailure != null)
        {
            throw new IllegalStateException("the load generator failed: " + generatorFailure);
        }
        collector.close();
        collectorThread.join(TimeUnit.SECONDS.toMillis(10));
        stage.close();
        stageThread.join(TimeUnit.SECONDS.toMillis(10));
        generator.settle(); // the turns that ended in the drain, for the sessions' and tasks' figures
        server.stop();
        power.stop();
        energy = power.measure(collector.windowStartNs(), collector.windowEndNs());
        final Monitors.InLoad inLoad = monitors.inLoadSince(start);
        recorders.sample();
        Supervisor.sampleGroups(groups);
        if (progress != null)
        {
            progress.finish();
        }
        return inLoad;
    }

    /**
     * A shard that is ready only after its common start plus the tolerance refuses to run: started late, it would
     * replay its part of the schedule late, out of step with the other shards. Its record says so, and the merge
     * names it.
     *
     * @throws LateStartException after writing that record.
     */
    private void refuseLateStart() throws IOException
    {
        final Instant startAt = options.shard().startAt();
        if (startAt == null)
        {
            return;
        }
        final long lateNs = clock.nanoTime() + wallMinusMonotonicNs - WallClock.epochNs(startAt);
        if (lateNs <= (long)(options.shard().startToleranceS() * 1e9))
        {
            return;
        }
        refused = String.format(Locale.ROOT, "shard %s was ready %.3f s after its start time %s, later " +
            "than the tolerance of %.3f s: it refused to run (a late shard would replay its schedule late)",
            options.shard().stripe(), lateNs / 1e9, startAt, options.shard().startToleranceS());
        writeRecord(result(monitors.inLoadSince(monitors.atLoadStart()), 0, null, refused));
        throw new LateStartException(refused);
    }

    /** Writes one HdrHistogram log per metric of the run's API beside the record ({@link HistogramLogs}). */
    void writeHistograms() throws IOException
    {
        HistogramLogs.write(target.outputDir(), recorders, collector.windowStartNs(), collector.windowEndNs(),
            wallMinusMonotonicNs, target.runId(), target.endpoint().api().streamed());
    }

    /** @return the run's final result: what the window measured, and the client's health over it. */
    RunResult result(final Monitors.InLoad inLoad, final double wallSeconds, final String partialReason)
    {
        return result(inLoad, wallSeconds, prep.workload() instanceof AgentWorkload agents ?
            AgentTasks.judged(agents.report(), qualityReport == null ? null : quality) : null, partialReason);
    }

    private RunResult result(
        final Monitors.InLoad inLoad, final double wallSeconds, final AgentWorkload.Report tasks,
        final String partialReason)
    {
        return new RunResult(options, target, counts(), new RunResult.Window(collector.windowStartNs(),
            collector.windowEndNs(), wallSeconds), distributions(recorders, options), monitors.health(inLoad, ready,
            stagePriority), provenance(), groupResults(), coldStart, tasks, partialReason,
            server.summary(collector.windowStartNs(), collector.windowEndNs()), goodput(tasks), qualityReport, energy,
            shardInfo(), prep.host(),
            prep.workload() instanceof TraceWorkload trace ? trace.report() : null);
    }

    /**
     * @return the run's goodput: in tasks for an agent run (its tasks' final answers judged), else in requests; null
     * when the run reports none.
     */
    private GoodputCounts goodput(final AgentWorkload.Report tasks)
    {
        if (goodput == null)
        {
            return null;
        }
        return tasks != null ? AgentTasks.goodput(tasks, qualityReport == null ? null : quality) : goodput.overall();
    }

    /** @return the shard's part and start, or null for a run that is neither sharded nor started at a set time. */
    private ShardInfo shardInfo()
    {
        final ShardSpec s = options.shard();
        if (!s.sharded() && s.startAt() == null)
        {
            return null;
        }
        return new ShardInfo(s.stripe().index(), s.stripe().count(), s.startAt(), s.startToleranceS(),
            wallMinusMonotonicNs, generator.startLatenessNs(), clockSync, refused);
    }

    /**
     * After the window and the stage: judges the kept outputs under the quality rule, settles goodput, and writes the
     * verdicts into requests.jsonl (closed by then).
     */
    void judgeQuality(final PrintStream err) throws IOException, InterruptedException
    {
        qualityReport = quality.judge(goodput, target.outputDir().resolve("requests.jsonl"), interruption, err);
    }

    /** @return seconds since the wiring, the run's wall time so far. */
    double wallSeconds()
    {
        return (clock.nanoTime() - wallStartNs) / 1e9;
    }

    void writeRecord(final RunResult result) throws IOException
    {
        RecordWriter.write(result, prep.workload().describe(), target.outputDir().resolve("record.json"));
        Index.write(target.outputDir(), Kind.RUN, List.of());
    }

    @Override
    public void onRequestComplete(final RequestSlot slot, final RequestMetrics m)
    {
        jsonl.onRequestComplete(slot, m);
        if (jfr != null)
        {
            jfr.onRequestComplete(slot, m);
        }
        quality.onRequestComplete(slot, m);
        if (slot.phase == RequestSlot.PHASE_COLD)
        {
            coldStart = new RunResult.ColdStart(slot.status == RequestSlot.STATUS_OK ? "ok" : "error",
                slot.errorClass.label(), m.ttftNs / 1e6, m.tpotNs / 1e6, m.e2eNs / 1e6, m.outputTokens);
        }
        if (slot.user >= 0)
        {
            generator.onUserTurnEnded(slot.user, TurnResults.of(slot));
        }
    }

    @Override
    public void flush()
    {
        jsonl.flush();
    }

    @Override
    public void close() throws IOException
    {
        try (jsonl; server; power)
        {
            monitors.close();
        }
        finally
        {
            if (jfr != null)
            {
                jfr.close();
            }
        }
    }

    private RunResult.Counts counts()
    {
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
        final ChunkRecords records = client.records();
        final Map<Counter, Long> v = new EnumMap<>(Counter.class);
        v.put(Counter.OK, c.get(Collector.MEASURED_OK));
        v.put(Counter.ERRORS, c.get(Collector.MEASURED_ERROR));
        v.put(Counter.CANCELLED, c.get(Collector.MEASURED_CANCELLED));
        v.put(Counter.WARMUP_REQUESTS, c.get(Collector.WARMUP_DONE));
        v.put(Counter.CHUNKS, c.get(Collector.CHUNKS));
        v.put(Counter.OUTPUT_TOKENS, c.get(Collector.MEASURED_OUTPUT_TOKENS));
        v.put(Counter.INPUT_TOKENS, c.get(Collector.MEASURED_INPUT_TOKENS));
        v.put(Counter.INPUTS, c.get(Collector.MEASURED_INPUTS));
        v.put(Counter.WASTED_OUTPUT_TOKENS, c.get(Collector.MEASURED_WASTED_TOKENS));
        v.put(Counter.LATE_COMPLETIONS, c.get(Collector.MEASURED_LATE));
        v.put(Counter.TRUNCATED, c.get(Collector.MEASURED_TRUNCATED));
        v.put(Counter.RETRIES_429, c.get(Collector.MEASURED_RETRIES_429));
        v.put(Counter.STALE_CONNECTION_RESENDS, c.get(Collector.MEASURED_STALE_RESENDS));
        v.put(Counter.UNKNOWN_EVENTS, c.get(Collector.MEASURED_UNKNOWN_EVENTS));
        v.put(Counter.RING_FULL_WAITS, records.fullWaits());
        v.put(Counter.CLAMPED_VALUES, recorders.clampedCount());
        v.put(Counter.WASTED_INPUT_TOKENS, c.get(Collector.MEASURED_WASTED_INPUT_TOKENS));
        v.put(Counter.FAILED_OUTPUT_TOKENS, c.get(Collector.MEASURED_FAILED_OUTPUT_TOKENS));
        v.put(Counter.WASTED_INPUT_TOKENS_FROM_TOKENIZER, c.get(Collector.MEASURED_WASTED_INPUT_TOKENS_TOKENIZER));
        v.put(Counter.CACHED_TOKENS, c.get(Collector.MEASURED_CACHED_TOKENS));
        v.put(Counter.CACHE_REPORTING_REQUESTS, c.get(Collector.MEASURED_CACHE_REPORTING));
        v.put(Counter.CACHE_REPORTING_INPUT_TOKENS, c.get(Collector.MEASURED_CACHE_REPORTING_INPUT_TOKENS));
        v.put(Counter.IDEAL_CACHED_TOKENS, c.get(Collector.MEASURED_IDEAL_CACHED_TOKENS));
        v.put(Counter.IDEAL_INPUT_TOKENS, c.get(Collector.MEASURED_IDEAL_INPUT_TOKENS));
        v.put(Counter.ENGINE_DRAFT_TOKENS, c.get(Collector.MEASURED_ENGINE_DRAFT_TOKENS));
        v.put(Counter.ENGINE_DRAFT_ACCEPTED, c.get(Collector.MEASURED_ENGINE_DRAFT_ACCEPTED));
        return new RunResult.Counts(v, errors);
    }

    private RunResult.Provenance provenance()
    {
        return new RunResult.Provenance(prep.workload().hash(), generator.scheduleHash(), prep.workload().requests(),
            prep.workload().residualRequests(), prep.tokenizer().fileSha256(), prep.tokenizer().id(),
            prep.cacheAction(), prep.networkRtt(), client.transport(), client.stamping(),
            prep.workload().imagesSent(), prep.workload().imageBytesSent());
    }

    private List<RunResult.GroupResult> groupResults()
    {
        final List<RunResult.GroupResult> results = new ArrayList<>();
        for (int k = 0; k < groups.length; k++)
        {
            final GroupStats g = groups[k];
            results.add(new RunResult.GroupResult(g.name(), g.ok(), g.errors(), g.cancelled(), g.outputTokens(),
                g.inputTokens(), g.windowSeconds(), distributions(g.recorders()), g.slo(),
                goodput == null ? null : goodput.group(k)));
        }
        return results;
    }

    private static Map<Metric, Distribution> distributions(final MetricRecorders recorders)
    {
        final Map<Metric, Distribution> d = new EnumMap<>(Metric.class);
        for (final Metric m : Metric.values())
        {
            d.put(m, Distribution.of(recorders.total(m), m));
        }
        return d;
    }

    /** The run's distributions, each with the interval of the percentile its request count was sized for. */
    private static Map<Metric, Distribution> distributions(final MetricRecorders recorders, final RunOptions o)
    {
        final var sized = o.load().minSamplesFor();
        final Map<Metric, Distribution> d = new EnumMap<>(Metric.class);
        for (final Metric m : Metric.values())
        {
            d.put(m, sized == null ? Distribution.of(recorders.total(m), m) :
                Distribution.of(recorders.total(m), m, sized.label(), sized.quantile()));
        }
        return d;
    }

    /**
     * Starts the request stage on its own thread, lowered to the idle scheduling class ({@link BackgroundPriority})
     * before it takes its first request; waits for that, so no process is spawned inside the measured window.
     */
    private Thread startStage() throws InterruptedException
    {
        final CountDownLatch lowered = new CountDownLatch(1);
        final Thread thread = daemon(() ->
        {
            stagePriority = BackgroundPriority.lowerCurrentThread();
            lowered.countDown();
            stage.run();
        }, "tokenclock-requests");
        thread.start();
        lowered.await(5, TimeUnit.SECONDS);
        return thread;
    }

    /** A daemon thread of the window, which reads its own CPU as it ends ({@link Monitors#countingItsCpu}). */
    private Thread daemon(final Runnable body, final String name)
    {
        final Thread thread = new Thread(monitors.countingItsCpu(body), name);
        thread.setDaemon(true);
        return thread;
    }
}
