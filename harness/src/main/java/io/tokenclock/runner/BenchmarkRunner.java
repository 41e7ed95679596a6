package io.tokenclock.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.config.RunOptions;
import io.tokenclock.health.AotCache;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.report.CsvFiles;
import io.tokenclock.run.ReadinessReport;
import io.tokenclock.run.RunResult;
import io.tokenclock.results.OutputDir;
import io.tokenclock.results.Results;
import io.tokenclock.transport.ClientSettings;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.transport.PacketTapChoice;
import io.tokenclock.transport.StreamClient;
import io.tokenclock.transport.StreamClients;
import io.tokenclock.workload.tokenizer.Tokenizers;

/**
 * Runs one benchmark, in phases:
 * <ol>
 * <li><b>prepare</b> ({@link Preparation}): endpoint, probe and model list, workload, preflight, round trips, cache
 * policy;</li>
 * <li><b>warm up</b> ({@link Readiness#warmHarness}): the self-warm-up's rehearsals against the embedded simulator,
 * on a client of their own ({@link SelfWarmup}), never the server;</li>
 * <li><b>ready</b> ({@link Readiness}): the run directory, pre-opened connections, a collection;</li>
 * <li><b>measure</b> ({@link Measurement}): wire the core, open the window, supervise it until drained;</li>
 * <li><b>finish</b>: the result and {@code record.json}.</li>
 * </ol>
 * Threads: the load generator (its own), the client's event loops (stamping and framing), the collector (chunk
 * timelines, permits), the request stage (metrics and requests.jsonl, at idle priority), and the calling thread,
 * which samples histograms for the progress line and assembles the result.
 */
