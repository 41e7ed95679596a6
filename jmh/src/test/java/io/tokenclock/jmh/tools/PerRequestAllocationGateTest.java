package io.tokenclock.jmh.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The per-request half of the allocation gate, in {@code ./tokenclock test}: the per-request benchmarks
 * ({@code RequestLifecycleBenchmark}, {@code RequestStageBenchmark}) run through {@link AllocationCheck}, which
 * counts each one's steady-state heap bytes per operation exactly (thread-allocated bytes, not timing) and holds it
 * to the method's {@code @AllocationBound}, or to zero without one. The per-chunk half is
 * {@code PerChunkAllocationTest} in the harness.
 */
class PerRequestAllocationGateTest
{
    @Test
    void shouldKeepEveryPerRequestBenchmarkWithinItsAllocationBound() throws Throwable
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = AllocationCheck.run(new String[] {"Request(Lifecycle|Stage)Benchmark", "--warmup-ms",
            "1500"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final String report = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        System.out.print(report);
        assertEquals(0, status, report);
        for (final String method : new String[] {"requestThroughStage", "logLine", "logLineWithText", "request"})
        {
            assertTrue(report.contains("." + method + " "), "measured " + method + ":\n" + report);
        }
    }
}
