package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.fixtures.sim.SimServer;
import io.tokenclock.run.ClientHost;
import io.tokenclock.run.RunResult;
import io.tokenclock.testing.SimServerExtension;

/**
 * The self-warm-up is a phase of the run, not runs nested in it: every rehearsal, rounds and settling sweeps alike,
 * is played on the one client the phase opened, so the simulator sees one set of connections for the whole warm-up.
 * Nested runs opened a client of their own each (16 pre-opened connections, and 20 more for the round trips their
 * preparation measured), at least five of them.
 */
@Timeout(120)
@Tag("slow") // the whole self-warm-up, seconds: skipped by -Pfast
final class SelfWarmupIT
{
    @RegisterExtension
    final SimServerExtension sim = new SimServerExtension();

    @Test
    void shouldPlayEveryRehearsalOnOneClientWhoseConnectionsOpenOnce() throws Exception
    {
        final SimServer server = sim.start(Readiness.simConfig());
        final RunOptionsBuilder o = RunOptions.builder();
        o.url("https://inference.example:8443/v1"); // the run's target: never reached by its warm-up
        o.concurrency(4);
        o.requests(12L);
        o.maxTokens(8);
        o.ignoreEos(true);
        o.serverMetrics(RunOptions.SERVER_METRICS_OFF); // no scraper's connections beside the client's
        final RunOptions options = o.build();
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final Readiness.Warmup warm = Readiness.warmHarness(options, ClientHost.NONE, server.baseUrl(),
            new PrintStream(console, true, StandardCharsets.UTF_8), Interruption.NONE);

        final int[] longPhase = Readiness.longPhase(options);
        // The time cap holds inside a round: a loaded machine may end the warm-up before a whole round
        if (warm.ns() < Readiness.MAX_WARMUP_NS)
        {
            assertTrue(warm.requests() >= Readiness.WARMUP_SHORT_REQUESTS + longPhase[0] +
                Readiness.settleSweepRequests(), "at least a round and a settling sweep: " + warm);
            assertTrue(warm.chunks() > (long)longPhase[0] * longPhase[1], "the long streams were stamped: " + warm);
        }
        assertTrue(warm.requests() > 0 && warm.chunks() > warm.requests(), "it rehearsed: " + warm);
        assertEquals(Readiness.WARMUP_CONCURRENCY, server.connectionsAccepted(),
            "one client, its connections opened once before the first rehearsal and kept to the last");
        assertEquals("", console.toString(StandardCharsets.UTF_8), "the rehearsals print nothing of their own");
    }

    /** A run of 80-token answers, to be rehearsed against a simulator that steps every 100 ms: 8 s streams. */
    private static RunOptionsBuilder slowStreams()
    {
        final RunOptionsBuilder o = RunOptions.builder();
        o.url("https://inference.example:8443/v1");
        o.concurrency(4);
        o.requests(12L);
        o.maxTokens(80);
        o.ignoreEos(true);
        o.serverMetrics(RunOptions.SERVER_METRICS_OFF);
        return o;
    }

    /**
     * The time cap holds inside a round: against a simulator slow enough that one round takes over 100 s (1,500
     * two-token requests, then 200 streams of 80 tokens at 100 ms a step, 16 at a time), the warm-up ends near its
     * caps (10 s of rounds, 6 s of settling), not after the round. Checked only between rounds, the cap let one
     * round run 92-119 s under stress-ng (issue 41).
     */
    @Test
    void shouldHoldTheTimeCapInsideARoundThatWouldRunFarPastIt() throws Exception
    {
        final SimServer server = sim.start(Readiness.simConfig().decodeBaseMs(100));
        final Readiness.Warmup warm = Readiness.warmHarness(slowStreams().build(), ClientHost.NONE, server.baseUrl(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), Interruption.NONE);

        // The simulator's pace alone makes the round last over 100 s; the caps, each part's floor and the drain of
        // one part's streams in flight (80 tokens x 100 ms) come to about 26 s, and a loaded machine adds its own
        // slowness to the rehearsals (34 s at load 20 on 2 cores): the bound lies between.
        assertTrue(warm.ns() < 60_000_000_000L, "the warm-up took " + warm.ns() / 1e9 + " s, a whole round: " + warm);
        assertTrue(warm.chunks() > Readiness.WARMUP_SHORT_REQUESTS, "the long streams ran too: " + warm);
    }

    /**
     * A rehearsal stops at its stop, not only at its {@code --duration}: its own warm-up phase and the streams in flight
     * stop too. Against streams of 8 s (80 tokens at 100 ms a step) in a run with a warm-up phase, a rehearsal stopped
     * 2 s in, with 1 s of grace, ends no stream whole: every one it started is cancelled. Without the stop, the warm-up
     * phase's streams ran whole, outside the cap (43-48 s of self-warm-up under stress-ng, issue 41).
     */
    @Test
    void shouldStopARehearsalItsWarmUpPhaseAndItsStreamsInFlightIncluded() throws Exception
    {
        final SimServer server = sim.start(Readiness.simConfig().decodeBaseMs(100));
        final RunOptions options = slowStreams().warmupRequests(4L).build();
        final Path dir = Files.createTempDirectory("tc-rehearsal-stop");
        final RunOptions w = Readiness.warmupOptions(options, server.baseUrl(), 32, 80, dir.resolve("r"));
        final RunResult r;
        try (SelfWarmup phase = new SelfWarmup(w, ClientHost.NONE,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
        {
            r = phase.rehearse(w, System.nanoTime() + 2_000_000_000L);
        }

        assertTrue(w.state().warmupRequests() > 0, "the rehearsal has a warm-up phase of its own");
        assertEquals(0, r.counts().ok(), "no 8 s stream ended whole after a stop at 2 s and 1 s of grace: " +
            r.counts());
        assertTrue(r.counts().cancelled() > 0, "the streams in flight were cancelled: " + r.counts());
    }
}
