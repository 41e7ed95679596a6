package io.tokenclock.workload;

/**
 * How a multi-turn session's next turn carries the conversation so far ({@code workload.sessions.chain}).
 */
public enum SessionChain
{
    /** Every turn resends the whole conversation: earlier user messages and the answers the server gave. */
    HISTORY,
    /**
     * The Responses API's server-side state: a turn sends only its new user message and the id of the session's last
     * response ({@code previous_response_id}); the server holds the rest. The prompt the server processes is still
     * the whole conversation, so the input-token hint stays the conversation's.
     */
    PREVIOUS_RESPONSE_ID
}
