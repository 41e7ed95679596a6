package io.tokenclock.clock;

/**
 * The one clock the measurement core reads: a monotonic nanosecond counter.
 * <p>
 * Every stamp in a run (scheduled, sent, chunk arrival, end) comes from the same {@code NanoClock}, so any two
 * stamps can be subtracted. Values have no relation to wall time; only differences mean anything. The core takes
 * the clock as a parameter so that tests can drive it with a hand-set clock and benchmarks can drive it alone.
 * <p>
 * Implementations must be thread-safe and cheap: the transport calls {@link #nanoTime()} once per network read.
 */
@FunctionalInterface
public interface NanoClock
{
    /**
     * @return the current reading in nanoseconds of an arbitrary, fixed origin; never goes backwards.
     */
    long nanoTime();
}
