package io.tokenclock.transport;

import io.tokenclock.api.Api;
import io.tokenclock.clock.NanoClock;
import io.tokenclock.recording.ChunkRecords;
import io.tokenclock.recording.ErrorClass;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.StreamRecorder;

/**
 * One request and its response on one connection, whatever read and stamped the bytes: everything a transport does
 * after a read is stamped, written once for every transport. It starts the request ({@link #begin}: the send stamp,
 * the connection's number, whether it was new), decodes each read's bytes with {@link HttpResponseDecoder}, takes the
 * response's head ({@link ResponseHead}: status, {@code Retry-After}, a JSON answer to a streaming request, the
 * error body), hands the body with the read's stamp to the {@link StreamRecorder} (SSE framing, usage, the records),
 * keeps the time limits ({@link Deadlines}), and ends the request as {@link ErrorClassifier} classes it: at the
 * response's end, sent again after a 429 ({@link RetryPolicy}), sent again once on a new connection when a kept one
 * turned out stale, or ended by a limit, a cancellation, a failed read or write, or the peer's close.
 * <p>
 * What a transport adds is a reader and a connection owner. The reader stamps each read ({@link #stamped}) and
 * hands its bytes here ({@link #read}); its {@link Connection} arms the transport's own timers and keeps or closes
 * the socket, and its {@link Owner} (the client's pool, an I/O loop) sends a request again elsewhere. Netty's {@link ResponseHandler} and the kernel-stamped
 * {@link KernelConnection} are the two so far.
 * <p>
 * Worked example: a kept connection carries a request; {@link #begin} stamps {@code sentNs}; the server closed the
 * connection while it was idle, so the read returns the end of the stream before any byte of the answer: the reader
 * calls {@link #closedByPeer}, which finds the response {@linkplain HttpResponseDecoder#untouched untouched}, detaches
 * the request from this connection, counts a stale resend and asks the owner to send it on a new one; the
 * request's permit stays taken and its intended start stays the first one.
 * <p>
 * One per connection, reused by each request it carries. The connection's I/O thread only; nothing here allocates
 * per read.
 */
final class Exchange implements HttpResponseDecoder.Sink
{
    /**
     * What an exchange asks of the connection that carries it and of the client that owns that connection: the part
     * of a transport that is not reading and stamping. Called on the connection's I/O thread.
     */
    interface Connection
    {
        /**
         * A request starts: arm its timers, the first limit from {@code armedNs} ({@link #nextDeadlineNs}), and the
         * request's cancellation rule ({@link RequestSlot#cancelAfterNs}, 0 for none) from the same instant.
         */
        void arm(RequestSlot slot, long armedNs);

        /** The request's first read: its idle limit now counts, and may be the earliest ({@link #nextDeadlineNs}). */
        void firstRead();

        /**
         * The request is no longer this connection's: stop its timers and settle what the transport keeps per request.
         *
         * @param resending whether it goes out again on a new connection (a stale kept connection).
         */
        void requestEnded(boolean resending);

        /** A response ended: keep the connection for the next request when {@code keepAlive}, else close it. */
        void reuseOrClose(boolean keepAlive);

        /** Closes the connection; a request still in flight on it has been ended or detached. */
        void close();
    }

    /**
     * What an exchange asks of whatever owns its connection (a client's pool, an I/O loop): to send a request again
     * elsewhere. Thread: the connection's I/O thread.
     */
    interface Owner
    {
        /** Sends {@code slot} again after {@code delayNs} (a 429 under {@code --retry-429}), on any connection. */
        void retryLater(RequestSlot slot, long delayNs);

        /** Sends {@code slot} on a connection opened for it, never an idle one (a resend after a stale connection). */
        void sendOnNewConnection(RequestSlot slot);
    }

    private final NanoClock clock;
    private final StreamRecorder recorder;
    private final Connection connection;
    private final Owner owner;
    private final HttpResponseDecoder decoder = new HttpResponseDecoder();
    /** The limits of the request in flight, counted from its send stamp and its last read. */
    private final Deadlines deadlines = new Deadlines();
    private final ResponseHead head;
    private RequestLimits limits = RequestLimits.DEFAULT;
    private boolean active;
    private int requestsCarried;
    /** Opened before t0 (pre-connection): its first request did not wait for a connect or a handshake. */
    private boolean preopened;
    /** The stamp of the last read, on the run's clock. */
    private long lastReadNs;

