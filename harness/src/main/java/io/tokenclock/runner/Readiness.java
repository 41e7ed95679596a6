package io.tokenclock.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import com.sun.management.HotSpotDiagnosticMXBean;

import io.tokenclock.api.Api;
import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.health.ThreadCpu;
import io.tokenclock.metrics.Counter;
import io.tokenclock.run.ClientHost;
import io.tokenclock.run.RunResult;
import io.tokenclock.transport.PacketTapChoice;

/**
 * Gets the harness ready before the schedule's origin, so that the first measured request meets a client that can
 * keep its clock: compiled, with its classes loaded, its heap collected and its connections open.
 * <ol>
 *   <li><b>Self-warm-up.</b> The harness runs its own whole request path (load generator, client, framing, ring,
 *       collector, metrics, {@code requests.jsonl} writer) against the embedded simulator on loopback, with
 *       thousands of short requests (per-request code) and long streams (per-chunk code), until the JIT has compiled
 *       them. Without it, a run's first seconds execute in the interpreter and C1, and the compilations that follow
 *       run inside the measured window on the cores the stamping thread needs: at 16 streams pinned to one core,
 *       four times the warm-up cut the delay p99 2.7-fold (../shared/notes/tail.md). It is a phase of the run
 *       ({@link SelfWarmup}: one client, its connections opened once), and each of its rehearsals rehearses the
 *       measured run ({@link #warmupOptions}): what the window runs differently from the warm-up, the JIT compiles
 *       again inside it. The server is not touched.</li>
 *   <li><b>Settling</b> ({@link #settle}): after the rounds, sweeps of short requests and back-to-back scrapes with
 *       the compiler queue drained, so that every method run once a request or once a scrape is asked about C2 while
 *       the queue is short; without them, C2 refused those methods through the whole warm-up and compiled them
 *       inside the window.</li>
 *   <li><b>Pre-connection.</b> Connections up to the expected concurrency are opened before t0: a connection opened
 *       inside the window delays its request by a TCP (and TLS) handshake, which in an open loop showed as send lag
 *       of up to a second at start. Closed loop: the concurrency. Open loop: the rate times the preflight's latency
 *       scaled to {@code max_tokens}, plus a quarter, capped by {@code --max-concurrency}; or {@code
 * --preconnect}.</li>
 *   <li><b>A full collection</b>, so that neither the warm-up's garbage nor a metaspace threshold (a 46-132 ms
 *       {@code Pause Full (Metadata GC Threshold)} was seen inside every window of a pinned run) lands in the
 *       window.</li>
 *   <li><b>The last drain</b> ({@link #awaitIdleCompilerThreads}): the compilations that the warm-up's end and the
 *       collection started finish before t0, not across it.</li>
 * </ol>
 * Cold path; not thread-safe.
 */
