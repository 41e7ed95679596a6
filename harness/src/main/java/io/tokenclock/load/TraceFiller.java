package io.tokenclock.load;

/**
 * Builds the turns of a trace's sessions, which bring their own schedule: a session opens at its own time (or, in a
 * closed loop, when another one closes), each later turn is due a delay after the previous one ended, and a turn may
 * start subagents that run beside it. The filler says what is due when; {@link TraceSessionDriver} sends it. Called on
 * the load generator's thread only.
 */
public interface TraceFiller
{
    /** Where the filler puts what falls due. */
    interface Schedule
    {
        /** Session {@code handle}'s next turn is due at {@code dueNs} on the run's clock. */
        void due(int handle, long dueNs);

        /** A session opened by {@link #open} has ended, with every subagent it started. */
        void closed();
    }

    /**
     * @return when the next session not yet opened is due to open, ns after the run's start (the trace's own time
     * divided by its speed-up), or -1 when every session has opened.
     */
    long nextOpeningNs();

    /** Opens the next session at {@code dueNs}: schedules its first turn (and any subagent due at its start). */
    void open(long dueNs, Schedule schedule);

    /** Passes over the next session without opening it: another shard's, which that shard replays. */
    void skip();

    /**
     * @return session {@code handle}'s turn that is due at {@code dueNs}, its history included; asked for as soon as
     * the turn falls due (before its time), once.
     */
    BuiltRequest nextTurn(int handle, long dueNs);

    /**
     * Session {@code handle}'s turn, built by {@link #nextTurn}, is being sent now; a turn the run ends before sending
     * (its window, its request count, a stop) never comes here. What depends on the order turns are sent in is counted
     * here, not when the turn was built: a turn is built when it falls due, ahead of its time, and turns of other
     * sessions (or of its subagents) due sooner may be built after it and sent before it.
     *
     * @return {@code built} as it is sent: its ideal cached tokens counted against the blocks sent before it.
     */
    BuiltRequest sending(int handle, BuiltRequest built);

    /** Session {@code handle}'s turn ended as {@code result}: schedules what follows, or closes the session. */
    void ended(int handle, TurnResult result, Schedule schedule);
}
