package io.tokenclock.transport;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Locale;

import io.netty.channel.ConnectTimeoutException;

import io.tokenclock.recording.ErrorClass;
import io.tokenclock.text.UntrustedText;

/**
 * What went wrong with a request, as a class and one line: the one place where failures (a connect that did not
 * happen, a read or write that failed, an answer that is not an event stream) become {@link ErrorClass}es. Both
 * transports call it; each rule is one method, tried in a fixed order, so that a new class is one more rule.
 */
public final class ErrorClassifier
{
    /** A failure's class and the one line that explains it. */
    public record Classified(ErrorClass error, String detail)
    {
    }

    private ErrorClassifier()
    {
    }

    /**
     * A connection that did not open. Rules in order: the connect timeout, TLS, a refused or unroutable address,
     * anything else (a client error).
     */
    public static Classified connectFailure(final Throwable cause, final RequestLimits limits)
    {
        if (connectTimedOut(cause))
        {
            return new Classified(ErrorClass.TIMEOUT_CONNECT, "not connected within --connect-timeout " +
                limits.connectNs() / 1e9 + " s");
        }
        final String tls = TlsTrust.explain(cause);
        if (tls != null)
        {
            return new Classified(ErrorClass.TLS, tls);
        }
        if (isConnectFailure(cause))
        {
            return new Classified(ErrorClass.CONNECT, describe(cause));
        }
        if (outOfDescriptors(cause))
        {
            return new Classified(ErrorClass.CLIENT_LIMIT, describe(cause));
        }
        return new Classified(ErrorClass.CLIENT_ERROR, describe(cause));
    }

    /**
     * @return whether the channel could not be created for want of a file descriptor: Netty's channel factory fails
     * with "Unable to create Channel" around the socket(2) error, "Too many open files" (EMFILE) or "Too many open
     * files in system" (ENFILE); the kernel client's socket() failure uses the same words.
     */
    static boolean outOfDescriptors(final Throwable cause)
    {
        for (Throwable t = cause; t != null; t = t.getCause())
        {
            final String m = t.getMessage();
            if (m != null && (m.contains("Unable to create Channel") || m.contains("Too many open files") ||
                m.contains("EMFILE") || m.contains("ENFILE")))
            {
                return true;
            }
        }
        return false;
    }

    /** A read of a request in flight failed (an exception on the connection): TLS, or the stream was cut. */
    public static Classified readFailure(final Throwable cause)
    {
        final String tls = TlsTrust.explain(cause);
        return tls != null ? new Classified(ErrorClass.TLS, tls) : new Classified(ErrorClass.STREAM_CUT,
            cause.getClass().getSimpleName() + ": " + UntrustedText.oneLine(cause.getMessage()));
    }

    /** Writing the request failed: TLS, or the stream was cut. */
    public static Classified writeFailure(final Throwable cause)
    {
        final String tls = TlsTrust.explain(cause);
        return tls != null ? new Classified(ErrorClass.TLS, tls) :
            new Classified(ErrorClass.STREAM_CUT, "write failed: " + describe(cause));
    }

    /** @return whether a response head says the answer is JSON, not an event stream (the server ignored stream). */
    public static boolean notStreaming(final int status, final String contentType)
    {
        return status == 200 && contentType != null && contentType.toLowerCase(Locale.ROOT).contains("json");
    }

    /** @return whether a response's body is kept as text to explain it, rather than framed as events. */
    public static boolean keepsBody(final int status, final boolean notStreaming)
    {
        return status != 200 || notStreaming;
    }

    /**
     * A response that ended (its last byte read) and is not retried.
     *
     * @param body the text kept by {@link #keepsBody} (its first KiB), or null when the body was an event stream.
     */
    public static Classified completed(final int status, final boolean notStreaming, final CharSequence body)
    {
        if (notStreaming)
        {
            return new Classified(ErrorClass.NOT_STREAMING, "HTTP 200 with a JSON body, not an event stream (the " +
                "server ignored stream: true): " + UntrustedText.oneLine(String.valueOf(body)));
        }
        if (body != null)
        {
            return new Classified(ErrorClass.ofHttpStatus(status), "HTTP " + status + ": " +
                UntrustedText.oneLine(body.toString()));
        }
        return new Classified(ErrorClass.NONE, null);
    }

    /** @return whether a connect failed on its timeout (Netty's, or the kernel client's). */
    static boolean connectTimedOut(final Throwable cause)
    {
        for (Throwable t = cause; t != null; t = t.getCause())
        {
            if (t instanceof ConnectTimeoutException)
            {
                return true;
            }
        }
        return false;
    }

    private static boolean isConnectFailure(final Throwable cause)
    {
        for (Throwable t = cause; t != null; t = t.getCause())
        {
            if (t instanceof ConnectException || t instanceof UnresolvedAddressException ||
                t instanceof UnknownHostException || t instanceof NoRouteToHostException)
            {
                return true;
            }
        }
        return false;
    }

    /** @return the failure's type and message, on one line. */
    static String describe(final Throwable cause)
    {
        if (cause == null)
        {
            return "unknown failure";
        }
        final String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
