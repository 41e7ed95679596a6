package io.tokenclock.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;

import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.Test;

import io.netty.channel.ConnectTimeoutException;

import io.tokenclock.recording.ErrorClass;

/** Each failure becomes one class and one line, the same for both transports. */
final class ErrorClassifierTest
{
    @Test
    void shouldClassifyConnectFailuresInOrderTimeoutTlsRefusedOther()
    {
        final RequestLimits limits = RequestLimits.DEFAULT;
        final ErrorClassifier.Classified timeout =
            ErrorClassifier.connectFailure(new IOException(new ConnectTimeoutException("slow")), limits);
        assertEquals(ErrorClass.TIMEOUT_CONNECT, timeout.error());
        assertTrue(timeout.detail().contains("--connect-timeout 10.0 s"), timeout.detail());
        assertEquals(ErrorClass.TLS, ErrorClassifier.connectFailure(
            new SSLHandshakeException("PKIX path building failed"), limits).error());
        assertEquals(ErrorClass.CONNECT,
            ErrorClassifier.connectFailure(new ConnectException("Connection refused"), limits).error());
        assertEquals(ErrorClass.CONNECT,
            ErrorClassifier.connectFailure(new IOException(new UnknownHostException("nowhere")), limits).error());
        final ErrorClassifier.Classified other =
            ErrorClassifier.connectFailure(new IllegalStateException("odd"), limits);
        assertEquals(ErrorClass.CLIENT_ERROR, other.error());
        assertEquals("IllegalStateException: odd", other.detail());
    }

    @Test
    void shouldCallAFailedReadOrWriteACutStreamUnlessItIsTls()
    {
        assertEquals(ErrorClass.STREAM_CUT, ErrorClassifier.readFailure(new IOException("reset")).error());
        assertEquals("IOException: reset", ErrorClassifier.readFailure(new IOException("reset")).detail());
        assertEquals(ErrorClass.TLS, ErrorClassifier.readFailure(new SSLHandshakeException("bad cert")).error());
        final ErrorClassifier.Classified write = ErrorClassifier.writeFailure(new IOException("broken pipe"));
        assertEquals(ErrorClass.STREAM_CUT, write.error());
        assertEquals("write failed: IOException: broken pipe", write.detail());
    }

    @Test
    void shouldTellAJsonAnswerFromAnEventStreamAndClassifyTheEnd()
    {
        assertTrue(ErrorClassifier.notStreaming(200, "application/JSON; charset=utf-8"));
        assertFalse(ErrorClassifier.notStreaming(200, "text/event-stream"));
        assertFalse(ErrorClassifier.notStreaming(500, "application/json"), "an error body is an error, not this");
        assertFalse(ErrorClassifier.notStreaming(200, null));
        assertTrue(ErrorClassifier.keepsBody(404, false) && ErrorClassifier.keepsBody(200, true));
        assertFalse(ErrorClassifier.keepsBody(200, false));

        assertEquals(ErrorClass.NOT_STREAMING, ErrorClassifier.completed(200, true, "{\"a\":1}").error());
        final ErrorClassifier.Classified http = ErrorClassifier.completed(503, false, "busy\nnow");
        assertEquals(ErrorClass.HTTP_5XX, http.error());
        assertEquals(1, http.detail().lines().count(), "one line: " + http.detail());
        assertEquals(ErrorClass.HTTP_429, ErrorClassifier.completed(429, false, "").error());
        final ErrorClassifier.Classified ok = ErrorClassifier.completed(200, false, null);
        assertEquals(ErrorClass.NONE, ok.error());
        assertNull(ok.detail());
    }
}
