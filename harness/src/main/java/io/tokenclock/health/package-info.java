/**
 * The client's own health during the window, so that a run can say whether a latency it reports was the server's or
 * the client's: wake-up lateness on a 1 ms grid ({@link io.tokenclock.health.HiccupMonitor}), GC pauses from the
 * JVM's notifications ({@link io.tokenclock.health.GcPauseMonitor}), safepoints from HotSpot's performance counters
 * ({@link io.tokenclock.health.SafepointCounters}), the process's CPU time and heap
 * ({@link io.tokenclock.health.ProcessUsage}), and that CPU by thread group ({@link io.tokenclock.health.ThreadCpu}). Each runs beside the run (a thread of its own, or a reading before and
 * after), never on the stamping path.
 * <p>
 * What it may import is its row, {@code health}, in docs/ARCHITECTURE.md's table, which LayeringTest holds it to; it
 * never imports a package of its own layer or above, such as {@code cli}, {@code deploy} or {@code merge}.
 */
package io.tokenclock.health;
