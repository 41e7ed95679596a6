package io.tokenclock.load;

/**
 * How a load generator's thread waits for the next intended start, a completion or a permit: it parks for a while,
 * or spins one step when the deadline is too close to park for. Production uses {@link ParkingWaiter}; tests pass one
 * that advances a hand-set clock instead, so that a driver runs on the test thread, exactly and without sleeping.
 * <p>
 * {@link #park} and {@link #spin} are called on the generator's thread only; {@link #wake} from any thread.
 */
public interface Waiter
{
    /**
     * Parks the calling thread for up to {@code ns} nanoseconds. May return earlier: after {@link #wake}, or
     * spuriously; callers look at the clock again.
     */
    void park(long ns);

    /** One step of a busy wait. */
    void spin();

    /** Ends a {@link #park} of {@code thread} early, or makes its next one return at once. Thread-safe. */
    void wake(Thread thread);
}
