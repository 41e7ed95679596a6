package io.tokenclock.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** A second in which one stamping thread used more than 85% of a core is a saturated second; nothing else is. */
final class StampingSaturationTest
{
    private static final long S = 1_000_000_000L;

    private static ThreadCpu.Snapshot threads(final long loop0Ns, final long loop1Ns, final long collectorNs)
    {
        return new ThreadCpu.Snapshot(Map.of(1L, new ThreadCpu.Sample("tokenclock-ksta", loop0Ns),
            2L, new ThreadCpu.Sample("tokenclock-ksta", loop1Ns), 3L, new ThreadCpu.Sample("tokenclock-coll",
            collectorNs)), null);
    }

    @Test
    void shouldCountTheSecondsInWhichAStampingThreadUsedMoreThan85PercentOfACore()
    {
        final StampingSaturation s = new StampingSaturation(() -> threads(0, 0, 0));
        s.onSample(0, threads(0, 0, 0));
        assertEquals(0, s.result().secondsSampled(), "before the window: nothing kept");
        s.arm();
        s.onSample(10 * S, threads(4_200_000_000L, 100_000_000L, 0));
        s.onSample(11 * S, threads(5_060_000_000L, 200_000_000L, 990_000_000L)); // 86%: above
        s.onSample(12 * S, threads(5_910_000_000L, 300_000_000L, 1_980_000_000L)); // 85%: not above
        s.onSample(13 * S + S / 2, threads(6_210_000_000L, 1_700_000_000L, 1_980_000_000L)); // 93% of 1.5 s
        final StampingSaturation.Result r = s.result();
        assertEquals(3, r.secondsSampled());
        assertEquals(2, r.secondsAbove(), "86% and 93%; 85% is not above, and the collector is not stamping");
        assertEquals(1.4e9 / 1.5e9, r.worstFraction(), 1e-9);
        assertTrue(r.saturated());
        s.close();
    }

    @Test
    void shouldNotCountAThreadFirstSeenAtASampleNorOneWhoseCounterWentBack()
    {
        final StampingSaturation s = new StampingSaturation(() -> threads(0, 0, 0));
        s.arm();
        s.onSample(S, new ThreadCpu.Snapshot(Map.of(1L, new ThreadCpu.Sample("tokenclock-ksta", 0)), null));
        s.onSample(2 * S, threads(500_000_000L, 950_000_000L, 0)); // thread 2 born: no second of it yet
        s.onSample(3 * S, threads(1_000_000_000L, 10_000_000L, 0)); // thread 2 reused by a new thread
        assertFalse(s.result().saturated(), s.result().toString());
        assertEquals(2, s.result().secondsSampled());
        s.close();
    }

    @Test
    void shouldSayWhyWhenNothingCouldBeRead()
    {
        final StampingSaturation s = new StampingSaturation(() -> threads(0, 0, 0));
        s.arm();
        s.onSample(S, new ThreadCpu.Snapshot(Map.of(), "no /proc/self/task: per-thread CPU is read on Linux only"));
        assertEquals("no /proc/self/task: per-thread CPU is read on Linux only", s.result().unavailable());
        s.close();
    }
}
