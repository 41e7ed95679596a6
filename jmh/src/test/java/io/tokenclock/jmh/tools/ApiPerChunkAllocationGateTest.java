package io.tokenclock.jmh.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The Responses and Messages grammars' benchmarks under the allocation gate, in {@code ./tokenclock test}: every
 * method of {@code ResponsesPerChunkBenchmark} and {@code MessagesPerChunkBenchmark} (each API's event through the
 * whole per-chunk path, and chat's chunk beside it) and of {@code PoolingBodyBenchmark} (a read of an embeddings or
 * rerank answer, skimmed, and its end) run through {@link AllocationCheck}, which counts the
 * steady-state heap bytes per operation exactly and holds them to zero (under one byte). The harness's own gate for
 * the same grammars is {@code PerChunkAllocationTest}.
 */
class ApiPerChunkAllocationGateTest
{
    @Test
    void shouldAllocateNothingPerEventOfEitherApisBenchmark() throws Throwable
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final String benchmarks = "(Responses|Messages)PerChunkBenchmark|PoolingBodyBenchmark";
        final int status = AllocationCheck.run(new String[] {benchmarks, "--warmup-ms", "1500"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final String report = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        System.out.print(report);
        assertEquals(0, status, report);
        for (final String method : new String[] {"ResponsesPerChunkBenchmark.perEvent ",
            "ResponsesPerChunkBenchmark.perEventSortedMembers ", "MessagesPerChunkBenchmark.perEvent ",
            "MessagesPerChunkBenchmark.perEventWithPings ", "PoolingBodyBenchmark.perRead ",
            "PoolingBodyBenchmark.perReadRerank "})
        {
            assertTrue(report.contains(method), "measured " + method + ":\n" + report);
        }
    }
}
