package io.tokenclock.transport;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

import io.tokenclock.recording.RequestSlot;

/**
 * Which requests are sent again, and after how long; transport-neutral, both clients share it.
 * <ul>
 * <li>{@code --retry-429}: a request answered 429 is not ended but sent again after the server's {@code Retry-After}
 * (1 s when it gave none, at most 60 s), on whatever connection is free then, as many times as the limits allow.</li>
 * <li>A stale connection ({@link #resendsOnNewConnection}): a request that went out on a kept-alive connection which
 * then closed, or was reset, before any byte of the answer is sent once more, at once, on a new connection.</li>
 * </ul>
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

    /**
     * Whether a request whose connection closed (or was reset, or refused the write) is sent once more on a new
     * connection rather than ended as {@code stream_cut}: only when the connection was one kept from before (a reused
     * or pre-opened one, not opened for this request), no byte of an answer came, and it was not resent already.
     * <p>
     * Why: a server may close a kept-alive connection just as the client reuses it. llama.cpp's server closes every
     * connection after a streamed response although its head said keep-alive (cpp-httplib ends the connection when a
     * stream's provider returns false); a client that reuses it at once sends into a closing socket, and 9 of 30
     * requests were lost so (issue 40). A server that closed without answering has not produced anything for the
     * request, so it is sent again, as browsers and HTTP client libraries do (RFC 9112, 9.3.1), once: a request
     * whose new connection closes too is the server's failure, and ends {@code stream_cut}. It keeps its intended
     * start, so TTFT from schedule includes the lost send, while TTFT counts from the new send; it is counted
     * ({@code stale_connection_resends}).
     *
     * @param nothingReceived whether no byte of the response came on the connection.
     */
    public static boolean resendsOnNewConnection(final RequestSlot slot, final boolean nothingReceived)
    {
        return nothingReceived && !slot.newConnection && slot.staleResends == 0;
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