public final class Readiness
{
    /** One round: short requests first (per-request code), then long streams (per-chunk code). */
    static final int WARMUP_SHORT_REQUESTS = 1_500;
    static final int WARMUP_SHORT_TOKENS = 2;
    /**
     * The long streams: as long as the run's answers ({@code --max-tokens}), within these bounds, and as many as
     * make about {@link #WARMUP_LONG_CHUNKS} chunks. Why as long: with 80-token streams before 200-token answers,
     * the run was the first to grow a chunk buffer past its warm-up size, and C2 threw away
     * {@code AppendBuffer.ensureCapacity} and {@code RequestStage.recordOk} inside the window ({@code unstable_if},
     * a loop predicate; docs/OVERHEAD.md, "JIT inside the window").
     */
    static final int WARMUP_LONG_MIN_TOKENS = 80;
    static final int WARMUP_LONG_MAX_TOKENS = 512;
    static final int WARMUP_LONG_CHUNKS = 16_000;
    static final int WARMUP_LONG_MIN_REQUESTS = 32;
    static final int WARMUP_CONCURRENCY = 16;
    /** Rounds go on while the JIT compiled for more than this fraction of a round's wall time. */
    static final double QUIET_JIT_FRACTION = 0.05;
    static final int MIN_ROUNDS = 2;
    /**
     * The warm-up's rounds end after this long whatever the JIT does; the record then shows the JIT during load. The
     * cap holds inside a round too: each rehearsal starts requests only until then ({@code --duration}), at least
     * {@link #MIN_PART_NS}, and stops then, its own warm-up phase and the streams in flight included
     * ({@link #stopAt}, {@link #REHEARSAL_GRACE_S}). Why: checked only between rounds, one round under
     * {@code stress-ng --cpu 1} on the client's core took 92-119 s at 300 and 1,000 streams (issue 41), longer than the
     * run it prepared; with {@code --duration} alone, 43-48 s.
     */
    static final long MAX_WARMUP_NS = 10_000_000_000L;
    /**
     * A rehearsal starts requests for at least this long, so that the first round's long streams and the first
     * settling sweep run on a starved machine too, if only for a second.
     */
    static final long MIN_PART_NS = 1_000_000_000L;
    /**
     * The streams a rehearsal has in flight when the cap stops it ({@link SelfWarmup#rehearse}) have this long, s, then
     * are cancelled: long enough for a short request on a loaded machine, short beside the cap.
     */
    static final double REHEARSAL_GRACE_S = 1.0;
    /** Then the compiler queue drains: wait until compilation time stands still this long (bounded as above). */
    static final long QUIET_NS = 200_000_000L;
    /** Settling sweeps after the rounds ({@link #settle}): at most this many, in at most this long. */
    static final int MAX_SETTLE_SWEEPS = 4;
    static final long SETTLE_MAX_NS = 6_000_000_000L;
    /** A sweep that left less JIT than this, ms, ends the settling. */
    static final long SETTLED_JIT_MS = 20;
    /** HotSpot's default {@code Tier3InvokeNotifyFreqLog}: tier-3 code asks the policy every 2^10 calls. */
    static final int DEFAULT_NOTIFY_FREQ_LOG = 10;
    /** No pre-connection beyond this many: a run that needs more opens them as it goes, and the record says so. */
    static final int MAX_PRECONNECT = 1_024;
    /** When the run has a warm-up phase, this fraction (1/n) of each rehearsal's requests are warm-up requests. */
    static final int WARMUP_PHASE_FRACTION = 8;
    /** The self-warm-up scrapes the simulator's metrics this often (the option's floor), ms. */
    static final long SCRAPE_INTERVAL_MS = 100;
    /** The last drain ({@link #awaitIdleCompilerThreads}): compiler threads idle this long, within at most so long. */
    static final long LAST_DRAIN_QUIET_NS = 100_000_000L;
    static final long LAST_DRAIN_MAX_NS = 2_000_000_000L;
    /** Compiler threads that used less CPU than this over the quiet period count as idle. */
    static final long IDLE_COMPILER_CPU_NS = 1_000_000L;

    private Readiness()
    {
    }

    /**
     * What the self-warm-up did.
     *
     * @param requests requests it sent, all rounds.
     * @param chunks   chunks it stamped.
     * @param ns       how long it took.
     * @param jitMs    JIT compilation during it, ms.
     */
    record Warmup(long requests, long chunks, long ns, long jitMs)
    {
        /** No self-warm-up. */
        static final Warmup NONE = new Warmup(0, 0, 0, 0);

        /** @return whether it sent anything. */
        boolean ran()
        {
            return requests > 0;
        }
    }

    /** @return the embedded simulator's settings: fast and steady, so that the client, not it, sets the pace. */
    static SimConfig simConfig()
    {
        return new SimConfig().port(0).prefillBaseMs(0.2).decodeBaseMs(0.05).prefillPerInputTokenMs(0)
            .decodePerSeqMs(0).jitter(0).batchSlots(WARMUP_CONCURRENCY * 2);
    }

