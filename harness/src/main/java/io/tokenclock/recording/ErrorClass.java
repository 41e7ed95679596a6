package io.tokenclock.recording;

/**
 * Why a request did not end {@code ok}. The lower-case {@link #label()} is what {@code requests.jsonl} and the
 * summary print; labels are a public format and change only on purpose.
 */
public enum ErrorClass
{
    NONE("none"),
    /** The connection could not be opened (refused, unreachable, DNS). */
    CONNECT("connect_error"),
    /** HTTP 429: the server shed load. */
    HTTP_429("http_429"),
    /** Any other 4xx: the request was rejected (bad model name, bad URL, auth). */
    HTTP_4XX("http_4xx"),
    /** HTTP 5xx. */
    HTTP_5XX("http_5xx"),
    /** A status that is neither 200 nor 4xx/5xx. */
    HTTP_OTHER("http_other"),
    /** The connection closed, or failed, before the response body ended. */
    STREAM_CUT("stream_cut"),
    /** An event's data was not a well-formed chunk (a token may have been lost). */
    MALFORMED_EVENT("malformed_event"),
    /** The stream carried an {@code error} object or an {@code event: error}. */
    ERROR_EVENT("error_event"),
    /** The response ended cleanly but carried no generated token. */
    NO_CONTENT("no_content"),
    /** The connection was not open within {@code --connect-timeout}. */
    TIMEOUT_CONNECT("timeout_connect"),
    /** No byte of the response arrived within {@code --first-byte-timeout} of the send. */
    TIMEOUT_FIRST_BYTE("timeout_first_byte"),
    /** The response went silent mid-stream for {@code --idle-timeout}. */
    TIMEOUT_IDLE("timeout_idle"),
    /** The request outlived {@code --timeout} from send to end and was aborted. */
    TIMEOUT_TOTAL("timeout_total"),
    /** Aborted by the harness (end of the drain period) rather than failed by the server. */
    CANCELLED("cancelled"),
    /** Cancelled on purpose by the workload's cancellation rule (after T ms or K tokens), as a user would. */
    CANCEL_RULE("cancel_rule"),
    /** The harness itself failed to send the request. */
    CLIENT_ERROR("client_error"),
    /**
     * The stream ended cleanly (the response was complete) after some tokens, but with neither a
     * {@code finish_reason} nor {@code [DONE]}: the answer may have been cut short, so its tokens are not trusted
     * unless {@code --accept-truncated}.
     */
    TRUNCATED("truncated"),
    /** A stream was asked for, and the server answered 200 with a whole JSON body instead (it ignored stream). */
    NOT_STREAMING("not_streaming"),
    /** The server's reply was not HTTP (or not valid HTTP): nothing in it can be measured. */
    PROTOCOL("protocol"),
    /** The TLS handshake failed (an untrusted certificate, a protocol mismatch). */
    TLS("tls"),
    /** An SSE event longer than {@code --max-event-bytes}, or more answer text than {@code --max-output-bytes}. */
    OVERSIZE("oversize"),
    /**
     * The client could not open a connection for the request: it ran out of file descriptors (EMFILE, ENFILE;
     * Netty's "Unable to create Channel"). The client, not the server, was the limit.
     */
    CLIENT_LIMIT("client_limit");

    private static final ErrorClass[] VALUES = values();

    private final String label;

    ErrorClass(final String label)
    {
        this.label = label;
    }

    public String label()
    {
        return label;
    }

    public static ErrorClass of(final int ordinal)
    {
        return VALUES[ordinal];
    }

    public static int count()
    {
        return VALUES.length;
    }

    /**
     * @return whether a request that ended so, with no byte of an answer, was refused before the server did any work
     * on its prompt: it never reached the server (connect, TLS, the harness's own failure), or the server turned it
     * away at the door (429, any other 4xx). Every other failure (a 5xx, a timeout, a cut stream) is counted as work
     * wasted: the server may have prefilled the prompt, and the cost report says it counts it.
     */
    public boolean refusedBeforeWork()
    {
        return switch (this)
        {
            case CONNECT, TIMEOUT_CONNECT, TLS, CLIENT_ERROR, HTTP_429, HTTP_4XX, PROTOCOL -> true;
            default -> false;
        };
    }

    /** Classifies a non-200 HTTP status. */
    public static ErrorClass ofHttpStatus(final int status)
    {
        if (status == 429)
        {
            return HTTP_429;
        }
        if (status >= 400 && status < 500)
        {
            return HTTP_4XX;
        }
        if (status >= 500 && status < 600)
        {
            return HTTP_5XX;
        }
        return HTTP_OTHER;
    }
}
