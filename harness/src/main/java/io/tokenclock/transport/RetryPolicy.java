package io.tokenclock.transport;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * {@code --retry-429}: which answers are sent again and after how long. A request answered 429 is not ended but sent
 * again after the server's {@code Retry-After} (1 s when it gave none, at most 60 s), on whatever connection is free
 * then, as many times as the limits allow. Transport-neutral; both clients share it.
 */
public final class RetryPolicy
{
    /** The longest a {@code --retry-429} waits, whatever {@code Retry-After} says. */
    static final long MAX_RETRY_WAIT_MS = 60_000;
    /** The wait when the server gave no (understood) {@code Retry-After}. */
    static final long DEFAULT_RETRY_WAIT_MS = 1_000;

    private RetryPolicy()
    {
    }

    /** @return whether an answer with {@code status} carries a {@code Retry-After} worth reading. */
    public static boolean readsRetryAfter(final int status)
    {
        return status == 429 || status == 503;
    }

    /** @return whether a request answered {@code status} after {@code retriesSoFar} retries is sent again. */
    public static boolean retries(final int status, final int retriesSoFar, final RequestLimits limits)
    {
        return status == 429 && retriesSoFar < limits.retries429();
    }

    /** @return the wait before the next send, ns, from the parsed {@code Retry-After} (-1: none). */
    public static long delayNs(final long retryAfterMs)
    {
        final long ms = retryAfterMs >= 0 ? Math.min(retryAfterMs, MAX_RETRY_WAIT_MS) : DEFAULT_RETRY_WAIT_MS;
        return ms * 1_000_000L;
    }

    /** @return {@link #retryAfterMs(String, Instant)} from the wall clock's now. */
    public static long retryAfterMs(final String value)
    {
        return retryAfterMs(value, Instant.now());
    }

    /**
     * @return a {@code Retry-After} value in ms: delay-seconds, or an HTTP date (from {@code now}); -1 when absent or
     * not understood.
     */
    public static long retryAfterMs(final String value, final Instant now)
    {
        if (value == null || value.isBlank())
        {
            return -1;
        }
        final String v = value.trim();
        try
        {
            return Math.max(0, Math.round(Double.parseDouble(v) * 1e3));
        }
        catch (final NumberFormatException notSeconds)
        {
            try
            {
                final ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
                return Math.max(0, Duration.between(now, at.toInstant()).toMillis());
            }
            catch (final DateTimeParseException notDate)
            {
                return -1;
            }
        }
    }
}
