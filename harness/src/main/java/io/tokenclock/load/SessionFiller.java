package io.tokenclock.load;

/**
 * Builds the turns of simulated users' sessions (user-centric load: multi-turn chat, tool-using agents). Called on
 * the load generator's thread only.
 */
public interface SessionFiller
{
    /**
     * @param user     the user, 0-based.
     * @param previous how the user's previous turn ended, or null for the user's very first turn.
     * @param dueNs    when this turn is due (its intended start), on the run's clock.
     * @return the user's next turn, its whole conversation history included in the body.
     */
    BuiltRequest nextTurn(int user, TurnResult previous, long dueNs);

    /**
     * @return how long after {@code previous} ended the user's next turn is due, ns: a think time, or for an agent
     * the simulated tool's latency; or -1 when the filler will tell the generator itself when the user is ready
     * (tools run as real commands), by handing the same result to {@code onUserTurnEnded} again.
     */
    long delayNs(int user, TurnResult previous);

    /**
     * Takes in a turn that ended after the generator stopped: counted, never followed by another. Called once per such
     * turn, after the generator's thread stopped.
     */
    default void settle(final int user, final TurnResult ended)
    {
    }
}