    /**
     * @param limits     the per-request limits whose event and output caps size the recorder.
     * @param api        the API, whose grammar parses the events and which says whether its answers stream.
     * @param connection the transport's side of this connection.
     * @param owner      what owns the connection.
     */
    Exchange(final NanoClock clock, final ChunkRecords records, final RequestLimits limits, final Api api,
        final Connection connection, final Owner owner)
    {
        this.clock = clock;
        this.recorder = new StreamRecorder(records, api.newParser(), limits.maxEventBytes(), limits.maxOutputBytes());
        this.head = new ResponseHead(api.streamed());
        this.connection = connection;
        this.owner = owner;
    }

    /** Marks the connection as opened ahead of any request. Before its first request. */
    void markPreopened()
    {
        preopened = true;
    }

    /**
     * Starts {@code slot}'s request on this connection, once its bytes are ready to be written: the timers are armed,
     * then the send stamp is taken, from which the limits count (armed a microsecond before).
     *
     * @param connectionNumber the run's number of this connection ({@code requests.jsonl} {@code connection}).
     * @return the send stamp.
     */
    long begin(final RequestSlot slot, final RequestLimits limits, final int connectionNumber)
    {
        active = true;
        this.limits = limits;
        head.reset();
        decoder.reset();
        recorder.begin(slot);
        slot.connectionId = connectionNumber;
        slot.newConnection = requestsCarried++ == 0 && !preopened;
        final long armedNs = clock.nanoTime();
        deadlines.start(limits, armedNs);
        connection.arm(slot, armedNs);
        final long sentNs = clock.nanoTime();
        slot.sentNs = sentNs;
        lastReadNs = sentNs;
        deadlines.resend(sentNs);
        return sentNs;
    }

    /** @return whether a request is in flight on this connection. */
    boolean active()
    {
        return active;
    }

    /** @return the request in flight, or the last one. */
    RequestSlot slot()
    {
        return recorder.slot();
    }

    /** @return the content chunks published over every request of this connection (a transport counts per read). */
    long contentChunksEver()
    {
        return recorder.contentChunksEver();
    }

    /** @return the content chunks of the request in flight. */
    int contentChunks()
    {
        return recorder.contentChunks();
    }

    /** @return the stamp of the last read, or the send stamp before the first. */
    long lastReadNs()
    {
        return lastReadNs;
    }

    /** A read was stamped {@code readNs}, on the run's clock: its bytes follow ({@link #read}). */
    void stamped(final long readNs)
    {
        lastReadNs = readNs;
    }

    /**
     * One read's bytes (over https, its plaintext), {@code src[offset, offset + length)}, stamped by {@link #stamped}.
     * Bytes on an idle connection belong to no request: the server misbehaves, and the connection is closed.
     */
    void read(final byte[] src, final int offset, final int length)
    {
        if (!active)
        {
            connection.close();
            return;
        }
        if (deadlines.onRead())
        {
            connection.firstRead();
        }
        decoder.decode(src, offset, length, this);
        if (active && decoder.failure() != null)
        {
            abort(ErrorClass.PROTOCOL, decoder.failureDetail());
        }
    }

    @Override
    public void head(final int status, final String contentType, final String retryAfter, final boolean keepAlive)
    {
        head.accept(recorder.slot(), lastReadNs, status, contentType, retryAfter, keepAlive);
    }

    @Override
    public void body(final byte[] src, final int offset, final int length)
    {
        if (!active)
        {
            return;
        }
        final ErrorClass stop = head.body(recorder, src, offset, length, lastReadNs);
        if (stop != ErrorClass.NONE)
        {
            abort(stop, recorder.stopDetail(stop));
        }
    }

