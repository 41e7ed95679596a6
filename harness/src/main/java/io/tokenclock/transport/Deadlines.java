package io.tokenclock.transport;

import io.tokenclock.recording.ErrorClass;

/**
 * The time limits of the request in flight on one connection, as plain arithmetic on stamps of the run's clock: no
 * timer, no thread, no transport. A transport asks {@link #nextNs} when to look again and {@link #expired} whether a
 * limit has run out, and arms whatever timer it has (a Netty scheduled task, an epoll timeout). Both transports
 * share it, and tests step it with a hand-set clock.
 * <p>
 * Limits count from the send stamp (total, first byte) or from the last read (idle, once the response has started).
 * One instance per connection, reused by each request it carries. Single-threaded (the connection's I/O thread).
 */
public final class Deadlines
{
    private RequestLimits limits = RequestLimits.DEFAULT;
    private long sentNs;
    private boolean responded;

    /** Starts counting for a request sent at {@code sentNs} under {@code limits}. */
    public void start(final RequestLimits limits, final long sentNs)
    {
        this.limits = limits;
        this.sentNs = sentNs;
        this.responded = false;
    }

    /** Moves the send stamp (the stamp taken after the timer was armed); the limits stay. */
    public void resend(final long sentNs)
    {
        this.sentNs = sentNs;
    }

    /**
     * Notes a read of the response.
     *
     * @return true only for the first read of the request while an idle limit is set: the next deadline may now be
     * earlier, so the caller re-arms its timer.
     */
    public boolean onRead()
    {
        if (responded)
        {
            return false;
        }
        responded = true;
        return limits.idleNs() > 0;
    }

    /** @return whether any byte of the response has been read. */
    public boolean responded()
    {
        return responded;
    }

    /** @return the earliest deadline still open, on the run's clock; {@link Long#MAX_VALUE} when none. */
    public long nextNs(final long lastReadNs)
    {
        final RequestLimits t = limits;
        long next = t.totalNs() > 0 ? sentNs + t.totalNs() : Long.MAX_VALUE;
        if (!responded && t.firstByteNs() > 0)
        {
            next = Math.min(next, sentNs + t.firstByteNs());
        }
        if (responded && t.idleNs() > 0)
        {
            next = Math.min(next, lastReadNs + t.idleNs());
        }
        return next;
    }

    /**
     * @return the limit that has run out at {@code nowNs} (total first, then first byte, then idle), or
     * {@link ErrorClass#NONE} when none has.
     */
    public ErrorClass expired(final long nowNs, final long lastReadNs)
    {
        final RequestLimits t = limits;
        if (t.totalNs() > 0 && nowNs - sentNs >= t.totalNs())
        {
            return ErrorClass.TIMEOUT_TOTAL;
        }
        if (!responded && t.firstByteNs() > 0 && nowNs - sentNs >= t.firstByteNs())
        {
            return ErrorClass.TIMEOUT_FIRST_BYTE;
        }
        if (responded && t.idleNs() > 0 && nowNs - lastReadNs >= t.idleNs())
        {
            return ErrorClass.TIMEOUT_IDLE;
        }
        return ErrorClass.NONE;
    }

    /** @return the one line that explains a timeout class this returned from {@link #expired}. */
    public String detail(final ErrorClass timeout)
    {
        final RequestLimits t = limits;
        return switch (timeout)
        {
            case TIMEOUT_TOTAL -> "no complete response within --timeout " + t.totalNs() / 1e9 + " s";
            case TIMEOUT_FIRST_BYTE -> "no byte of the response within --first-byte-timeout " + t.firstByteNs() / 1e9 +
                " s";
            case TIMEOUT_IDLE -> "the response went silent for --idle-timeout " + t.idleNs() / 1e9 + " s mid-stream";
            default -> null;
        };
    }
}
