package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.tokenclock.config.RunOption;
import io.tokenclock.fixtures.sim.SimConfig;
import io.tokenclock.results.record.MeasurementSection;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.report.ConsoleSummary;
import io.tokenclock.run.RunResult;
import io.tokenclock.testing.SimServerExtension;

/**
 * A short run against the simulator says where the client's CPU went: the stamping and collector threads ran, the
 * groups add up to the process's own total, and no group is negative.
 */
@Timeout(120)
@Tag("slow") // a run with its self-warm-up, seconds: skipped by -Pfast
final class ClientCpuByThreadIT
{
    /** The process total is read on 10 ms ticks; the threads' sum may exceed it by less than one. */
    private static final double TICK_MS = 10.0;

    @TempDir
    Path dir;

    @RegisterExtension
    final SimServerExtension sim = new SimServerExtension();

    @Test
    void shouldRecordTheCpuOfEachThreadGroupAddingUpToTheProcessTotal() throws Exception
    {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "per-thread CPU is read on Linux only");
        sim.start(new SimConfig().prefillBaseMs(2).decodeBaseMs(1));
        // --verbose: the console's client-CPU line is one of the client internals it adds (issue 38)
        final RunResult r = new BenchmarkRunner().run(sim.options(dir).concurrency(4).requests(60L)
            .set(RunOption.VERBOSE, true).build(), new PrintStream(new ByteArrayOutputStream()));

        final MeasurementSection.ClientCpuByThread c =
            RecordJson.read(dir.resolve("record.json")).measurement().clientCpuByThread();
        assertNull(c.unavailable());
        final Map<String, MeasurementSection.ClientCpuByThread.GroupCpu> g = c.groups();
        assertTrue(g.get("stamping").cpuMs() > 0 && g.get("stamping").threads() >= 1, g.toString());
        assertTrue(g.get("collector").cpuMs() > 0 && g.get("collector").threads() == 1, g.toString());
        assertTrue(g.get("stage").threads() == 1 && g.get("load").threads() == 1, "stopped before the window's " +
            "last reading, they read themselves as they end: " + g);
        assertTrue(g.get("monitors").cpuMs() > 0, "the hiccup sampler wakes every millisecond: " + g);
        assertTrue(g.get("simulator").cpuMs() > 0, "the simulator runs in this JVM: " + g);
        double sumMs = 0;
        for (final Map.Entry<String, MeasurementSection.ClientCpuByThread.GroupCpu> e : g.entrySet())
        {
            assertTrue(e.getValue().cpuMs() >= 0 && e.getValue().share() >= 0, e.toString());
            sumMs += e.getValue().cpuMs();
        }
        assertEquals(c.totalMs(), sumMs, 1e-6);
        final double processMs = r.clientHealth().cpu().totalNs() / 1e6;
        assertEquals(processMs, c.processMs(), 1e-6);
        // total_ms is the groups' sum taken in ns (sumMs, in ms, may round below it)
        assertTrue(c.totalMs() >= processMs && c.totalMs() - processMs < TICK_MS, "groups " + c.totalMs() +
            " ms against the process's " + processMs + " ms: " + g);

        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        ConsoleSummary.print(r, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("client CPU by thread (us per chunk): stamping "),
            out.toString(StandardCharsets.UTF_8));
    }
}