    /**
     * The response's last byte. The connection goes back to the pool before the end is published: the end frees the
     * request's permit, and a closed loop refilling at once must find this connection idle rather than open a new one.
     */
    @Override
    public void end()
    {
        if (!active)
        {
            return;
        }
        final RequestSlot slot = recorder.slot();
        if (RetryPolicy.retries(head.status(), slot.retries429, limits))
        {
            retryLater(slot);
            return;
        }
        final ErrorClassifier.Classified outcome = head.completed();
        connection.requestEnded(false);
        active = false;
        connection.reuseOrClose(head.keepAlive());
        recorder.finish(lastReadNs, outcome.error(), outcome.detail());
    }

    /**
     * {@code --retry-429} ({@link RetryPolicy}): the request is not ended but sent again later, on whatever connection
     * is free then. Its permit stays taken meanwhile, its intended start stays the first one (so TTFT from schedule
     * includes the waits), its send stamp becomes the last send's, and its retries are counted.
     */
    private void retryLater(final RequestSlot slot)
    {
        connection.requestEnded(false);
        active = false;
        recorder.detach();
        slot.retries429++;
        slot.httpStatus = 0;
        connection.reuseOrClose(head.keepAlive());
        owner.retryLater(slot, RetryPolicy.delayNs(slot.retryAfterMs));
    }

    /** Ends the request in flight, if any, with {@code error}, and closes the connection. */
    void abort(final ErrorClass error, final String detail)
    {
        if (active)
        {
            finish(clock.nanoTime(), error, detail);
            connection.close();
        }
    }

    /** The request's cancellation rule ({@link RequestSlot#cancelAfterNs}) came due. */
    void cancelByRule()
    {
        abort(ErrorClass.CANCEL_RULE, StreamRecorder.CANCEL_RULE_DETAIL);
    }

    /** @return the earliest limit of the request in flight, on the run's clock; {@link Long#MAX_VALUE} when none. */
    long nextDeadlineNs()
    {
        return active ? deadlines.nextNs(lastReadNs) : Long.MAX_VALUE;
    }

    /**
     * Ends the request in flight when one of its limits has run out at {@code nowNs}.
     *
     * @return whether one had.
     */
    boolean expire(final long nowNs)
    {
        final ErrorClass expired = active ? deadlines.expired(nowNs, lastReadNs) : ErrorClass.NONE;
        if (expired == ErrorClass.NONE)
        {
            return false;
        }
        abort(expired, deadlines.detail(expired));
        return true;
    }

    /** The request's write failed: sent again on a new connection if this one was stale, else ended as the failure. */
    void writeFailed(final Throwable cause)
    {
        if (!resentOnNewConnection())
        {
            final ErrorClassifier.Classified failure = ErrorClassifier.writeFailure(cause);
            abort(failure.error(), failure.detail());
        }
    }

    /**
     * The peer closed the connection: the request in flight is sent again if the connection was stale, else a body
     * that runs until the close ends here, and anything short of that is a protocol error or a cut stream.
     */
    void closedByPeer()
    {
        if (resentOnNewConnection())
        {
            return;
        }
        if (active)
        {
            decoder.onClose(this);
        }
        if (active && decoder.failure() != null)
        {
            finish(clock.nanoTime(), ErrorClass.PROTOCOL, decoder.failureDetail());
        }
        if (active)
        {
            finish(clock.nanoTime(), ErrorClass.STREAM_CUT, "connection closed before the response ended");
        }
    }

    /**
     * The request in flight went out on a kept connection that closed before any byte of its answer: it is sent again
     * on a new connection, once ({@link RetryPolicy#resendsOnNewConnection}), and this one is closed.
     *
     * @return whether it was; false leaves the request to end as the caller says.
     */
    boolean resentOnNewConnection()
    {
        if (!active || !RetryPolicy.resendsOnNewConnection(recorder.slot(), decoder.untouched()))
        {
            return false;
        }
        final RequestSlot slot = recorder.slot();
        connection.requestEnded(true);
        active = false;
        recorder.detach();
        slot.staleResends++;
        connection.close();
        owner.sendOnNewConnection(slot);
        return true;
    }

    /** Ends the request in flight with its outcome, stamped {@code endNs}; the connection stays as it is. */
    private void finish(final long endNs, final ErrorClass error, final String detail)
    {
        connection.requestEnded(false);
        active = false;
        recorder.finish(endNs, error, detail);
    }
}
