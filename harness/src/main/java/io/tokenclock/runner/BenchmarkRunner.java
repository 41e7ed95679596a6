package io.tokenclock.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.config.RunOptions;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.result.ReadinessReport;
import io.tokenclock.result.RunResult;
import io.tokenclock.transport.StreamingClient;
import io.tokenclock.workload.tokenizer.Tokenizers;

/**
 * Runs one benchmark, in phases:
 * <ol>
 * <li><b>prepare</b> ({@link Preparation}): endpoint, probe and model list, workload, preflight, round trips, cache
 * policy;</li>
 * <li><b>ready</b> ({@link Readiness}): the self-warm-up, the run directory, pre-opened connections, a collection;</li>
 * <li><b>measure</b> ({@link Measurement}): wire the core, open the window, supervise it until drained;</li>
 * <li><b>finish</b>: the result and {@code record.json}.</li>
 * </ol>
 * Threads: the load generator (its own), the client's event loops (stamping and framing), the collector (chunk
 * timelines, permits), the request stage (metrics and requests.jsonl, at idle priority), and the calling thread,
 * which samples histograms for the progress line and assembles the result.
 */
public final class BenchmarkRunner
{
    /** A run directory holding one of these already holds a run, and is not overwritten without {@code --force}. */
    private static final List<String> RUN_FILES = List.of("record.json", "requests.jsonl");
    /** Ring capacity: 4 MiB holds 131,072 chunk records, seconds of headroom at any rate this client can reach. */
    private static final int RING_BYTES = 4 * 1024 * 1024;
    /** The longest wait for pre-opened connections before the run starts anyway. */
    private static final long PRECONNECT_TIMEOUT_MS = 10_000;

    /** {@code partial_reason} of the record written when the window opens, replaced at the end. */
    static final String IN_PROGRESS = "the run was in progress: this record was written when the measured window " +
        "opened and is replaced when the run ends; requests.jsonl holds every request that finished";

    private final NanoClock clock;
    private Interruption interruption = Interruption.NONE;

    public BenchmarkRunner()
    {
        this(SystemNanoClock.INSTANCE);
    }

    public BenchmarkRunner(final NanoClock clock)
    {
        this.clock = clock;
    }

    /** Lets Ctrl-C and SIGTERM stop this runner's runs gracefully ({@link Interruption}); none by default. */
    public BenchmarkRunner interruptedBy(final Interruption signals)
    {
        this.interruption = signals;
        return this;
    }

    /**
     * Runs the benchmark described by {@code options} (already validated).
     *
     * @param err where messages and the live progress line go (the line only when {@code options.output().progress()}).
     * @throws ServerProbe.UnreachableException when the server cannot be used at all.
     */
    public RunResult run(final RunOptions options, final PrintStream err)
        throws ServerProbe.UnreachableException, IOException, InterruptedException
    {
        checkBeforeStart(options);
        final Preparation.Prepared prep = Preparation.prepare(options, err);
        final long[] warm = options.state().selfWarmup() ? Readiness.warmHarness(options, err, interruption) :
            new long[4];
        final RunResult.Target target = target(options, prep);
        final StreamingClient client = new StreamingClient(prep.endpoint(), clock, new ChunkRecords(RING_BYTES),
            prep.headers(), options.maxInFlight(), options.measurement().ioThreads(), options.limits(),
                options.measurement().busyPoll(),
            options.tlsTrust());
        final ReadinessReport ready = readyBeforeT0(options, client, prep.server().preflightMs(), warm);
        final Measurement measurement = wire(options, prep, target, client, ready, err);
        final Monitors.InLoad inLoad;
        try (measurement)
        {
            inLoad = measurement.measure(err);
        }
        Tokenizers.closeQuietly(prep.tokenizer());
        measurement.judgeQuality(err);
        final RunResult result = measurement.result(inLoad, measurement.wallSeconds(),
            interruption.requested() ? interruptedReason(options) : null);
        if (!options.state().selfWarmupRun())
        {
            measurement.writeRecord(result);
            measurement.writeHistograms();
        }
        return result;
    }

    /** @return the measurement wired around the client; the client is closed if wiring fails. */
    private Measurement wire(
        final RunOptions options, final Preparation.Prepared prep, final RunResult.Target target,
        final StreamingClient client, final ReadinessReport ready, final PrintStream err) throws IOException
    {
        try
        {
            return new Measurement(options, clock, prep, target, client, ready, interruption, err);
        }
        catch (final IOException | RuntimeException ex)
        {
            client.close();
            throw ex;
        }
    }

    /** Refuses what would fail later: a run directory that holds a run, too few file descriptors. */
    private static void checkBeforeStart(final RunOptions options)
    {
        if (options.output().outputDir() != null)
        {
            refuseExistingRun(options.output().outputDir(), options);
        }
        if (!options.state().selfWarmupRun())
        {
            // Open loop without --max-concurrency: the connections it expects (a latency of 1 s before the probe).
            DescriptorLimit.check(options.closedLoop() || options.load().users() != null ||
                options.load().maxConcurrency() != null ?
                options.maxInFlight() : Readiness.expectedConcurrency(options, Double.NaN));
        }
    }

    /** @return the run's identity and directory, created; refused if it already holds a run. */
    private static RunResult.Target target(final RunOptions options, final Preparation.Prepared prep)
        throws IOException
    {
        final Instant startedAt = Instant.now();
        final String runId = options.output().runId() != null ? options.output().runId() : "run-" +
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(startedAt);
        final Path outputDir = options.output().outputDir() != null ? options.output().outputDir() : Path.of("results",
            runId);
        refuseExistingRun(outputDir, options);
        Files.createDirectories(outputDir);
        return new RunResult.Target(prep.endpoint(), prep.model(), prep.server(), runId, outputDir, startedAt);
    }

    private String interruptedReason(final RunOptions options)
    {
        return String.format(Locale.ROOT, "interrupted by %s: no request was started after it; requests in flight " +
            "had %.0f s (--grace) to finish, the rest were cancelled", interruption.signalName(),
                options.load().graceS());
    }

    /** Refuses a directory that already holds a run's results, unless {@code --force}: no run is lost silently. */
    private static void refuseExistingRun(final Path dir, final RunOptions options)
    {
        if (options.output().force() || options.state().selfWarmupRun())
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

    /**
     * Pre-connects and collects before t0 ({@link Readiness}); closes the client if that fails.
     *
     * @param warm the self-warm-up's {requests, chunks, ns, JIT ms}.
     */
    private static ReadinessReport readyBeforeT0(
        final RunOptions options, final StreamingClient client, final double preflightMs, final long[] warm)
        throws InterruptedException
    {
        try
        {
            final long startNs = System.nanoTime();
            final int preconnected = options.state().selfWarmupRun() ? 0 :
                client.preconnect(Readiness.expectedConcurrency(options, preflightMs), PRECONNECT_TIMEOUT_MS);
            final double preconnectS = (System.nanoTime() - startNs) / 1e9;
            // Only after a self-warm-up: without one, the JIT's work is still ahead, and starving it would leave the
            // stamping path interpreted for longer.
            final int compilersIdle = options.state().selfWarmupRun() || warm[0] == 0 ? 0 :
                BackgroundPriority.lowerCompilerThreads();
            final double gcMs = options.state().selfWarmupRun() ? 0 : Readiness.collectNow();
            return new ReadinessReport(warm[0], warm[1], warm[2] / 1e9, warm[3], preconnected, preconnectS, gcMs,
                compilersIdle);
        }
        catch (final InterruptedException | RuntimeException ex)
        {
            client.close();
            throw ex;
        }
    }
}
