package io.tokenclock.energy;

import java.util.List;

/**
 * A source of power readings: one or more {@link Channel}s, sampled on a thread of the source's own and stamped on
 * the run's clock. A source that cannot be read says why ({@link #unavailable()}) instead of reporting zero.
 * <p>
 * Thread-safety: {@link #start}, {@link #stop}, {@link #channels} and {@link #close} from one supervising thread.
 */
public interface PowerSource extends AutoCloseable
{
    /** @return what it reads and where, in one line, for the record. */
    String describe();

    /** Starts sampling: a first reading at once, then one per interval; {@code atThreadStart} runs on its thread. */
    void start(Runnable atThreadStart);

    /** Takes a last reading and stops; the channels are complete after it. */
    void stop();

    /**
     * @param windowStartNs the measured window's start on the run's clock (a meter file aligned to the run's start
     *                      is placed by it).
     * @return what was recorded, once stopped.
     */
    List<Channel> channels(long windowStartNs);

    /** @return why nothing can be read from this source (one line), or null when it can be. */
    String unavailable();

    /**
     * @return why this source's readings are not a measurement of any machine (one line), once its channels were
     * read; null when they are measured. Only the data can say so: a meter file that declares itself synthetic.
     */
    default String synthetic()
    {
        return null;
    }

    @Override
    void close();
}
