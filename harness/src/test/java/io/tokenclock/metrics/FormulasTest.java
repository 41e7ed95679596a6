package io.tokenclock.metrics;

import java.util.SplittableRandom;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FormulasTest
{
    private static final long MS = 1_000_000L;

    @Test
    void shouldComputeTtftAsFirstContentChunkMinusSent()
    {
        assertEquals(250 * MS, Formulas.ttftNs(1_000 * MS, 1_250 * MS));
        assertEquals(1, Formulas.ttftNs(7, 8));
    }

    @Test
    void shouldLeaveTtftUndefinedWithoutFirstTokenOrSendStamp()
    {
        assertEquals(-1, Formulas.ttftNs(1_000 * MS, 0));
        assertEquals(-1, Formulas.ttftNs(0, 1_250 * MS));
        assertEquals(-1, Formulas.ttftNs(0, 0));
    }

    @Test
    void shouldComputeStreamSetupAsHeadersMinusSentAndLeaveItUndefinedWithoutHeadersOrBeforeTheSend()
    {
        assertEquals(3 * MS, Formulas.streamSetupNs(1_000 * MS, 1_003 * MS));
        assertEquals(-1, Formulas.streamSetupNs(1_000 * MS, 0));
        assertEquals(-1, Formulas.streamSetupNs(0, 1_003 * MS));
        assertEquals(-1, Formulas.streamSetupNs(1_000 * MS, 999 * MS), "headers of an earlier send (a 429 retried)");
    }

    @Test
    void shouldComputeTtftFromScheduleIncludingSendLag()
    {
        final long scheduled = 5_000 * MS;
        final long sent = scheduled + 40 * MS;
        final long first = sent + 250 * MS;

        assertEquals(290 * MS, Formulas.ttftFromScheduleNs(scheduled, first));
        assertEquals(Formulas.sendLagNs(scheduled, sent) + Formulas.ttftNs(sent, first),
            Formulas.ttftFromScheduleNs(scheduled, first));
        assertEquals(-1, Formulas.ttftFromScheduleNs(0, first));
        assertEquals(-1, Formulas.ttftFromScheduleNs(scheduled, 0));
    }

    @Test
    void shouldComputeTimeToSecondTokenFromFirstTwoChunks()
    {
        final long[] chunks = {100 * MS, 135 * MS, 170 * MS, 0};

        assertEquals(35 * MS, Formulas.ttstNs(chunks, 3));
        assertEquals(35 * MS, Formulas.ttstNs(chunks, 2));
    }

    @Test
    void shouldLeaveTimeToSecondTokenUndefinedWithFewerThanTwoChunks()
    {
        final long[] chunks = {100 * MS, 135 * MS};

        assertEquals(-1, Formulas.ttstNs(chunks, 1));
        assertEquals(-1, Formulas.ttstNs(chunks, 0));
        assertEquals(-1, Formulas.ttstNs(new long[0], 0));
    }

    @Test
    void shouldComputeEndToEndLatency()
    {
        assertEquals(1_750 * MS, Formulas.e2eNs(1_000 * MS, 2_750 * MS));
        assertEquals(0, Formulas.e2eNs(1_000 * MS, 1_000 * MS));
    }

    @Test
    void shouldLeaveEndToEndUndefinedWhenEndPrecedesSentOrSentMissing()
    {
        assertEquals(-1, Formulas.e2eNs(2_000 * MS, 1_999 * MS));
        assertEquals(-1, Formulas.e2eNs(2_000 * MS, 0));
        assertEquals(-1, Formulas.e2eNs(0, 1_000 * MS));
    }

    @Test
    void shouldComputeSendLagPositiveWhenClientFellBehind()
    {
        assertEquals(3 * MS, Formulas.sendLagNs(10_000 * MS, 10_003 * MS));
        assertEquals(0, Formulas.sendLagNs(10_000 * MS, 10_000 * MS));
        assertEquals(-2 * MS, Formulas.sendLagNs(10_000 * MS, 9_998 * MS));
        assertEquals(-1, Formulas.sendLagNs(0, 10_000 * MS));
        assertEquals(-1, Formulas.sendLagNs(10_000 * MS, 0));
    }

    @Test
    void shouldComputeTpotOverOutputTokensAfterTheFirst()
    {
        // 5 tokens, first at 1 s, last at 1.2 s: 4 gaps over 200 ms = 50 ms per token.
        assertEquals(50.0 * MS, Formulas.tpotNs(1_000 * MS, 1_200 * MS, 5), 1e-9);
        // 4 tokens over 100 ns: 33.33... ns, not truncated.
        assertEquals(100.0 / 3, Formulas.tpotNs(1_000, 1_100, 4), 1e-12);
        assertEquals(0.0, Formulas.tpotNs(1_000, 1_000, 3), 0.0);
        assertEquals(100.0, Formulas.tpotNs(1_000, 1_100, 2), 0.0);
    }

    @Test
    void shouldLeaveTpotUndefinedForFewerThanTwoTokensOrReversedStamps()
    {
        assertEquals(-1.0, Formulas.tpotNs(1_000, 1_200, 1), 0.0);
        assertEquals(-1.0, Formulas.tpotNs(1_000, 1_000, 1), 0.0);
        assertEquals(-1.0, Formulas.tpotNs(1_000, 1_200, 0), 0.0);
        assertEquals(-1.0, Formulas.tpotNs(1_200, 1_000, 5), 0.0);
    }

    @Test
    void shouldComputeEngineTpotLikeTheClientsOverTheEnginesTokensAfterTheFirst()
    {
        // llama.cpp: predicted_n 4, predicted_ms 45.609 from the first token to the last: 3 steps of 15.203 ms.
        assertEquals(15_203_000.0, Formulas.engineTpotNs(45_609_000, 4), 1e-6);
        assertEquals(Formulas.tpotNs(1_000, 1_000 + 45_609_000, 4), Formulas.engineTpotNs(45_609_000, 4), 0.0);
        assertEquals(-1.0, Formulas.engineTpotNs(45_609_000, 1), 0.0);
        assertEquals(-1.0, Formulas.engineTpotNs(-1, 4), 0.0, "no decode time reported");
        assertEquals(-1.0, Formulas.engineTpotNs(5, -1), 0.0, "no token count reported");
    }

    @Test
    void shouldComputeOutputTokensPerSecondAsInverseOfTpot()
    {
        // 11 tokens, 10 gaps over 0.5 s: 20 tokens/s.
        assertEquals(20.0, Formulas.outputTokensPerSecond(2_000 * MS, 2_500 * MS, 11), 1e-9);

        final double tpot = Formulas.tpotNs(3 * MS, 10 * MS, 8);
        assertEquals(1e9 / tpot, Formulas.outputTokensPerSecond(3 * MS, 10 * MS, 8), 1e-9);
    }

    @Test
    void shouldLeaveOutputTokensPerSecondUndefinedForOneTokenOrZeroSpan()
    {
        assertEquals(-1.0, Formulas.outputTokensPerSecond(2_000 * MS, 2_500 * MS, 1), 0.0);
        assertEquals(-1.0, Formulas.outputTokensPerSecond(2_000 * MS, 2_000 * MS, 10), 0.0);
        assertEquals(-1.0, Formulas.outputTokensPerSecond(2_500 * MS, 2_000 * MS, 10), 0.0);
    }

    @Test
    void shouldShareChunkGapEvenlyAmongItsTokens()
    {
        assertEquals(20.0 * MS, Formulas.tokenItlNs(100 * MS, 160 * MS, 3), 1e-9);
        assertEquals(60.0 * MS, Formulas.tokenItlNs(100 * MS, 160 * MS, 1), 1e-9);
        assertEquals(2.5, Formulas.tokenItlNs(10, 15, 2), 0.0);
    }

    @Test
    void shouldLeaveTokenItlUndefinedWhenTokenCountUnknownOrZero()
    {
        assertEquals(-1.0, Formulas.tokenItlNs(100, 160, 0), 0.0);
        assertEquals(-1.0, Formulas.tokenItlNs(100, 160, -1), 0.0);
    }

    @Test
    void shouldTruncateTokenItlToTheIntegerQuotientOfTheGap()
    {
        assertEquals(20 * MS, Formulas.tokenItlWholeNs(100 * MS, 160 * MS, 3));
        assertEquals(2, Formulas.tokenItlWholeNs(10, 15, 2));
        assertEquals(0, Formulas.tokenItlWholeNs(10, 15, 7));
        assertEquals(-1, Formulas.tokenItlWholeNs(10, 15, 0));
        final SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 100_000; i++)
        {
            // gaps up to about an hour, the histograms' highest trackable value, split over up to 100,000 tokens
            final long gapNs = random.nextLong(3_600_000_000_000L);
            final int tokens = 1 + random.nextInt(i % 2 == 0 ? 8 : 100_000);
            assertEquals(gapNs / tokens, Formulas.tokenItlWholeNs(1_000, 1_000 + gapNs, tokens), gapNs + "/" + tokens);
        }
    }

    @Test
    void shouldMeasureAWindowInSeconds()
    {
        assertEquals(2.5, Formulas.windowSeconds(1_000 * MS, 3_500 * MS), 0.0);
        assertEquals(1e-9, Formulas.windowSeconds(7, 8), 0.0);
        assertEquals(0.0, Formulas.windowSeconds(3_500 * MS, 3_500 * MS), 0.0);
        assertEquals(0.0, Formulas.windowSeconds(3_500 * MS, 1_000 * MS), 0.0);
    }

    @Test
    void shouldComputeAggregateRatePerSecond()
    {
        assertEquals(25.0, Formulas.rate(50, 2.0), 0.0);
        assertEquals(1_500.0, Formulas.rate(1.5, 0.001), 1e-9);
        assertEquals(0.0, Formulas.rate(50, 0), 0.0);
        assertEquals(0.0, Formulas.rate(50, -1), 0.0);
        assertEquals(0.0, Formulas.rate(0, 2.0), 0.0);
    }

    @Test
    void shouldGiveTheRateThatTheReportedWindowReproduces()
    {
        final double windowS = Formulas.windowSeconds(1_250_000_000L, 9_892_000_000L);
        assertEquals(8_642_000_000L / 1e9, windowS, 0.0);
        assertEquals(4_321 / windowS, Formulas.rate(4_321, windowS), 0.0);
        assertEquals(500.0, Formulas.rate(4_321, windowS), 0.001);
    }

    @Test
    void shouldSummariseKnownMillisecondValues()
    {
        final Histogram histogram = newHistogram();
        for (final long ms : new long[]{10, 20, 30, 40, 1_000})
        {
            histogram.recordValue(ms * MS);
        }

        final Distribution d = Distribution.of(histogram, "ms", 1e6);

        assertEquals("ms", d.unit());
        assertEquals(5, d.count());
        assertClose(10, d.min());
        assertClose(1_000, d.max());
        assertClose(220, d.mean());
        // Population stdev: sqrt(((-210)^2 + (-200)^2 + (-190)^2 + (-180)^2 + 780^2) / 5) = sqrt(152200).
        assertClose(Math.sqrt(152_200), d.stdev());
        assertClose(30, d.p50());
        assertClose(1_000, d.p90());
        assertClose(1_000, d.p99());
        assertClose(1_000, d.p999());
    }

    @Test
    void shouldTakePercentilesAsSmallestValueCoveringTheFraction()
    {
        final Histogram histogram = newHistogram();
        for (long ms = 1; ms <= 100; ms++)
        {
            histogram.recordValue(ms * MS);
        }

        final Distribution d = Distribution.of(histogram, Metric.TTFT);

        assertEquals("ms", d.unit());
        assertEquals(100, d.count());
        assertClose(1, d.min());
        assertClose(50.5, d.mean());
        assertClose(50, d.p50());
        assertClose(90, d.p90());
        assertClose(95, d.p95());
        assertClose(99, d.p99());
        assertClose(100, d.p999());
        assertClose(100, d.max());
    }

    @Test
    void shouldNotInterpolateMedianOfEvenCount()
    {
        final Histogram histogram = newHistogram();
        for (final long ms : new long[]{4, 1, 3, 2})
        {
            histogram.recordValue(ms * MS);
        }

        assertClose(2, Distribution.of(histogram, "ms", 1e6).p50());
    }

    @Test
    void shouldUseScaleOfOneForCounts()
    {
        final Histogram histogram = newHistogram();
        histogram.recordValue(7);
        histogram.recordValue(7);
        histogram.recordValue(13);

        final Distribution d = Distribution.of(histogram, Metric.OUTPUT_TOKENS);

        assertEquals("tokens", d.unit());
        assertEquals(7.0, d.min(), 0.0);
        assertEquals(7.0, d.p50(), 0.0);
        assertEquals(13.0, d.max(), 0.0);
        assertEquals(9.0, d.mean(), 0.0);
    }

    @Test
    void shouldSummariseEmptyHistogramAsNaN()
    {
        final Distribution d = Distribution.of(newHistogram(), "ms", 1e6);

        assertEquals(0, d.count());
        assertEquals("ms", d.unit());
        for (final double v : new double[]{d.min(), d.mean(), d.stdev(), d.p50(), d.p90(), d.p95(), d.p99(),
            d.p999(), d.max()})
        {
            assertTrue(Double.isNaN(v), "expected NaN, got " + v);
        }
    }

    private static Histogram newHistogram()
    {
        return new Histogram(1, 3_600_000_000_000L, 3);
    }

    /** HdrHistogram at 3 significant digits reports values within 0.1% of what was recorded. */
    private static void assertClose(final double expected, final double actual)
    {
        assertEquals(expected, actual, expected * 1e-3, () -> "expected " + expected + " within 0.1%, got " + actual);
    }
}
