package io.tokenclock.health;

import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import io.tokenclock.metrics.MetricRecorders;

/**
 * Measures the client machine's own stalls while it measures the server, in the spirit of jHiccup: a thread asks to
 * wake every {@code intervalNs} and records how late it woke. Whatever delays that thread (a GC pause, a safepoint, a
 * descheduled core, a noisy neighbour) also delays the I/O threads that stamp chunks, so a reader can compare this
 * distribution with the measured inter-token latencies: if the client hiccups for 2 ms at p99 and the ITL p99 is
 * 3 ms, the tail belongs to the client as much as to the server.
 * <p>
 * Lateness = actual wake time - intended wake time, recorded in nanoseconds (0 when on time). The intended times
 * advance on a fixed grid, so a long stall is recorded once at its full length, not spread out. The monitor thread
 * is the single writer; {@link #snapshot()} may be called from any one reader thread.
 */
public final class HiccupMonitor implements AutoCloseable
{
    private final long intervalNs;
    private final SingleWriterRecorder recorder =
        new SingleWriterRecorder(1, MetricRecorders.HIGHEST_TRACKABLE, MetricRecorders.SIGNIFICANT_DIGITS);
    private final Histogram total = new Histogram(1, MetricRecorders.HIGHEST_TRACKABLE,
        MetricRecorders.SIGNIFICANT_DIGITS);
    private final Thread thread;
    private volatile boolean running = true;
    private Histogram interval;

    /** A monitor that sleeps {@code intervalNs} at a time and records how late it wakes; {@link #start} starts it. */
    public HiccupMonitor(final long intervalNs)
    {
        if (intervalNs <= 0)
        {
            throw new IllegalArgumentException("interval must be > 0 ns: " + intervalNs);
        }
        this.intervalNs = intervalNs;
        this.thread = new Thread(this::run, "tokenclock-hiccups");
        this.thread.setDaemon(true);
    }

    /** Starts sampling; returns this. */
    public HiccupMonitor start()
    {
        thread.start();
        return this;
    }

    private void run()
    {
        long next = System.nanoTime() + intervalNs;
        while (running)
        {
            LockSupport.parkNanos(next - System.nanoTime());
            next = onWake(System.nanoTime(), next);
        }
    }

    /**
     * One wake-up at {@code nowNs}, due at the grid point {@code nextNs}: records the lateness when the point has
     * come (a park may return early), and returns the grid point to wake at next. Writer (monitor) thread only; a
     * test that never starts the monitor may drive it with chosen times instead.
     */
    long onWake(final long nowNs, final long nextNs)
    {
        if (nowNs < nextNs)
        {
            return nextNs;
        }
        recorder.recordValue(Math.min(nowNs - nextNs, MetricRecorders.HIGHEST_TRACKABLE));
        final long following = nextNs + intervalNs;
        // Skip the grid points the stall swallowed: the stall was recorded once, at its full length.
        return nowNs - following > intervalNs ? nowNs + intervalNs : following;
    }

    /** Folds what was recorded since the last call into the total, and returns the total. Reader thread only. */
    public Histogram snapshot()
    {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return total;
    }

    /** @return the requested wake-up interval in nanoseconds. */
    public long intervalNs()
    {
        return intervalNs;
    }

    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(thread);
        try
        {
            thread.join(1_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