    /**
     * Runs the self-warm-up against an embedded simulator ({@link #simConfig}), results discarded but for their
     * counts: rounds of short and long rehearsals until the JIT is quiet, then the settling sweeps.
     *
     * @param host         the run's client machine, for the rehearsals' records.
     * @param interruption a Ctrl-C ends the warm-up after the current round.
     * @return what it did.
     */
    static Warmup warmHarness(
        final RunOptions options, final ClientHost host, final PrintStream err, final Interruption interruption)
        throws IOException
    {
        try (SimServer sim = SimServer.start(simConfig()))
        {
            return warmHarness(options, host, sim.baseUrl(), err, interruption);
        }
    }

    /** {@link #warmHarness(RunOptions, ClientHost, PrintStream, Interruption)} against the simulator at {@code url}. */
    static Warmup warmHarness(
        final RunOptions options, final ClientHost host, final String url, final PrintStream err,
        final Interruption interruption) throws IOException
    {
        final long startNs = System.nanoTime();
        final long jitStart = compilationMs();
        final Path dir = Files.createTempDirectory("tokenclock-self-warmup");
        final Tally sent = new Tally();
        try (SelfWarmup phase = new SelfWarmup(warmupOptions(options, url, WARMUP_SHORT_REQUESTS,
            WARMUP_SHORT_TOKENS, dir.resolve("connect")), host, err))
        {
            // Rounds until the JIT is quiet: on a single core, compilation lags the code it compiles, and a fixed
            // warm-up left C2 compiling the read path 3 s into the window.
            for (int round = 0; System.nanoTime() - startNs < MAX_WARMUP_NS && !interruption.requested(); round++)
            {
                final long roundStartNs = System.nanoTime();
                final long roundJitMs = compilationMs();
                for (final int[] part : new int[][] {{WARMUP_SHORT_REQUESTS, WARMUP_SHORT_TOKENS}, longPhase(options)})
                {
                    sent.add(phase.rehearse(warmupOptions(options, url, part[0], part[1],
                        dir.resolve("round-" + round + "-" + part[1]), secondsUntil(startNs + MAX_WARMUP_NS)),
                        stopAt(startNs + MAX_WARMUP_NS)));
                }
                final double roundMs = (System.nanoTime() - roundStartNs) / 1e6;
                if (round + 1 >= MIN_ROUNDS && compilationMs() - roundJitMs < QUIET_JIT_FRACTION * roundMs)
                {
                    break;
                }
            }
            settle(options, phase, dir, interruption, sent);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("the harness's self-warm-up failed: " + ex.getMessage(), ex);
        }
        finally
        {
            deleteTree(dir);
        }
        return new Warmup(sent.requests, sent.chunks, System.nanoTime() - startNs, compilationMs() - jitStart);
    }

    /** What the warm-up's rehearsals sent and stamped, over its rounds and its settling sweeps. */
    private static final class Tally
    {
        private long requests;
        private long chunks;

        void add(final RunResult r)
        {
            requests += r.counts().total();
            chunks += r.counts().get(Counter.CHUNKS);
        }
    }

    /** The run's inputs per request and rerank shape (embeddings, rerank), and its images, each where it applies. */
    private static void rehearseInputsAndImages(final RunOptions o, final RunOptionsBuilder w)
    {
        final RunOptions.Workload workload = o.workload();
        if (o.target().api().batched())
        {
            w.set(RunOption.EMBED_BATCH, workload.embedBatch());
        }
        if (o.target().api() == Api.RERANK)
        {
            w.set(RunOption.RERANK_SHAPE, workload.rerankShape());
        }
        if (workload.imageCount() > 0)
        {
            w.set(RunOption.IMAGE_COUNT, workload.imageCount());
            w.set(RunOption.IMAGE_SIZE, workload.imageSize());
            w.set(RunOption.IMAGE_FORMAT, workload.imageFormat());
        }
    }

