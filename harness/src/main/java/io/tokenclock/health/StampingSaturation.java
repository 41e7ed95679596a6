package io.tokenclock.health;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Whether a stamping thread ran out of core during the window: each second, the CPU each stamping thread
 * ({@link ThreadCpu.Group#STAMPING}) used over that second, from its {@code schedstat}; a second in which one used
 * more than {@link #BOUND} of a core is a saturated second. AIPerf warns at the same 85%.
 * <p>
 * <b>Why it matters.</b> A stamping thread that needs the whole of its core reads late, and reads late by more than a
 * gap let the kernel merge the waiting segments (docs/ACCURACY.md): the record's shared-stamp counts say that it
 * happened, this says why, and that more cores (or the packet tap) are the remedy.
 * <p>
 * Worked example: a thread at 4.20 s of CPU at one sample and 5.08 s at the next, 1.02 s later, ran 86% of that second:
 * one saturated second. One at 0.30 s of a 1 s second ran 30%. A thread first seen at a sample counts from the next.
 * <p>
 * Its own thread ({@code tokenclock-saturation}) wakes once a second and reads two small files per thread of the
 * process; {@link #onSample} is the whole logic, driven by hand in the tests. Thread-safe: the sampler writes under
 * the monitor's lock, readers read under it.
 */
public final class StampingSaturation implements AutoCloseable
{
    /** A thread above this fraction of a core in a second is saturated. */
    public static final double BOUND = 0.85;
    /** The sampling period. */
    static final long PERIOD_NS = 1_000_000_000L;

    /**
     * What the window saw.
     *
     * @param secondsSampled      seconds sampled in the window (each a period between two samples).
     * @param secondsAbove        of them, those in which a stamping thread used more than {@link #BOUND} of a core.
     * @param worstFraction       the most of a core one stamping thread used in one second.
     * @param worstThread         that thread's name, or null when none ran.
     * @param unavailable         why nothing could be sampled (not Linux, no schedstat), or null.
     */
    public record Result(int secondsSampled, int secondsAbove, double worstFraction, String worstThread,
        String unavailable)
    {
        /** @return whether a stamping thread was saturated in any second. */
        public boolean saturated()
        {
            return secondsAbove > 0;
        }

        /** @return nothing sampled, and why. */
        public static Result none(final String why)
        {
            return new Result(0, 0, 0, null, why);
        }
    }

    private final Supplier<ThreadCpu.Snapshot> source;
    private final Thread thread;
    private final Map<Long, ThreadCpu.Sample> last = new HashMap<>();
    private volatile boolean running = true;
    private boolean armed;
    private long lastNs;
    private int seconds;
    private int above;
    private double worst;
    private String worstThread;
    private String unavailable;

    /** A monitor over {@code source}'s readings (the process's threads, {@link ThreadCpu#snapshot}). */
    public StampingSaturation(final Supplier<ThreadCpu.Snapshot> source)
    {
        this.source = source;
        this.thread = new Thread(this::run, "tokenclock-saturation");
        this.thread.setDaemon(true);
    }

    /** Starts sampling; returns this. */
    public StampingSaturation start()
    {
        thread.start();
        return this;
    }

    private void run()
    {
        while (running)
        {
            LockSupport.parkNanos(PERIOD_NS);
            if (running)
            {
                onSample(System.nanoTime(), source.get());
            }
        }
    }

    /** Starts the window: what was sampled before does not count. Any thread. */
    public synchronized void arm()
    {
        armed = true;
        seconds = 0;
        above = 0;
        worst = 0;
        worstThread = null;
        last.clear();
        lastNs = 0;
    }

    /**
     * One sample at {@code nowNs}: each stamping thread's CPU since the last sample, over the time since it. Before
     * {@link #arm} it keeps nothing.
     */
    public synchronized void onSample(final long nowNs, final ThreadCpu.Snapshot snapshot)
    {
        if (!armed)
        {
            return;
        }
        if (snapshot.unavailable() != null)
        {
            unavailable = snapshot.unavailable();
            return;
        }
        final long elapsedNs = nowNs - lastNs;
        boolean saturated = false;
        final boolean first = lastNs == 0;
        for (final Map.Entry<Long, ThreadCpu.Sample> e : snapshot.threads().entrySet())
        {
            final ThreadCpu.Sample now = e.getValue();
            if (now.cpuNs() < 0 || ThreadCpu.Group.of(now.name()) != ThreadCpu.Group.STAMPING)
            {
                continue;
            }
            final ThreadCpu.Sample before = last.put(e.getKey(), now);
            if (first || before == null || before.cpuNs() < 0 || now.cpuNs() < before.cpuNs() || elapsedNs <= 0)
            {
                continue;
            }
            final double fraction = (double)(now.cpuNs() - before.cpuNs()) / elapsedNs;
            saturated |= fraction > BOUND;
            if (fraction > worst)
            {
                worst = fraction;
                worstThread = now.name();
            }
        }
        if (!first)
        {
            seconds++;
            above += saturated ? 1 : 0;
        }
        lastNs = nowNs;
    }

    /** @return what the window saw so far. Any thread. */
    public synchronized Result result()
    {
        if (seconds == 0 && unavailable != null)
        {
            return Result.none(unavailable);
        }
        return new Result(seconds, above, worst, worstThread, null);
    }

    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(thread);
    }
}
