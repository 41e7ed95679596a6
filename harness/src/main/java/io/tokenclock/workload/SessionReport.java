package io.tokenclock.workload;

import org.HdrHistogram.Histogram;

/**
 * What a session trace's sessions did: how many opened and closed, their turns, each closed session's e2e (its first
 * turn's intended start to its last turn's end, its subagents' included), and where the time went: in requests (each
 * turn's intended start to its end: the server, the network and the client) against the waits that were the trace's
 * own (its delays between turns, tool and think times, divided by the speed-up).
 *
 * @param format          the trace's format.
 * @param traceSpeedup    the speed-up every timestamp and delay was divided by.
 * @param sessions        sessions that sent a turn and saw it end (a run stopped by its count or window opens more).
 * @param completed       sessions closed (every turn ended, subagents' included).
 * @param turns           turns sent and ended, subagents' included.
 * @param subagents       subagents that sent a turn and saw it end.
 * @param turnsPerSession turns of each closed session, subagents' included.
 * @param sessionE2eMs    each closed session's e2e, ms.
 * @param inRequestsS     the turns' time in requests, s, summed.
 * @param traceWaitsS     the trace's waits between turns, s, summed.
 */
public record SessionReport(String format, double traceSpeedup, long sessions, long completed, long turns,
    long subagents, Histogram turnsPerSession, Histogram sessionE2eMs, double inRequestsS, double traceWaitsS)
{
}
