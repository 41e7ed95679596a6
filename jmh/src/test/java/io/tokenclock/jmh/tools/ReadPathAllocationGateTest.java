package io.tokenclock.jmh.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.tokenclock.jmh.Bench;
import io.tokenclock.transport.kernel.KernelStamps;
import io.tokenclock.transport.kernel.PacketTap;

/**
 * The read-path half of the allocation gate, in {@code ./tokenclock test}: the per-chunk path from the transport's
 * read on, for both transports ({@code PerChunkNettyBenchmark}: Netty's pipeline on an {@code EmbeddedChannel};
 * {@code PerChunkKernelBenchmark}: the kernel-stamped loop over a loopback socket; {@code PerChunkTapBenchmark}: the
 * same with the packet tap, where {@code CAP_NET_RAW} allows), run through
 * {@link AllocationCheck}, which counts each one's steady-state heap bytes per chunk exactly and holds it to the
 * method's {@code @AllocationBound}. The bounds are below one object per chunk above what was measured, so a new
 * per-chunk allocation on either path fails here. {@code PerChunkAllocationTest} (harness) is the same gate from
 * {@code StreamRecorder.onBytes} on; {@code PerRequestAllocationGateTest} the per-request one.
 */
class ReadPathAllocationGateTest
{
    private static final long CHECK_TIMEOUT_S = 180;

    /**
     * Runs {@link AllocationCheck} on {@code regex} in a JVM of its own. Why not in this one: what C2 makes of the
     * shared per-chunk code depends on the profiles the JVM has already gathered: when the Netty client still
     * decoded with Netty's {@code HttpClientCodec}, after the kernel path had run in the same JVM, the Netty path's
     * figure was 272 B a chunk in four runs of six, against 182 alone (2026-12-03), and the gate measured the order
     * of the tests, not the path. Both paths now allocate nothing per chunk, in either order (18.8 B an operation on
     * the Netty path, its per-request objects), but a JVM of its own keeps each figure the path's alone.
     */
    private static String check(final String regex) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Bench.flags());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), AllocationCheck.class.getName(), regex,
            // A long warm-up: the kernel path runs a few thousand chunks a second on a loaded 2-core machine, and
            // C2 must have compiled it (escape analysis included) before the count means steady state.
            "--warmup-ms", "6000"));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final CompletableFuture<byte[]> output = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return process.getInputStream().readAllBytes();
            }
            catch (final java.io.IOException e)
            {
                return e.toString().getBytes(StandardCharsets.UTF_8);
            }
        });
        final boolean ended = process.waitFor(CHECK_TIMEOUT_S, TimeUnit.SECONDS);
        if (!ended)
        {
            process.destroyForcibly();
        }
        final String report = new String(output.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
        System.out.print(report);
        assertTrue(ended, "AllocationCheck ended within " + CHECK_TIMEOUT_S + " s: " + report);
        assertEquals(0, process.exitValue(), report);
        return report;
    }

    @Test
    void shouldKeepNettysReadPathWithinItsBoundPerChunk() throws Exception
    {
        final String report = check("PerChunkNettyBenchmark\\.perChunkFromRead$");
        assertTrue(report.contains(".perChunkFromRead "), report);
    }

    @Test
    void shouldAllocateNothingPerChunkOnTheKernelReadPath() throws Exception
    {
        assumeTrue(KernelStamps.unavailableReason() == null, "kernel stamps: " + KernelStamps.unavailableReason());
        final String report = check("PerChunkKernelBenchmark\\.perChunkFromSocket$");
        assertTrue(report.contains(".perChunkFromSocket "), report);
    }

    @Test
    void shouldAllocateNothingPerChunkOnTheKernelReadPathWithThePacketTap() throws Exception
    {
        assumeTrue(KernelStamps.unavailableReason() == null, "kernel stamps: " + KernelStamps.unavailableReason());
        assumeTrue(PacketTap.privilegeReason() == null, "the tap's read path: " + PacketTap.privilegeReason());
        final String report = check("PerChunkTapBenchmark\\.perChunkFromSocket$");
        assertTrue(report.contains("PerChunkTapBenchmark.perChunkFromSocket "), report);
    }
}
