package io.tokenclock.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

import io.tokenclock.clock.NanoClock;
import io.tokenclock.clock.SystemNanoClock;
import io.tokenclock.config.RunOptions;
import io.tokenclock.health.AotCache;
import io.tokenclock.run.ClientHost;
import io.tokenclock.run.ReadinessReport;
import io.tokenclock.run.RunResult;
import io.tokenclock.run.ServerInfo;
import io.tokenclock.transport.Endpoint;
import io.tokenclock.transport.StreamClient;
import io.tokenclock.workload.tokenizer.Tokenizer;
import io.tokenclock.workload.tokenizer.Tokenizers;

/**
 * The self-warm-up's phase of a run: one client to the embedded simulator, opened and pre-connected once, on which
 * {@link Readiness#warmHarness} plays its rehearsals (rounds and settling sweeps), each a {@link Measurement} of the
 * run's own kind wired around that client. The rehearsal runs the code the window will run (load generator, client,
 * framing, ring, collector, request stage, {@code requests.jsonl} writer, the in-progress record), and nothing of a
 * run's own bracket: no probe, preflight, round trips or machine inventory (the run's own, read once, goes into the
 * rehearsals' records), no final record, no refusal file, no descriptor check, no collection, no stamping notes (the
 * measured run says the same once). Why not a nested run: each rehearsal then opened a client of its own (its event
 * loops, ring and 16 connections, plus 20 for the round trips) and had to be told by an option that it was one.
 * <p>
 * The simulator is the run's only peer here: nothing of the run's target (URL, headers, key) goes along
 * ({@link Readiness#warmupOptions}), and its results are discarded but for their counts. Cold path; one thread.
 */
final class SelfWarmup implements AutoCloseable
{
    /** The model the rehearsals ask the simulator for. */
    static final String MODEL = "tokenclock-sim";

    private final NanoClock clock = SystemNanoClock.INSTANCE;
    private final String url;
    private final ClientHost host;
    private final PrintStream err;
    private final Endpoint endpoint;
    private final Map<String, String> headers;
    private final Tokenizer tokenizer;
    private final StreamClient client;
    private final ReadinessReport ready;

    /**
     * Opens the phase's client and its connections.
     *
     * @param first the options of a first rehearsal: the client's settings come from them, and are the same for
     *              every rehearsal of this run ({@link Readiness#warmupOptions} differs only in counts and lengths).
     * @param host  the run's client machine, read by its preparation.
     */
    SelfWarmup(final RunOptions first, final ClientHost host, final PrintStream err) throws InterruptedException
    {
        this.url = first.target().url();
        this.host = host;
        this.err = err;
        this.endpoint = Endpoint.parse(url, first.target().api());
        this.headers = Preparation.requestHeaders(first, endpoint);
        this.tokenizer = Workloads.tokenizer(first);
        this.client = BenchmarkRunner.openClient(first, endpoint, headers, clock, line -> {});
        try
        {
            final long startNs = System.nanoTime();
            // Pre-connected like the run: the loop's tasks then have the types the measured run's have (a connect
            // task recompiled KernelLoop.runTasks at the window's start otherwise)
            final int preconnected = client.preconnect(Readiness.expectedConcurrency(first, Double.NaN),
                BenchmarkRunner.PRECONNECT_TIMEOUT_MS);
            this.ready = new ReadinessReport(0, 0, 0, 0, preconnected, (System.nanoTime() - startNs) / 1e9, 0, 0, 0,
                AotCache.current().word());
        }
        catch (final InterruptedException | RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    /** @return the simulator's base URL, which every rehearsal's options name. */
    String url()
    {
        return url;
    }

    /**
     * Plays one rehearsal on the phase's client: a window of {@code w}'s requests, supervised until drained.
     *
     * @param w      one rehearsal's options ({@link Readiness#warmupOptions}); its output directory is created.
     * @param stopNs when the rehearsal stops, if it has not ended (System.nanoTime): no request starts after it,
     *               warm-up phase included, and those in flight have the options' grace ({@link Interruption#at}).
     * @return what it measured, for its counts.
     */
    RunResult rehearse(final RunOptions w, final long stopNs) throws IOException, InterruptedException
    {
        if (!url.equals(w.target().url()))
        {
            throw new IllegalArgumentException("a rehearsal of another target: " + w.target().url());
        }
        final Path dir = Files.createDirectories(w.output().outputDir());
        final Preparation.Prepared prep = new Preparation.Prepared(endpoint, headers, null, ServerInfo.NONE, MODEL,
            tokenizer, Workloads.generator(w, endpoint, MODEL, tokenizer), Map.of(), null, host);
        final RunResult.Target target = new RunResult.Target(endpoint, MODEL, ServerInfo.NONE,
            w.output().runId(), dir, Instant.now());
        final Measurement rehearsal = new Measurement(w, clock, prep, target, client, ready, Interruption.at(stopNs),
            err);
        final Monitors.InLoad inLoad;
        try (rehearsal)
        {
            inLoad = rehearsal.measure(err);
        }
        return rehearsal.result(inLoad, rehearsal.wallSeconds(), null);
    }

    /** Closes the client (its connections and event loops) and the tokenizer. */
    @Override
    public void close()
    {
        try (client)
        {
            Tokenizers.closeQuietly(tokenizer);
        }
    }
}
