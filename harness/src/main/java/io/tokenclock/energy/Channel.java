package io.tokenclock.energy;

import java.util.Arrays;

/**
 * What one power channel recorded, stamped on the run's clock: readings of a cumulative energy counter (already
 * unwrapped, J), or power samples (W), or both. One sampling thread adds, others read copies.
 * <p>
 * Thread-safe: every method holds this object's lock.
 */
public final class Channel
{
    private final String id;
    private final Component component;
    private final double counterResolutionJ;
    private long[] counterNs = new long[64];
    private double[] counterJ = new double[64];
    private int counters;
    private long[] powerNs = new long[64];
    private double[] powerW = new double[64];
    private int powers;
    private String note;

    /**
     * @param id                 the channel's name in the record, e.g. {@code rapl:package-0}.
     * @param component          what it measures.
     * @param counterResolutionJ the energy counter's step, J (0 when it has none).
     */
    public Channel(final String id, final Component component, final double counterResolutionJ)
    {
        this.id = id;
        this.component = component;
        this.counterResolutionJ = counterResolutionJ;
    }

    public String id()
    {
        return id;
    }

    public Component component()
    {
        return component;
    }

    public double counterResolutionJ()
    {
        return counterResolutionJ;
    }

    /** Adds a reading of the cumulative energy counter, J, taken at {@code tNs}. */
    public synchronized void addEnergy(final long tNs, final double joules)
    {
        if (counters == counterNs.length)
        {
            counterNs = Arrays.copyOf(counterNs, counters * 2);
            counterJ = Arrays.copyOf(counterJ, counters * 2);
        }
        counterNs[counters] = tNs;
        counterJ[counters++] = joules;
    }

    /** Adds a power sample, W, taken at {@code tNs}. */
    public synchronized void addPower(final long tNs, final double watts)
    {
        if (powers == powerNs.length)
        {
            powerNs = Arrays.copyOf(powerNs, powers * 2);
            powerW = Arrays.copyOf(powerW, powers * 2);
        }
        powerNs[powers] = tNs;
        powerW[powers++] = watts;
    }

    /** Keeps a one-line note of why readings were missing (the last one wins). */
    public synchronized void note(final String why)
    {
        this.note = why;
    }

    /** @return the last note, or null. */
    public synchronized String note()
    {
        return note;
    }

    /** @return a copy of the counter's stamps, ns. */
    public synchronized long[] counterNs()
    {
        return Arrays.copyOf(counterNs, counters);
    }

    /** @return a copy of the counter's readings, J. */
    public synchronized double[] counterJ()
    {
        return Arrays.copyOf(counterJ, counters);
    }

    /** @return a copy of the power samples' stamps, ns. */
    public synchronized long[] powerNs()
    {
        return Arrays.copyOf(powerNs, powers);
    }

    /** @return a copy of the power samples, W. */
    public synchronized double[] powerW()
    {
        return Arrays.copyOf(powerW, powers);
    }

    /**
     * @return the energy over {@code [startNs, endNs]}: from the counter when it has readings on both sides of the
     * window, else from the power samples ({@link Integrator}).
     */
    public Integral integrate(final long startNs, final long endNs)
    {
        final long[] t = counterNs();
        if (t.length >= 2 && t[0] <= startNs && t[t.length - 1] >= endNs)
        {
            return Integrator.counter(t, counterJ(), startNs, endNs, counterResolutionJ);
        }
        final long[] p = powerNs();
        if (p.length == 0 && t.length > 0)
        {
            return Integrator.counter(t, counterJ(), startNs, endNs, counterResolutionJ);
        }
        final Integral fromPower = Integrator.trapezoid(p, powerW(), startNs, endNs);
        final String why = note();
        return fromPower.available() || why == null ? fromPower : Integral.unavailable(why);
    }
}
