package io.tokenclock.transport;

/**
 * The limits one request runs under, each classified apart when it runs out: opening the connection
 * ({@code timeout_connect}), the first byte of the response after the send ({@code timeout_first_byte}), silence
 * between two reads mid-response ({@code timeout_idle}), and the whole request from send to end
 * ({@code timeout_total}). 0 means no limit. Immutable.
 *
 * @param connectNs   opening a TCP (and TLS) connection, ns.
 * @param firstByteNs send to the first byte of the response, ns.
 * @param idleNs      the longest silence between reads once the response has started, ns.
 * @param totalNs     send to the end of the response, ns.
 */
public record Timeouts(long connectNs, long firstByteNs, long idleNs, long totalNs)
{
    /** Ten seconds to connect, 600 s in all, no first-byte or idle limit: the defaults of {@code tokenclock run}. */
    public static final Timeouts DEFAULT = ofSeconds(10, 0, 0, 600);

    public Timeouts
    {
        if (connectNs < 0 || firstByteNs < 0 || idleNs < 0 || totalNs < 0)
        {
            throw new IllegalArgumentException("timeouts must be >= 0");
        }
    }

    /** @return timeouts from seconds (0 for none). */
    public static Timeouts ofSeconds(final double connectS, final double firstByteS, final double idleS,
        final double totalS)
    {
        return new Timeouts(ns(connectS), ns(firstByteS), ns(idleS), ns(totalS));
    }

    private static long ns(final double seconds)
    {
        return Math.round(seconds * 1e9);
    }
}