    /** @return the long streams' {requests, tokens} for a run of {@code o}. */
    static int[] longPhase(final RunOptions o)
    {
        final int answer = o.model().maxTokens() > 0 ? o.model().maxTokens() : WARMUP_LONG_MIN_TOKENS;
        final int tokens = Math.clamp(answer, WARMUP_LONG_MIN_TOKENS, WARMUP_LONG_MAX_TOKENS);
        return new int[] {Math.max(WARMUP_LONG_MIN_REQUESTS, WARMUP_LONG_CHUNKS / tokens), tokens};
    }

    /**
     * The options of one rehearsal of the measured run against the embedded simulator ({@link SelfWarmup}; its
     * client's settings come from them too, and do not depend on {@code requests} or {@code tokens}). It sends what
     * the run will send (its API, prompt shape, seed and decoding options) and does what the run will do around its
     * requests (scrape metrics when the run scrapes, pre-connect, write the in-progress record), so that the code the
     * window runs is the code the warm-up compiled, with the profiles it will meet. Each difference cost the window
     * a deoptimisation or a late compilation (docs/OVERHEAD.md, "JIT inside the window"): the warm-up's
     * {@code ignore_eos} against the run's finish reasons, 16-token prompts against the run's 128, a connect task in
     * the event loop the warm-up never saw. Nothing of the run's target goes along: not its URL, headers or key.
     *
     * @param url      the embedded simulator's base URL.
     * @param requests requests of this rehearsal.
     * @param tokens   {@code max_tokens} of each.
     * @param dir      where this rehearsal's files go (a temporary directory).
     */
    static RunOptions warmupOptions(
        final RunOptions o, final String url, final long requests, final int tokens, final Path dir)
    {
        return warmupOptions(o, url, requests, tokens, dir, null);
    }

    /**
     * The packet tap of a rehearsal: off when the run's is, else {@code auto}, which on the simulator's loopback taps
     * {@code lo} where the run's tap (on whatever interface) can be had. Why: the tap and the socket read differently
     * (one read of all that is queued, each piece looked up in the tap; or a peek and a {@code recvmmsg} per event), and
     * a rehearsal on the other path left the run's compiled inside the window. A named interface is not the
     * simulator's, so it is not passed on.
     */
    static String rehearsalTap(final String runTap)
    {
        final boolean off = PacketTapChoice.parse(runTap).mode() == PacketTapChoice.Mode.OFF;
        return (off ? PacketTapChoice.OFF_CHOICE : PacketTapChoice.AUTO_CHOICE).flagValue();
    }

    /**
     * {@link #warmupOptions(RunOptions, String, long, int, Path)} that starts requests for at most {@code durationS}
     * ({@code --duration} beside {@code --requests}: whichever ends first), or without a time limit when null.
     */
    static RunOptions warmupOptions(
        final RunOptions o, final String url, final long requests, final int tokens, final Path dir,
        final Double durationS)
    {
        final RunOptionsBuilder w = RunOptions.builder();
        w.durationS(durationS);
        w.url(url);
        w.api(o.target().api());
        w.apiKeyEnv(null); // the simulator needs no key: none of the run's is read, let alone sent
        w.model(SelfWarmup.MODEL);
        w.concurrency(WARMUP_CONCURRENCY);
        w.requests(requests);
        w.maxTokens(tokens);
        w.ignoreEos(o.model().ignoreEos());
        w.temperature(o.model().temperature());
        w.extraBody(o.model().extraBody());
        w.seed(o.workload().seed());
        w.inputTokens(o.workload().inputTokens());
        w.prompt(o.workload().prompt());
        w.inputLengths(o.workload().inputLengths());
        rehearseInputsAndImages(o, w);
        // The simulator's own page, as often as the option allows: a scrape a second compiled the parser inside the
        // window, method by method, as each crossed its threshold
        w.serverMetrics(o.serverMetricsUrl() == null ? RunOptions.SERVER_METRICS_OFF : null);
        w.serverMetricsIntervalMs(SCRAPE_INTERVAL_MS);
        if (o.state().warmupRequests() > 0 || o.state().warmupDurationS() > 0)
        {
            // A run with a warm-up phase of its own takes both sides of every phase test: so does each rehearsal.
            // Measured only, it left RequestStage.process and RequestsJsonlWriter.phaseName compiled for the
            // measured side, and C2 threw both away (unstable_if) as the run's own warm-up requests ended.
            w.warmupRequests(Math.max(1, requests / WARMUP_PHASE_FRACTION));
        }
        w.outputDir(dir);
        w.runId("self-warmup");
        w.ioThreads(o.measurement().ioThreads());
        w.busyPoll(false); // spinning event loops would starve the embedded simulator on a small machine
        w.stamping(o.measurement().stamping()); // warm the client the run will use, Netty's or the kernel-stamped one
        w.set(RunOption.PACKET_TAP, rehearsalTap(o.measurement().packetTap()));
        w.saveText(o.output().saveText());
        w.progress(false);
        w.preflight(false);
        w.selfWarmup(false);
        w.timeoutS(30);
        w.drainTimeoutS(30);
        w.set(RunOption.GRACE_S, REHEARSAL_GRACE_S);
        return w.build();
    }

