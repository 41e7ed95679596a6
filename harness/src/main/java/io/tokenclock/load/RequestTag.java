package io.tokenclock.load;

/**
 * Where a request stands in the unit of work it belongs to, for {@code requests.jsonl} and the per-session and
 * per-task figures: a session trace's turn, or an agent task's step. Built once per request (never per chunk).
 *
 * @param sessionId         the trace's own session id, or null.
 * @param turn              the turn in the session, 0-based, or -1.
 * @param task              the agent task's run-wide number, or -1.
 * @param step              the step in the task, 0-based, or -1.
 * @param idealCachedTokens prompt tokens an infinite prefix cache would have held (blocks seen before in the run, a
 *                          session's history), or -1 when the workload cannot say.
 */
public record RequestTag(String sessionId, int turn, long task, int step, long idealCachedTokens)
{
    /** No session, no task. */
    public static final RequestTag NONE = new RequestTag(null, -1, -1, -1, -1);

    /** @return a session trace's turn. */
    public static RequestTag turn(final String sessionId, final int turn, final long idealCachedTokens)
    {
        return new RequestTag(sessionId, turn, -1, -1, idealCachedTokens);
    }

    /** @return an agent task's step. */
    public static RequestTag step(final long task, final int step)
    {
        return new RequestTag(null, -1, task, step, -1);
    }

    /** @return this tag with {@code tokens} as its ideal cached tokens (counted as the request is sent). */
    public RequestTag withIdealCachedTokens(final long tokens)
    {
        return new RequestTag(sessionId, turn, task, step, tokens);
    }

    /** @return an independent request (no session) whose ideal cached tokens are known (a trace without sessions). */
    public static RequestTag ideal(final long idealCachedTokens)
    {
        return new RequestTag(null, -1, -1, -1, idealCachedTokens);
    }
}
