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
        assertEquals(1_000, ResponseHandler.retryAfterMs("1"));
        assertEquals(120_000, ResponseHandler.retryAfterMs(" 120 "));
        assertEquals(1_500, ResponseHandler.retryAfterMs("1.5"), "lenient: some servers send fractions");
        final String inTenSeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(
            ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(10));
        final long ms = ResponseHandler.retryAfterMs(inTenSeconds);
        assertTrue(ms > 8_000 && ms <= 10_000, inTenSeconds + " -> " + ms);
        assertEquals(0, ResponseHandler.retryAfterMs("Mon, 01 Jan 2001 00:00:00 GMT"), "a past date: at once");
        assertEquals(-1, ResponseHandler.retryAfterMs(null));
        assertEquals(-1, ResponseHandler.retryAfterMs("soon"));
    }
}