    /**
     * @param preflightMs the preflight request's latency (4 output tokens), ms; NaN when there was none.
     * @return how many connections to open before t0.
     */
    static int expectedConcurrency(final RunOptions o, final double preflightMs)
    {
        if (o.state().preconnect() != null)
        {
            return Math.min(o.state().preconnect(), o.maxInFlight());
        }
        if (o.load().users() != null)
        {
            return Math.min(o.load().users(), MAX_PRECONNECT);
        }
        if (o.closedLoop())
        {
            final int concurrency = o.load().concurrencyStages() != null ?
                o.load().concurrencyStages().maxConcurrency() :
                o.load().concurrency();
            return Math.min(concurrency, MAX_PRECONNECT);
        }
        // Little's law gives the mean in flight; Poisson arrivals put about mean + 3 sqrt(mean) in flight at the
        // 99.9th percentile, and a request that finds no open connection pays a TCP connect in its send lag (each such
        // request is a new_connection in requests.jsonl; the mean x 1.25 alone left hundreds of them at 1,000 req/s,
        // b69d460, a measurement no committed file keeps). Spare connections cost a descriptor each.
        return Math.min(inFlight(o, expectedE2eS(o, preflightMs)), MAX_PRECONNECT);
    }

    /**
     * @return the expected time of one request of the run, s: the preflight's (4 output tokens) scaled to
     * {@code --max-tokens}; 1 s without a preflight.
     */
    static double expectedE2eS(final RunOptions o, final double preflightMs)
    {
        return Double.isNaN(preflightMs) ? 1.0 : preflightMs / 1e3 * Math.max(1.0, o.model().maxTokens() / 4.0);
    }

    /** @return the requests an open loop holds in flight at its peak rate, with margin, capped by its cap. */
    static int inFlight(final RunOptions o, final double e2eS)
    {
        final double mean = o.peakRate() * e2eS * 1.25;
        final double expected = Math.ceil(mean + 4 * Math.sqrt(mean)) + 2;
        return (int)Math.min(expected, o.maxInFlight());
    }

