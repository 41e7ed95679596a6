package io.tokenclock.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import io.tokenclock.metrics.Distribution;
import io.tokenclock.metrics.Metric;

final class TailWarningsTest
{
    private static Distribution samples(final int n)
    {
        final Histogram h = new Histogram(3);
        for (int i = 0; i < n; i++)
        {
            h.recordValue(1_000_000L + i);
        }
        return Distribution.of(h, "ms", 1e6);
    }

    @Test
    void shouldWarnOnlyAboutTheTailsThatRestOnTooFewSamples()
    {
        final Map<Metric, Distribution> d = new EnumMap<>(Metric.class);
        d.put(Metric.TTFT, samples(120));
        d.put(Metric.TPOT, samples(368));
        d.put(Metric.TOKEN_ITL, samples(5_000));
        d.put(Metric.E2E, samples(0));
        assertEquals(List.of(
            "p99 of ttft rests on 120 samples; its 95% interval has an upper end from 368: the true p99 may " +
            "be well above the reported one"), TailWarnings.of(d));
    }

    @Test
    void shouldShowAnIntervalSideTheSamplesCannotBoundAsNone()
    {
        assertEquals("[1.250, none]", ConsoleSummary.interval(1.25, Double.NaN));
        assertEquals("[1.000, 2.500]", ConsoleSummary.interval(1.0, 2.5));
    }
}
