package io.tokenclock.load;

import java.nio.charset.StandardCharsets;

import io.tokenclock.recording.RequestSlot;

/**
 * A request as the sink saw it when it was submitted: a copy, since slots are reused.
 *
 * @param inFlight requests in flight once this one was added (as the test's sink counts them).
 * @param inUse    the pool's permits taken at submission: requests in flight plus permits the driver holds.
 */
record Sent(long id, int phase, long scheduledNs, long submitNs, int group, int user, int promptTokens, String body,
    int inFlight, int inUse)
{
    static Sent of(final RequestSlot slot, final int inFlight, final int inUse)
    {
        return new Sent(slot.requestId, slot.phase, slot.scheduledNs, slot.submitNs, slot.group, slot.user,
            slot.promptTokensHint, new String(slot.body, 0, slot.bodyLength, StandardCharsets.US_ASCII), inFlight,
            inUse);
    }
}
