package io.tokenclock.framing;

/**
 * Receives the events that {@link SseFramer} frames out of a byte stream.
 * <p>
 * Called on the thread that feeds the framer (the transport's I/O thread): implementations must not block and, on
 * the hot path, must not allocate. The {@code data} array is the framer's own buffer and is only valid for the
 * duration of the call: copy what must be kept.
 */
@FunctionalInterface
public interface SseEventHandler
{
    /**
     * One complete SSE event with at least one {@code data} field.
     *
     * @param data      the framer's buffer holding the event's data (several data lines joined by {@code '\n'}).
     * @param offset    where the data starts in {@code data}.
     * @param length    the data's length in bytes.
     * @param errorType true when the event named itself {@code event: error}.
     * @param arrivalNs the stamp of the network read that completed the event.
     */
    void onEvent(byte[] data, int offset, int length, boolean errorType, long arrivalNs);
}
