package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.management.HotSpotDiagnosticMXBean;

import io.tokenclock.api.Api;
import io.tokenclock.config.LengthSpec;
import io.tokenclock.config.RunOption;
import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;
import io.tokenclock.health.ThreadCpu;

final class ReadinessTest
{
    private static RunOptionsBuilder open(final double rate, final Integer maxConcurrency)
    {
        final RunOptionsBuilder o = RunOptions.builder();
        o.url("http://127.0.0.1:9/v1");
        o.rate(rate);
        o.maxConcurrency(maxConcurrency);
        o.maxTokens(200);
        return o;
    }

    @Test
    void shouldWarmUpOnStreamsAsLongAsTheRunsAnswersWithinBoundsAndAboutSixteenThousandChunks()
    {
        final RunOptionsBuilder o = open(1, null);
        assertArrayEquals(new int[] {80, 200}, Readiness.longPhase(o.build()), "200-token answers");
        o.maxTokens(8);
        assertArrayEquals(new int[] {200, 80}, Readiness.longPhase(o.build()), "short answers: 80 at least");
        o.maxTokens(0);
        assertArrayEquals(new int[] {200, 80}, Readiness.longPhase(o.build()), "left to the server");
        o.maxTokens(4_096);
        assertArrayEquals(new int[] {32, 512}, Readiness.longPhase(o.build()), "512 at most, 32 streams at least");
    }

    @Test
    void shouldSweepOneAndAQuarterTimesTheTierThreeNotificationPeriodOfThisJvm()
    {
        final int log = Integer.parseInt(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
            .getVMOption("Tier3InvokeNotifyFreqLog").getValue());
        assertEquals(log, Readiness.notifyFreqLog());
        assertEquals((1L << log) + (1L << log) / 4, Readiness.settleSweepRequests(),
            "every method called once a request gets one check of the compilation policy in a sweep");
        if (log == Readiness.DEFAULT_NOTIFY_FREQ_LOG)
        {
            assertEquals(1_280, Readiness.settleSweepRequests(), "HotSpot's default: a check every 1,024 calls");
        }
    }

    @Test
    void shouldRehearseTheRunsRequestsAndScrapingAgainstTheSimulatorWithNothingOfItsTarget()
    {
        final RunOptionsBuilder o = open(1, null);
        o.url("https://inference.example:8443/v1");
        o.api(Api.CHAT);
        o.header("Authorization", "Bearer not-for-the-simulator");
        o.apiKeyEnv("TOKENCLOCK_TEST_KEY");
        o.inputTokens(512);
        o.inputLengths(LengthSpec.fixed(300));
        o.prompt("a fixed prompt");
        o.seed(7);
        o.temperature(0.7);
        o.extraBody("{\"top_k\":5}");
        o.serverMetrics("https://inference.example:9090/metrics");
        o.warmupRequests(256);
        final String sim = "http://127.0.0.1:4242/v1";
        final RunOptions w = Readiness.warmupOptions(o.build(), sim, 100, 200, Path.of("/tmp/warm"));
        assertEquals(sim, w.target().url());
        assertEquals(Api.CHAT, w.target().api(), "the run's API: the chat parser, not the completions one");
        assertTrue(w.target().headers().isEmpty(), "no header of the run's: " + w.target().headers());
        assertNull(w.target().apiKeyEnv(), "no key of the run's");
        assertEquals(512, w.workload().inputTokens());
        assertEquals(LengthSpec.fixed(300).declared(), w.workload().inputLengths().declared());
        assertEquals("a fixed prompt", w.workload().prompt());
        assertEquals(7, w.workload().seed());
        assertEquals(0.7, w.model().temperature());
        assertEquals("{\"top_k\":5}", w.model().extraBody());
        assertEquals(false, w.model().ignoreEos(), "the run's finish reasons, not the simulator's exact lengths");
        assertEquals(200, w.model().maxTokens());
        assertEquals("http://127.0.0.1:4242/metrics", w.serverMetricsUrl(), "the simulator's page, not the server's");
        assertEquals(Readiness.SCRAPE_INTERVAL_MS, w.measurement().serverMetricsIntervalMs());
        assertEquals(SelfWarmup.MODEL, w.model().name());
        assertFalse(w.quality().rule().judgesOutputs(), "a rehearsal judges nothing");
        assertTrue(w.power().sources().isEmpty(), "a rehearsal reads no power meter");
        assertEquals(100 / Readiness.WARMUP_PHASE_FRACTION, w.state().warmupRequests(),
            "a run with a warm-up phase: both sides of the stage's phase test");
        o.ignoreEos(true);
        o.warmupRequests(0);
        o.serverMetrics(RunOptions.SERVER_METRICS_OFF);
        final RunOptions quiet = Readiness.warmupOptions(o.build(), sim, 100, 200, Path.of("/tmp/warm"));
        assertNull(quiet.serverMetricsUrl(), "a run that does not scrape has a warm-up that does not");
        assertTrue(quiet.model().ignoreEos());
        assertEquals(0, quiet.state().warmupRequests(), "no warm-up phase in the run: none in its rehearsal");
    }

