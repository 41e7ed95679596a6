package io.tokenclock.jmh.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.tokenclock.transport.kernel.KernelStamps;

/**
 * The read-path half of the allocation gate, in {@code ./tokenclock test}: the per-chunk path from the transport's
 * read on, for both transports ({@code PerChunkNettyBenchmark}: Netty's pipeline on an {@code EmbeddedChannel};
 * {@code PerChunkKernelBenchmark}: the kernel-stamped loop over a loopback socket), run through
 * {@link AllocationCheck}, which counts each one's steady-state heap bytes per chunk exactly and holds it to the
 * method's {@code @AllocationBound}. The bounds are below one object per chunk above what was measured, so a new
 * per-chunk allocation on either path fails here. {@code PerChunkAllocationTest} (harness) is the same gate from
 * {@code StreamRecorder.onBytes} on; {@code PerRequestAllocationGateTest} the per-request one.
 */
class ReadPathAllocationGateTest
{
    private static String check(final String regex) throws Throwable
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        // A long warm-up: the kernel path runs a few thousand chunks a second on a loaded 2-core machine, and C2
        // must have compiled it (escape analysis included) before the count means steady state.
        final int status = AllocationCheck.run(new String[] {regex, "--warmup-ms", "6000"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final String report = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        System.out.print(report);
        assertEquals(0, status, report);
        return report;
    }

    @Test
    void shouldKeepNettysReadPathWithinItsBoundPerChunk() throws Throwable
    {
        final String report = check("PerChunkNettyBenchmark\\.perChunkFromRead$");
        assertTrue(report.contains(".perChunkFromRead "), report);
    }

    @Test
    void shouldAllocateNothingPerChunkOnTheKernelReadPath() throws Throwable
    {
        assumeTrue(KernelStamps.unavailableReason() == null, "kernel stamps: " + KernelStamps.unavailableReason());
        final String report = check("PerChunkKernelBenchmark\\.perChunkFromSocket$");
        assertTrue(report.contains(".perChunkFromSocket "), report);
    }
}
