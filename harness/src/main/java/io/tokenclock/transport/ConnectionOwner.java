package io.tokenclock.transport;

import io.tokenclock.recording.RequestSlot;

/**
 * What a {@link ResponseHandler} asks of the client that owns its connection: the pool and the retry queue. An
 * interface so that the handler can be driven alone (in an {@code EmbeddedChannel}, on a hand-set clock).
 */
interface ConnectionOwner extends Exchange.Owner
{
    /** Writes {@code slot}'s request on the handler's connection. Event loop of that connection only. */
    void send(ResponseHandler handler, RequestSlot slot);

    /** A request on this connection ended cleanly: keep the connection for the next one, or close it. */
    void release(ResponseHandler handler);

    /** The request on this connection ended, whatever the outcome. */
    void onRequestEnded(ResponseHandler handler);
}