    @Test
    void shouldRehearseOnTheReadPathTheRunWillUseTappingLoopbackWhereTheRunTapsAnyInterface()
    {
        final String sim = "http://127.0.0.1:4242/v1";
        final RunOptionsBuilder o = open(1, null);
        o.set(RunOption.PACKET_TAP, "off");
        assertEquals("off", Readiness.warmupOptions(o.build(), sim, 100, 200, Path.of("/tmp/warm")).measurement()
            .packetTap(), "the socket's read path, warmed as the run will use it");
        o.set(RunOption.PACKET_TAP, "eth7");
        assertEquals("auto", Readiness.warmupOptions(o.build(), sim, 100, 200, Path.of("/tmp/warm")).measurement()
            .packetTap(), "the simulator is on loopback: not the run's interface, but the tap's read path");
        o.set(RunOption.PACKET_TAP, null);
        assertEquals("auto", Readiness.warmupOptions(o.build(), sim, 100, 200, Path.of("/tmp/warm")).measurement()
            .packetTap());
    }

    @Test
    void shouldPreconnectTheConcurrencyOfAClosedLoop()
    {
        final RunOptionsBuilder o = RunOptions.builder();
        o.url("http://127.0.0.1:9/v1");
        o.concurrency(64);
        assertEquals(64, Readiness.expectedConcurrency(o.build(), 12.0));
    }

    @Test
    void shouldPreconnectRateTimesLatencyScaledToMaxTokensInAnOpenLoop()
    {
        // preflight: 4 tokens in 40 ms -> 200 tokens ~ 2 s; mean 10 req/s x 2 s x 1.25 = 25; 25 + 4 x 5 + 2 = 47
        assertEquals(47, Readiness.expectedConcurrency(open(10, null).build(), 40.0));
        assertEquals(16, Readiness.expectedConcurrency(open(10, 16).build(), 40.0), "capped by --max-concurrency");
        assertEquals(1_024, Readiness.expectedConcurrency(open(1_000, null).build(), 40.0), "capped");
        assertEquals(29, Readiness.expectedConcurrency(open(10, null).build(), Double.NaN),
            "1 s without a preflight: " +
            "12.5 + 4 x 3.54 + 2, rounded up");
    }

    @Test
    void shouldTakeTheFlagOverTheEstimateUpToTheCap()
    {
        final RunOptionsBuilder o = open(10, 8);
        o.preconnect(100);
        assertEquals(8, Readiness.expectedConcurrency(o.build(), 40.0));
        o.preconnect(0);
        assertEquals(0, Readiness.expectedConcurrency(o.build(), 40.0));
    }

    @Test
    void shouldCountOnlyTheCompilerThreadsCpuAsTheLastDrainsSignal(@TempDir final Path tasks) throws IOException
    {
        thread(tasks, 11, "C2 CompilerThre", "7000000 10 3");
        thread(tasks, 12, "C1 CompilerThre", "500000 2 1");
        thread(tasks, 13, "tokenclock-io-0", "90000000 40 30");
        thread(tasks, 14, "java", "123456789 50 40");
        assertEquals(7_500_000L, Readiness.compilerCpuNs(ThreadCpu.read(tasks)));
    }

    @Test
    void shouldFallBackToTheJitsCompilationTimeWhereThreadsCannotBeRead(@TempDir final Path dir)
    {
        final ThreadCpu.Snapshot none = ThreadCpu.read(dir.resolve("no-such-tasks"));
        assertTrue(none.unavailable() != null, "no task directory: " + none);
        final long before = Readiness.compilationMs() * 1_000_000L;
        final long fallback = Readiness.compilerCpuNs(none);
        assertTrue(fallback >= before && fallback <= Readiness.compilationMs() * 1_000_000L,
            "the MXBean's total, in ns: " + before + " <= " + fallback);
        assertEquals(0, fallback % 1_000_000L, "whole ms, from the MXBean: " + fallback);
    }

    private static void thread(final Path tasks, final long tid, final String comm, final String schedstat)
        throws IOException
    {
        final Path dir = Files.createDirectories(tasks.resolve(Long.toString(tid)));
        Files.writeString(dir.resolve("comm"), comm + "\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("schedstat"), schedstat + "\n", StandardCharsets.US_ASCII);
    }

    @Test
    void shouldStartARehearsalsRequestsOnlyUntilItsCapAndForAtLeastItsFloor()
    {
        final RunOptionsBuilder o = RunOptions.builder();
        o.url("http://127.0.0.1:9/v1");
        o.concurrency(4);
        final RunOptions w = Readiness.warmupOptions(o.build(), "http://127.0.0.1:4242/v1", 1_500, 2,
            Path.of("/tmp/warm"), 2.5);
        assertEquals(2.5, w.load().durationS(), "the time left to the cap: --duration beside --requests");
        assertEquals(1_500L, w.load().requests());
        assertNull(Readiness.warmupOptions(o.build(), "http://127.0.0.1:4242/v1", 1_500, 2, Path.of("/tmp/warm"))
            .load().durationS(), "no cap given: none set");
        assertEquals(Readiness.MIN_PART_NS / 1e9, Readiness.secondsUntil(System.nanoTime() - 1_000_000_000L),
            "a cap already passed: the floor");
        final double left = Readiness.secondsUntil(System.nanoTime() + 5_000_000_000L);
        assertTrue(left > 4 && left <= 5, "a cap 5 s away: about 5 s, " + left);
    }
}
