package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import io.tokenclock.json.Json;

/**
 * The one client-health rule (results/client-health/README.md): with kernel stamps only chunks that took a later
 * chunk's stamp, above the bound of 1 in 1,000, say that the client moved the figures, so hiccups and JIT alone say
 * nothing; with user stamps the client's own stalls are added to the stamps. report.html reads the same rule from the
 * record.
 */
final class ClientShapingTest
{
    private static final double ITL_MS = 8.7;

    private static ClientShaping.Evidence kernel(final double hiccupMs, final long jitMs)
    {
        return new ClientShaping.Evidence(false, ITL_MS, hiccupMs, 0, jitMs, false);
    }

    private static ClientShaping.Evidence user(final double hiccupMs, final double safepointMs, final long jitMs,
        final boolean compilersIdle)
    {
        return new ClientShaping.Evidence(true, ITL_MS, hiccupMs, safepointMs, jitMs, compilersIdle);
    }

    /** A record as report.html reads it: kernel or user stamps, the client's figures, and the grade's gaps. */
    private static JsonNode record(final String mode, final double hiccupP99Ms, final String... missing)
    {
        final ObjectNode r = Json.MAPPER.createObjectNode();
        final ObjectNode m = r.putObject("measurement");
        m.putObject("stamping").put("mode", mode).put("reads", 24_442).put("fallback_reads", 0);
        m.putObject("client_jitter").putObject("lateness").put("p99", hiccupP99Ms);
        m.putObject("client_jit").put("compilation_ms_during_load", 6_014);
        r.putObject("report").putObject("distributions").putObject("inter_chunk_latency").put("p50", ITL_MS);
        final var gaps = r.putObject("grade").putArray("missing");
        for (final String g : missing)
        {
            gaps.add(g);
        }
        return r;
    }

    @Test
    void shouldSayNothingOfAKernelStampedRunFromItsHiccupsAndJitAlone()
    {
        // A starved demo's kind of figures: hiccups of 37.5 ms and 6 s of JIT move no kernel stamp by themselves.
        assertEquals(List.of(), ClientShaping.causes(kernel(37.5, 6_014), 0.1));
        assertEquals(Optional.empty(), ClientShaping.warning(record("kernel", 37.5)));
    }

    @Test
    void shouldGiveReportHtmlTheKernelFindingTheGradeLists()
    {
        final String finding = "300 of 20000 chunks (4 of 200 first chunks) took a later chunk's stamp: ...";
        assertEquals(Optional.of(finding), ClientShaping.warning(record("kernel", 0.2, "model.name: not declared",
            "measurement.stamping: " + finding)));
    }

    @Test
    void shouldWarnOfUserStampsMovedByTheClientsOwnHiccupsAndStops()
    {
        assertEquals(List.of(), ClientShaping.causes(user(0.5, 0, 6_000, true), 0.1), "0.5 ms < 10% of 8.7 ms");
        assertTrue(ClientShaping.causes(user(0.87, 0, 0, true), 0.1).get(0).contains("its own hiccups"));
        assertTrue(ClientShaping.causes(user(0, 9, 0, true), 0.1).get(0).contains("safepoints"));
        assertTrue(ClientShaping.causes(user(0, 0, 100, false), 0.1).get(0).contains("competing with the stamping"));
        assertEquals(List.of(), ClientShaping.causes(user(0, 0, 100, true), 0.1), "idle-class compilers");
        final Optional<String> line = ClientShaping.warning(record("user", 37.5));
        assertTrue(line.isPresent() && line.get().startsWith(ClientShaping.SHAPING) &&
            line.get().contains("its own hiccups (p99 37.500 ms)"), line.toString());
    }

    @Test
    void shouldSayNothingWithoutGapsToCompareWithOrWithoutAClientsFigures()
    {
        assertEquals(List.of(), ClientShaping.causes(new ClientShaping.Evidence(true, Double.NaN, 100, 100, 100_000,
            false), 0.1));
        assertEquals(Optional.empty(), ClientShaping.warning(Json.MAPPER.createObjectNode()), "a peer's record");
    }
}