    /**
     * Settles the JIT after the rounds: a drain of the compiler queue, then sweeps of short requests, each followed by
     * a drain, until a sweep leaves less than {@link #SETTLED_JIT_MS} of compilation (at most
     * {@link #MAX_SETTLE_SWEEPS}, in {@link #SETTLE_MAX_NS}).
     * <p>
     * Why: code run once a request asks HotSpot's compilation policy for C2 only every 2^{@code
     * Tier3InvokeNotifyFreqLog} calls (1,024), and the policy's answer depends on how long the C2 queue is then: the
     * threshold, {@code Tier4InvocationThreshold} (5,000 calls), is scaled by {@code 1 + queue / (Tier4LoadFeedback x
     * C2 threads)}. During the rounds the queue is long, so every check is refused. A worked example from a 16-stream
     * run on the 2-core VM (one C2 thread, feedback 3): {@code RequestStage.process} reached tier 3 7 s before the
     * window and ran about 7,000 times more in the warm-up, but with 6 or more methods queued at each check its
     * threshold was 15,000 or more. Its next check came at call 10,240, about 300 requests into the window, where the
     * queue was empty: C2 compiled it there, for 390 ms, beside {@code HttpResponseDecoder.headers},
     * {@code ChunkParser.parseUsage} and the other per-request methods, 1.3 s in all. A sweep of 1.25 x 1,024
     * requests with the queue drained gives each such method one check against the unscaled threshold; the
     * compilations it starts lengthen the queue for the checks after them, so a sweep repeats until one is quiet.
     *
     * @param sent what the sweeps send is added here.
     */
    private static void settle(
        final RunOptions options, final SelfWarmup phase, final Path dir, final Interruption interruption,
        final Tally sent) throws IOException, InterruptedException
    {
        final long deadlineNs = System.nanoTime() + SETTLE_MAX_NS;
        final long sweepRequests = settleSweepRequests();
        awaitQuietCompiler(deadlineNs);
        // The first sweep runs even when the drain took the settling's time: it is the one the window needs most
        for (int sweep = 0; sweep < MAX_SETTLE_SWEEPS && (sweep == 0 || System.nanoTime() < deadlineNs) &&
            !interruption.requested(); sweep++)
        {
            final long jitMs = compilationMs();
            final Path sweepDir = dir.resolve("settle-" + sweep);
            final RunOptions sweepOptions = warmupOptions(options, phase.url(), sweepRequests, WARMUP_SHORT_TOKENS,
                sweepDir, secondsUntil(deadlineNs));
            sent.add(phase.rehearse(sweepOptions, stopAt(deadlineNs)));
            scrapeBurst(sweepOptions, sweepDir, (int)sweepRequests);
            awaitQuietCompiler(deadlineNs);
            if (compilationMs() - jitMs < SETTLED_JIT_MS)
            {
                break;
            }
        }
    }

    /** @return the seconds a rehearsal starts requests for: until {@code deadlineNs}, at least {@link #MIN_PART_NS}. */
    static double secondsUntil(final long deadlineNs)
    {
        return Math.max(MIN_PART_NS, deadlineNs - System.nanoTime()) / 1e9;
    }

    /**
     * @return when a rehearsal stops whatever it is doing (System.nanoTime): {@code deadlineNs}, or
     * {@link #MIN_PART_NS} from now if that is later, as {@link #secondsUntil}.
     */
    static long stopAt(final long deadlineNs)
    {
        final long nowNs = System.nanoTime();
        return nowNs + Math.max(MIN_PART_NS, deadlineNs - nowNs);
    }

    /** @return the requests of one settling sweep: one and a quarter of the JVM's notification period. */
    static long settleSweepRequests()
    {
        return (1L << notifyFreqLog()) * 5 / 4;
    }

    /**
     * Scrapes the simulator's {@code /metrics} {@code times} times back to back with the run's scraper, when the run
     * scrapes: code run once a scrape needs as many calls as code run once a request for its check, and a sweep's
     * second of requests holds ten scrapes. A scrape of the simulator costs 0.1-0.3 ms once compiled.
     */
    private static void scrapeBurst(final RunOptions sweepOptions, final Path sweepDir, final int times)
        throws IOException
    {
        try (ServerTelemetry telemetry = ServerTelemetry.open(sweepOptions, SystemNanoClock.INSTANCE,
            Files.createDirectories(sweepDir.resolve("scrapes")), () -> 0))
        {
            telemetry.scrapeNow(times);
        }
    }

    /** @return this JVM's {@code Tier3InvokeNotifyFreqLog}, or HotSpot's default where it does not say. */
    static int notifyFreqLog()
    {
        try
        {
            final HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotspot == null ? DEFAULT_NOTIFY_FREQ_LOG :
                Math.clamp(Integer.parseInt(hotspot.getVMOption("Tier3InvokeNotifyFreqLog").getValue()), 0, 16);
        }
        catch (final IllegalArgumentException ex)
        {
            return DEFAULT_NOTIFY_FREQ_LOG; // not HotSpot, or a HotSpot without the flag
        }
    }

