package io.tokenclock.load;

/**
 * Builds the turns of simulated users' multi-turn sessions (user-centric load). Called on the load generator's thread
 * only.
 */
public interface SessionFiller
{
    /**
     * @param user           the user, 0-based.
     * @param previousAnswer the text of the user's previous answer, or null when the user starts a new session (or the
     *                       previous turn failed).
     * @return the body of the user's next turn, its whole conversation history included.
     */
    byte[] nextTurn(int user, String previousAnswer);

    /** @return the approximate prompt length of the last turn built, in tokens, or -1. */
    int promptTokensHint();

    /** @return how long the user thinks before the next turn, ns (after the previous answer ended). */
    long thinkNs(int user);
}
