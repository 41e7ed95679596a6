/**
 * The one clock the measurement core reads ({@link io.tokenclock.clock.NanoClock}, monotonic nanoseconds): the
 * system's, and a hand-set one for tests. Every stamp of a run comes from the same clock, so any two subtract.
 * <p>
 * It imports no other tokenclock package: its row, {@code clock}, in docs/ARCHITECTURE.md's table, which LayeringTest
 * holds it to.
 */
package io.tokenclock.clock;
