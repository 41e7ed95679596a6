package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The thresholds of "the client machine may be shaping these figures" (results/client-health/README.md): with kernel
 * stamps only late reads that TCP merged move a stamp, so hiccups and JIT alone say nothing; with user stamps the
 * client's own stalls are added to the stamps.
 */
final class ClientShapingTest
{
    private static final double ITL_MS = 8.7;

    private static ClientShaping.Evidence kernel(final double delayP99Ms, final long shared, final double hiccupMs,
        final long jitMs)
    {
        return new ClientShaping.Evidence(false, ITL_MS, hiccupMs, 0, jitMs, true, delayP99Ms, 24_442, shared);
    }

    private static ClientShaping.Evidence user(final double hiccupMs, final double safepointMs, final long jitMs,
        final boolean compilersIdle)
    {
        return new ClientShaping.Evidence(true, ITL_MS, hiccupMs, safepointMs, jitMs, compilersIdle, Double.NaN, 0, 0);
    }

    @Test
    void shouldSayNothingOfAKernelStampedRunWhoseReadsKeptUpWhateverItsHiccupsAndJit()
    {
        // A healthy demo's kind of figures: reads within a ms, a few hundred shared stamps (role chunk and first
        // token in one segment), hiccups and JIT that move no kernel stamp.
        assertEquals(List.of(), ClientShaping.causes(kernel(0.9, 240, 37.5, 6_014), 0.1));
    }

    @Test
    void shouldNameLateReadsWhenTheReceiveDelayPassesAGapAndReadsShareStamps()
    {
        // The demo of results/client-health/ at a load average of 31-37: 72.4 ms p99, 1,612 of 24,442 reads shared.
        final List<String> causes = ClientShaping.causes(kernel(72.4, 1_612, 37.5, 6_014), 0.1);
        assertEquals(1, causes.size(), causes.toString());
        assertTrue(causes.get(0).contains("it read late") && causes.get(0).contains("1612 reads (6.6%)"),
            causes.get(0));
    }

    @Test
    void shouldNeedBothSignsOfMergedReadsUnderKernelStamps()
    {
        assertEquals(List.of(), ClientShaping.causes(kernel(72.4, 100, 0, 0), 0.1), "late reads, few shared");
        assertEquals(List.of(), ClientShaping.causes(kernel(0.5, 5_000, 0, 0), 0.1), "shared, not late");
        assertEquals(1, ClientShaping.causes(kernel(ITL_MS, 2_000, 0, 0), 0.1).size(), "at the bounds: 1 gap, 8.2%");
    }

    @Test
    void shouldWarnOfUserStampsMovedByTheClientsOwnHiccupsAndStops()
    {
        assertEquals(List.of(), ClientShaping.causes(user(0.5, 0, 6_000, true), 0.1), "0.5 ms < 10% of 8.7 ms");
        assertTrue(ClientShaping.causes(user(0.87, 0, 0, true), 0.1).get(0).contains("its own hiccups"));
        assertTrue(ClientShaping.causes(user(0, 9, 0, true), 0.1).get(0).contains("safepoints"));
        assertTrue(ClientShaping.causes(user(0, 0, 100, false), 0.1).get(0).contains("competing with the stamping"));
        assertEquals(List.of(), ClientShaping.causes(user(0, 0, 100, true), 0.1), "idle-class compilers");
    }

    @Test
    void shouldSayNothingWithoutGapsToCompareWith()
    {
        assertEquals(List.of(), ClientShaping.causes(new ClientShaping.Evidence(true, Double.NaN, 100, 100, 100_000,
            false, Double.NaN, 0, 0), 0.1));
    }
}
