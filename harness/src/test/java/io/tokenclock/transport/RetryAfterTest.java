package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import org.junit.jupiter.api.Test;

/** {@code Retry-After} is delay-seconds or an HTTP date (RFC 9110 10.2.3); anything else is not understood. */
final class RetryAfterTest
{
    @Test
    void shouldReadDelaySecondsAndHttpDatesAndRejectTheRest()
    {
        assertEquals(1_000, RetryPolicy.retryAfterMs("1"));
        assertEquals(120_000, RetryPolicy.retryAfterMs(" 120 "));
        assertEquals(1_500, RetryPolicy.retryAfterMs("1.5"), "lenient: some servers send fractions");
        final String inTenSeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(
            ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(10));
        final long ms = RetryPolicy.retryAfterMs(inTenSeconds);
        assertTrue(ms > 8_000 && ms <= 10_000, inTenSeconds + " -> " + ms);
        assertEquals(0, RetryPolicy.retryAfterMs("Mon, 01 Jan 2001 00:00:00 GMT"), "a past date: at once");
        assertEquals(-1, RetryPolicy.retryAfterMs(null));
        assertEquals(-1, RetryPolicy.retryAfterMs("soon"));
    }

    @Test
    void shouldCountAnHttpDateFromTheGivenNow()
    {
        final java.time.Instant now = java.time.Instant.parse("2026-12-01T20:00:00Z");
        assertEquals(30_000, RetryPolicy.retryAfterMs("Tue, 01 Dec 2026 20:00:30 GMT", now));
    }

    @Test
    void shouldWaitWhatTheServerSaidCappedAtAMinuteOrOneSecondWhenItSaidNothing()
    {
        assertEquals(2_000_000_000L, RetryPolicy.delayNs(2_000));
        assertEquals(60_000_000_000L, RetryPolicy.delayNs(3_600_000), "at most 60 s");
        assertEquals(1_000_000_000L, RetryPolicy.delayNs(-1), "none given: 1 s");
        assertEquals(0, RetryPolicy.delayNs(0));
    }

    @Test
    void shouldRetryOnly429sAndOnlyAsOftenAsTheLimitSays()
    {
        final RequestLimits twice = RequestLimits.of(10, 0, 0, 600, 1 << 20, 16 << 20, 2);
        assertTrue(RetryPolicy.retries(429, 0, twice));
        assertTrue(RetryPolicy.retries(429, 1, twice));
        assertTrue(!RetryPolicy.retries(429, 2, twice), "the limit reached");
        assertTrue(!RetryPolicy.retries(503, 0, twice), "503 is not retried");
        assertTrue(!RetryPolicy.retries(429, 0, RequestLimits.DEFAULT), "off by default");
        assertTrue(RetryPolicy.readsRetryAfter(503) && RetryPolicy.readsRetryAfter(429));
        assertTrue(!RetryPolicy.readsRetryAfter(200));
    }
}
