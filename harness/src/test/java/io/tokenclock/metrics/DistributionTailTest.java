package io.tokenclock.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

final class DistributionTailTest
{
    /** Values 1..n ms, recorded in ns: the k-th smallest sample is exactly k ms. */
    private static Distribution ofOneToN(final int n)
    {
        final Histogram h = new Histogram(3_600_000_000_000L, 3);
        for (int v = 1; v <= n; v++)
        {
            h.recordValue(v * 1_000_000L);
        }
        return Distribution.of(h, "ms", 1e6);
    }

    @Test
    void shouldBoundAP99FromAThousandSamplesByThe983rdAnd997thSample()
    {
        final Distribution d = ofOneToN(1000);
        assertEquals(983, d.p99Low(), 983 * 0.001, "the 983rd smallest, at the histogram's 3 digits");
        assertEquals(997, d.p99High(), 997 * 0.001);
        assertTrue(d.p99Low() <= d.p99() && d.p99() <= d.p99High());
        assertTrue(d.p99Bounded());
    }

    @Test
    void shouldGiveAP99FromAHundredSamplesNoUpperBound()
    {
        final Distribution d = ofOneToN(100);
        assertTrue(Double.isNaN(d.p99High()), "no 101st sample");
        assertFalse(d.p99Bounded());
        assertEquals(97, d.p99Low(), 0.1);
    }
}
