package io.tokenclock.runner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import io.tokenclock.config.RunOptions;
import io.tokenclock.config.RunOptionsBuilder;

final class ReadinessTest
{
    private static RunOptionsBuilder open(final double rate, final Integer maxConcurrency)
    {
        final RunOptionsBuilder o = RunOptions.builder();
        o.url("http://127.0.0.1:9/v1");
        o.rate(rate);
        o.maxConcurrency(maxConcurrency);
        o.maxTokens(200);
        return o;
    }

    @Test
    void shouldWarmUpOnStreamsAsLongAsTheRunsAnswersWithinBoundsAndAboutSixteenThousandChunks()
    {
        final RunOptionsBuilder o = open(1, null);
        assertArrayEquals(new int[] {80, 200}, Readiness.longPhase(o.build()), "200-token answers");
        o.maxTokens(8);
        assertArrayEquals(new int[] {200, 80}, Readiness.longPhase(o.build()), "short answers: 80 at least");
        o.maxTokens(0);
        assertArrayEquals(new int[] {200, 80}, Readiness.longPhase(o.build()), "left to the server");
        o.maxTokens(4_096);
        assertArrayEquals(new int[] {32, 512}, Readiness.longPhase(o.build()), "512 at most, 32 streams at least");
    }

    @Test
    void shouldPreconnectTheConcurrencyOfAClosedLoop()
    {
        final RunOptionsBuilder o = RunOptions.builder();
        o.url("http://127.0.0.1:9/v1");
        o.concurrency(64);
        assertEquals(64, Readiness.expectedConcurrency(o.build(), 12.0));
    }

    @Test
    void shouldPreconnectRateTimesLatencyScaledToMaxTokensInAnOpenLoop()
    {
        // preflight: 4 tokens in 40 ms -> 200 tokens ~ 2 s; mean 10 req/s x 2 s x 1.25 = 25; 25 + 4 x 5 + 2 = 47
        assertEquals(47, Readiness.expectedConcurrency(open(10, null).build(), 40.0));
        assertEquals(16, Readiness.expectedConcurrency(open(10, 16).build(), 40.0), "capped by --max-concurrency");
        assertEquals(1_024, Readiness.expectedConcurrency(open(1_000, null).build(), 40.0), "capped");
        assertEquals(29, Readiness.expectedConcurrency(open(10, null).build(), Double.NaN),
            "1 s without a preflight: " +
            "12.5 + 4 x 3.54 + 2, rounded up");
    }

    @Test
    void shouldTakeTheFlagOverTheEstimateUpToTheCap()
    {
        final RunOptionsBuilder o = open(10, 8);
        o.preconnect(100);
        assertEquals(8, Readiness.expectedConcurrency(o.build(), 40.0));
        o.preconnect(0);
        assertEquals(0, Readiness.expectedConcurrency(o.build(), 40.0));
    }
}