    /** Waits until the JIT's compilation time stands still for {@link #QUIET_NS}, or until {@code deadlineNs}. */
    private static void awaitQuietCompiler(final long deadlineNs) throws InterruptedException
    {
        long last = compilationMs();
        long stillSinceNs = System.nanoTime();
        while (System.nanoTime() - stillSinceNs < QUIET_NS && System.nanoTime() < deadlineNs)
        {
            Thread.sleep(20);
            final long now = compilationMs();
            if (now != last)
            {
                last = now;
                stillSinceNs = System.nanoTime();
            }
        }
    }

    /**
     * Waits until the JIT's compiler threads have used less than {@link #IDLE_COMPILER_CPU_NS} of CPU for {@link
     * #LAST_DRAIN_QUIET_NS}, for at most {@link #LAST_DRAIN_MAX_NS}: the last step before t0 after a self-warm-up,
     * while those threads still have their normal priority. Why: the warm-up's end (its simulator, event loops and
     * HTTP client closing) and the full collection run code nothing before them ran, and what they deoptimise is
     * compiled again at once. A worked example from three JFR runs at 16 streams on the 2-core VM
     * (results/client-cpu/settle-2026-12-03, {@code jfr-final}): in two, {@code ReferencedKeyMap.internKey}, inlined
     * in C2's code of {@code MethodType.makeImpl}, met a null during that teardown (a {@code speculate_null_assert}
     * trap, made not entrant), and the recompilation began 30-50 ms before t0 and ran 202-227 ms: most of those runs'
     * {@code compilation_ms_in_window}, which counts a compilation when it ends. The threads' CPU is the signal,
     * because {@code CompilationMXBean}'s total moves only when a compilation ends; where per-thread CPU cannot be
     * read, that total is used.
     *
     * @return how long it waited, ms.
     */
    static double awaitIdleCompilerThreads() throws InterruptedException
    {
        final long startNs = System.nanoTime();
        long last = compilerCpuNs();
        long stillSinceNs = startNs;
        while (System.nanoTime() - stillSinceNs < LAST_DRAIN_QUIET_NS &&
            System.nanoTime() - startNs < LAST_DRAIN_MAX_NS)
        {
            Thread.sleep(10);
            final long now = compilerCpuNs();
            if (now - last >= IDLE_COMPILER_CPU_NS)
            {
                last = now;
                stillSinceNs = System.nanoTime();
            }
        }
        return (System.nanoTime() - startNs) / 1e6;
    }

    /**
     * @return the CPU the JIT's compiler threads have used, ns; where that cannot be read, the JIT's compilation
     *     time instead (it grows only as compilations end).
     */
    static long compilerCpuNs()
    {
        return compilerCpuNs(ThreadCpu.snapshot());
    }

    /** @return the CPU of the JIT's compiler threads in {@code threads}, ns, or as {@link #compilerCpuNs()} says. */
    static long compilerCpuNs(final ThreadCpu.Snapshot threads)
    {
        if (threads.unavailable() != null)
        {
            return compilationMs() * 1_000_000L;
        }
        long ns = 0;
        for (final ThreadCpu.Sample s : threads.threads().values())
        {
            if (ThreadCpu.Group.of(s.name()) == ThreadCpu.Group.JIT && s.cpuNs() > 0)
            {
                ns += s.cpuNs();
            }
        }
        return ns;
    }

    /** @return total JIT compilation time so far, ms, or 0 where the JVM does not say. */
    public static long compilationMs()
    {
        final var jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    /** A full collection now, so that the window starts with an empty young generation and a raised metaspace. */
    static double collectNow()
    {
        final long startNs = System.nanoTime();
        System.gc();
        return (System.nanoTime() - startNs) / 1e6;
    }

    private static void deleteTree(final Path dir) throws IOException
    {
        try (Stream<Path> walk = Files.walk(dir))
        {
            for (final Path p : walk.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(p);
            }
        }
    }
}