public final class BenchmarkRunner
{
    /**
     * Ring capacity: 4 MiB holds 131,072 chunk records, about 130 ms of chunks at a million a second (1,000 streams
     * at 1 ms ITL); a full ring makes the I/O thread wait (counted in {@code ChunkRecords.fullWaits}), never drop.
     */
    private static final int RING_BYTES = 4 * 1024 * 1024;
    /** The longest wait for pre-opened connections before the run starts anyway. */
    static final long PRECONNECT_TIMEOUT_MS = 10_000;

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
        interruption.preparing();
        final Preparation.Prepared prep;
        final Readiness.Warmup warm;
        try
        {
            prep = prepare(options, err);
            checkDescriptors(options, prep.server().preflightMs());
            warm = options.state().selfWarmup() ? Readiness.warmHarness(options, prep.host(), err, interruption) :
                Readiness.Warmup.NONE;
        }
        catch (final ServerProbe.UnreachableException | IOException | RuntimeException ex)
        {
            interruption.stopIfSignalledBeforeWindow(); // a signal, not the server, ended the preparation
            throw ex;
        }
        final RunResult.Target target = target(options, prep);
        final StreamClient client = openClient(options, prep.endpoint(), prep.headers(), clock, err::println);
        final ReadinessReport ready = readyBeforeT0(options, client, prep.server().preflightMs(), warm);
        final Measurement measurement = wire(options, prep, target, client, ready, err);
        final Monitors.InLoad inLoad;
        try (client; measurement)
        {
            interruption.windowOpens();
            inLoad = measurement.measure(err);
        }
        Tokenizers.closeQuietly(prep.tokenizer());
        measurement.judgeQuality(err);
        final RunResult result = measurement.result(inLoad, measurement.wallSeconds(),
            interruption.requested() ? interruptedReason(options) : null);
        measurement.writeRecord(result);
        csv(target.outputDir(), err);
        measurement.writeHistograms();
        return result;
    }

    /**
     * Opens the client of a run, or of the self-warm-up's phase ({@link SelfWarmup}), with a ring of its own.
     *
     * @param notes where the client's stamping lines go (why kernel stamps cannot be had, a first fallback read).
     */
    static StreamClient openClient(
        final RunOptions options, final Endpoint endpoint, final Map<String, String> headers, final NanoClock clock,
        final Consumer<String> notes)
    {
        return StreamClients.open(new ClientSettings(endpoint, clock, new ChunkRecords(RING_BYTES), headers,
            options.maxInFlight(), options.measurement().ioThreads(), options.limits(),
            options.measurement().busyPoll(), options.tlsTrust(), options.measurement().stamping(),
            PacketTapChoice.parse(options.measurement().packetTap())), notes);
    }

    /**
     * The preparation; a server that refused the configuration at the preflight leaves its refusal in the run
     * directory ({@link Refusal}), and the one line says where.
     */
    private static Preparation.Prepared prepare(final RunOptions options, final PrintStream err)
        throws ServerProbe.UnreachableException, IOException
    {
        try
        {
            return Preparation.prepare(options, err);
        }
        catch (final ServerProbe.UnreachableException ex)
        {
            if (ex.refusal() == null)
            {
                throw ex;
            }
            final String runId = runId(options, Instant.now());
            final Path file = ex.refusal().write(outputDir(options, runId), runId, ex.getMessage());
            throw new ServerProbe.UnreachableException(ex.getMessage() + " (recorded in " + file + ")", false,
                ex.refusal());
        }
    }

    private static String runId(final RunOptions options, final Instant startedAt)
    {
        return options.output().runId() != null ? options.output().runId() : "run-" +
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(startedAt);
    }

    private static Path outputDir(final RunOptions options, final String runId)
    {
        return options.output().outputDir() != null ? options.output().outputDir() : Path.of("results", runId);
    }

    /** requests.csv and summary.csv beside the JSON files; a failure is one line, never the run's failure. */
    private static void csv(final Path dir, final PrintStream err)
    {
        try
        {
            CsvFiles.writeRun(dir);
        }
        catch (final IOException | RuntimeException ex)
        {
            err.println("tokenclock: requests.csv, summary.csv not written: " + ex.getMessage());
        }
    }

    /** @return the measurement wired around the client; the client is closed if wiring fails. */
    private Measurement wire(
        final RunOptions options, final Preparation.Prepared prep, final RunResult.Target target,
        final StreamClient client, final ReadinessReport ready, final PrintStream err) throws IOException
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
        if (!openLoopWithoutCap(options))
        {
            DescriptorLimit.check(options.maxInFlight(), null);
        }
    }

    private static boolean openLoopWithoutCap(final RunOptions options)
    {
        return !options.closedLoop() && options.load().users() == null && options.load().maxConcurrency() == null;
    }

    /**
     * An open loop without {@code --max-concurrency} holds as many connections as requests in flight: the rate times
     * the expected request time, which only the probe can tell. Checked after the preflight, before anything else.
     */
    private static void checkDescriptors(final RunOptions options, final double preflightMs)
    {
        if (openLoopWithoutCap(options))
        {
            final double e2eS = Readiness.expectedE2eS(options, preflightMs);
            DescriptorLimit.check(Readiness.inFlight(options, e2eS), String.format(Locale.ROOT, "--rate %s x %.1f " +
                "s expected per request%s", trim(options.peakRate()), e2eS, Double.isNaN(preflightMs) ?
                " (assumed: no preflight)" : " (from the preflight)"));
        }
    }

    private static String trim(final double value)
    {
        return value == Math.rint(value) ? Long.toString((long)value) : Double.toString(value);
    }

    /** @return the run's identity and directory, created; refused if it already holds a run. */
    private static RunResult.Target target(final RunOptions options, final Preparation.Prepared prep)
        throws IOException
    {
        final Instant startedAt = Instant.now();
        final String runId = runId(options, startedAt);
        final Path outputDir = outputDir(options, runId);
        refuseExistingRun(outputDir, options);
        Files.createDirectories(outputDir);
        Files.deleteIfExists(outputDir.resolve(Refusal.FILE)); // an earlier refusal does not describe this run
        // nor does an earlier record (--force): stopped before its own is written, the directory reads as no result
        Files.deleteIfExists(outputDir.resolve(Results.RECORD));
        return new RunResult.Target(prep.endpoint(), prep.model(), prep.server(), runId, outputDir, startedAt);
    }

    private String interruptedReason(final RunOptions options)
    {
        return String.format(Locale.ROOT, "interrupted by %s: no request was started after it; requests in flight " +
            "had %.0f s (--grace) to finish, the rest were cancelled", interruption.signalName(),
                options.load().graceS());
    }

    /** Refuses a directory that already holds a result, unless {@code --force}: no run is lost silently. */
    private static void refuseExistingRun(final Path dir, final RunOptions options)
    {
        OutputDir.refuseExisting(dir, options.output().force(), "--output-dir or --run-id");
    }

    /**
     * Pre-connects and collects before t0 ({@link Readiness}); closes the client if that fails.
     *
     * @param warm what the self-warm-up did ({@link Readiness.Warmup#NONE} without one).
     */
    private ReadinessReport readyBeforeT0(
        final RunOptions options, final StreamClient client, final double preflightMs, final Readiness.Warmup warm)
        throws InterruptedException
    {
        try
        {
            final long startNs = System.nanoTime();
            final int preconnected =
                client.preconnect(Readiness.expectedConcurrency(options, preflightMs), PRECONNECT_TIMEOUT_MS);
            final double preconnectS = (System.nanoTime() - startNs) / 1e9;
            final double gcMs = Readiness.collectNow();
            // Only after a self-warm-up: without one, the JIT's work is still ahead, and waiting for it, or starving
            // it, would leave the stamping path interpreted for longer.
            final boolean afterWarmup = warm.ran();
            final double drainMs = afterWarmup ? Readiness.awaitIdleCompilerThreads() : 0;
            final int compilersIdle = afterWarmup ? BackgroundPriority.lowerCompilerThreads() : 0;
            return new ReadinessReport(warm.requests(), warm.chunks(), warm.ns() / 1e9, warm.jitMs(), preconnected,
                preconnectS, gcMs, drainMs, compilersIdle, AotCache.current().word());
        }
        catch (final InterruptedException | RuntimeException ex)
        {
            client.close();
            interruption.stopIfSignalledBeforeWindow();
            throw ex;
        }
    }
}
