package io.tokenclock.transport;

import java.nio.charset.StandardCharsets;

import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.StreamRecorder;

/**
 * What a response's head decided, for both transports: its status, whether the connection is kept, whether a 200 is
 * a JSON answer to a streaming request, the error body kept for the record, and {@code Retry-After}. The rules are
 * {@link ErrorClassifier}'s and {@link RetryPolicy}'s; this class only holds their answers for the request in
 * flight, for the {@link Exchange} of every transport.
 * <p>
 * Worked example: a {@code 429} with {@code Retry-After: 2} and a JSON body sets the slot's status and
 * {@code retryAfterMs} (2,000), keeps the first {@link #ERROR_BODY_LIMIT} bytes of the body here instead of handing
 * them to the recorder, and at the end either the retry policy sends the request again or {@link #completed()}
 * classes it {@code http_429} with that body as its detail.
 * <p>
 * One per connection, reused: {@link #reset} before each request. Event-loop thread only.
 */
final class ResponseHead
{
    /** The most bytes of an error body kept for the record's detail. */
    static final int ERROR_BODY_LIMIT = 1024;

    /** Whether the API streams: a whole JSON answer is then a server that ignored stream; else it is the answer. */
    private final boolean streamed;
    private int status;
    private boolean keepAlive;
    private boolean notStreaming;
    private StringBuilder errorBody;

    /** @param streamed whether the API's answers stream (chat and the others), or come whole (embeddings, rerank). */
    ResponseHead(final boolean streamed)
    {
        this.streamed = streamed;
    }

    void reset()
    {
        status = 0;
        keepAlive = true;
        notStreaming = false;
        errorBody = null;
    }

    /**
     * Takes the decoder's head. Stream setup ends with the read that carried it: {@code readNs}, its one stamp, no
     * new clock reading.
     */
    void accept(
        final RequestSlot slot, final long readNs, final int status, final String contentType, final String retryAfter,
        final boolean keepAlive)
    {
        this.status = status;
        this.keepAlive = keepAlive;
        slot.headersNs = readNs;
        slot.httpStatus = status;
        notStreaming = streamed && ErrorClassifier.notStreaming(status, contentType);
        if (ErrorClassifier.keepsBody(status, notStreaming))
        {
            errorBody = new StringBuilder();
        }
        if (RetryPolicy.readsRetryAfter(status))
        {
            slot.retryAfterMs = RetryPolicy.retryAfterMs(retryAfter);
        }
    }

    /**
     * Hands one span of the body on, stamped {@code readNs}: to the error body when this response's body is one,
     * else to {@code recorder}, which is then asked whether the request must end ({@link StreamRecorder#stopNow}).
     *
     * @return the class the request must end as now, or {@link ErrorClass#NONE} to read on.
     */
    ErrorClass body(
        final StreamRecorder recorder, final byte[] src, final int offset, final int length, final long readNs)
    {
        if (keptAsErrorBody(src, offset, length))
        {
            return ErrorClass.NONE;
        }
        recorder.onBytes(src, offset, length, readNs);
        return recorder.stopNow();
    }

    /**
     * Keeps {@code src[offset, offset + length)} as error body, up to the limit, when this response's body is one.
     *
     * @return whether it is (the bytes are then not a stream's, and go to no recorder).
     */
    private boolean keptAsErrorBody(final byte[] src, final int offset, final int length)
    {
        if (errorBody == null)
        {
            return false;
        }
        final int n = Math.min(length, ERROR_BODY_LIMIT - errorBody.length());
        if (n > 0)
        {
            errorBody.append(new String(src, offset, n, StandardCharsets.UTF_8));
        }
        return true;
    }

    int status()
    {
        return status;
    }

    boolean keepAlive()
    {
        return keepAlive;
    }

    /** @return how the response that ended normally is classed ({@link ErrorClassifier#completed}). */
    ErrorClassifier.Classified completed()
    {
        return ErrorClassifier.completed(status, notStreaming, errorBody);
    }
}
