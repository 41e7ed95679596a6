package io.tokenclock.transport;

/**
 * The limits one request runs under, each classified apart when it runs out: opening the connection
 * ({@code timeout_connect}), the first byte of the response after the send ({@code timeout_first_byte}), silence
 * between two reads mid-response ({@code timeout_idle}), the whole request from send to end ({@code timeout_total}),
 * and the bytes a server may make the client hold: one SSE event, and the answer's text kept per request (both
 * {@code oversize}). A time of 0 means no limit. Immutable.
 * <p>
 * Why byte limits: a client's memory grows with what a server sends. Without them, 16 streams of 10 MB lines took
 * 1.4 GiB of heap; a benchmark client must not be the thing a misbehaving server takes down.
 *
 * @param connectNs      opening a TCP (and TLS) connection, ns.
 * @param firstByteNs    send to the first byte of the response, ns.
 * @param idleNs         the longest silence between reads once the response has started, ns.
 * @param totalNs        send to the end of the response, ns.
 * @param maxEventBytes  the longest SSE event (or line) kept, bytes.
 * @param maxOutputBytes the most answer text (content, reasoning, tool calls, each) kept per request, bytes.
 * @param retries429     how many times a request answered 429 is sent again after its Retry-After (0: never).
 */
public record RequestLimits(long connectNs, long firstByteNs, long idleNs, long totalNs, int maxEventBytes,
    int maxOutputBytes, int retries429)
{
    /** The defaults of {@code tokenclock run}: 10 s to connect, 600 s in all, 1 MiB events, 16 MiB of text. */
    public static final RequestLimits DEFAULT = of(10, 0, 0, 600, 1 << 20, 16 << 20, 0);

    public RequestLimits
    {
        if (connectNs < 0 || firstByteNs < 0 || idleNs < 0 || totalNs < 0)
        {
            throw new IllegalArgumentException("timeouts must be >= 0");
        }
        if (maxEventBytes < 1024 || maxOutputBytes < 1024)
        {
            throw new IllegalArgumentException("--max-event-bytes and --max-output-bytes must be >= 1024");
        }
        if (retries429 < 0)
        {
            throw new IllegalArgumentException("--retry-429 must be >= 0");
        }
    }

    /** @return limits from seconds (0 for none) and bytes. */
    public static RequestLimits of(final double connectS, final double firstByteS, final double idleS,
        final double totalS, final int maxEventBytes, final int maxOutputBytes, final int retries429)
    {
        return new RequestLimits(ns(connectS), ns(firstByteS), ns(idleS), ns(totalS), maxEventBytes,
            maxOutputBytes, retries429);
    }

    private static long ns(final double seconds)
    {
        return Math.round(seconds * 1e9);
    }
}
