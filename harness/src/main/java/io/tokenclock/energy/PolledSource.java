package io.tokenclock.energy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.tokenclock.clock.NanoClock;

/**
 * A source read by polling: {@link #poll(long)} once when started, every interval on a daemon thread of its own
 * (deadlines chained, so a slow read delays only the next), and once more when stopped.
 * <p>
 * Thread-safety: {@link #poll} runs on the sampling thread (or, in tests, on the caller's, with the thread never
 * started); the channels it fills are thread-safe.
 */
abstract class PolledSource implements PowerSource
{
    private final String name;
    private final long intervalNs;
    protected final NanoClock clock;
    private volatile boolean stopping;
    private Thread thread;

    PolledSource(final String name, final long intervalMs, final NanoClock clock)
    {
        this.name = name;
        this.intervalNs = TimeUnit.MILLISECONDS.toNanos(intervalMs);
        this.clock = clock;
    }

    /** Reads every channel once, stamped {@code nowNs}. */
    abstract void poll(long nowNs);

    @Override
    public void start(final Runnable atThreadStart)
    {
        if (unavailable() != null)
        {
            return;
        }
        thread = new Thread(() ->
        {
            atThreadStart.run();
            long next = clock.nanoTime();
            while (!stopping)
            {
                poll(clock.nanoTime());
                next += intervalNs;
                final long now = clock.nanoTime();
                if (next <= now)
                {
                    next = now + intervalNs;
                }
                LockSupport.parkNanos(this, next - now);
            }
        }, "tokenclock-power-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void stop()
    {
        if (thread == null)
        {
            return;
        }
        stopping = true;
        LockSupport.unpark(thread);
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        poll(clock.nanoTime());
        thread = null;
    }

    @Override
    public void close()
    {
        stop();
    }
}
