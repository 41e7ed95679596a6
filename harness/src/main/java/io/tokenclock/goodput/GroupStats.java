package io.tokenclock.goodput;

import io.tokenclock.metrics.Formulas;
import io.tokenclock.metrics.MetricRecorders;
import io.tokenclock.recording.RequestGroup;
import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestSlot;

/**
 * The measured requests of one named group (a traffic segment, a load stage, or both): their distributions and
 * counts, so that every metric is reported per group as well as overall.
 * <p>
 * Written by the request stage's thread; the recorders are sampled by the run's reader thread like the overall ones;
 * the plain counters are read after the collector stopped.
 */
public final class GroupStats implements RequestGroup
{
    private final String name;
    private final Slo slo;
    private final MetricRecorders recorders = new MetricRecorders();
    private long ok;
    private long errors;
    private long cancelled;
    private long outputTokens;
    private long inputTokens;
    private long windowStartNs;
    private long windowEndNs;

    public GroupStats(final String name)
    {
        this(name, null);
    }

    /** @param slo the group's own service-level objective, or null. */
    public GroupStats(final String name, final Slo slo)
    {
        this.name = name;
        this.slo = slo;
    }

    /** @return the group's SLO, or null. */
    public Slo slo()
    {
        return slo;
    }

    public String name()
    {
        return name;
    }

    @Override
    public MetricRecorders recorders()
    {
        return recorders;
    }

    public long ok()
    {
        return ok;
    }

    public long errors()
    {
        return errors;
    }

    public long cancelled()
    {
        return cancelled;
    }

    public long outputTokens()
    {
        return outputTokens;
    }

    public long inputTokens()
    {
        return inputTokens;
    }

    /** @return the group's own window: its earliest intended start to its latest end, in seconds. */
    public double windowSeconds()
    {
        return Formulas.windowSeconds(windowStartNs, windowEndNs);
    }

    @Override
    public void onMeasured(final RequestSlot slot, final RequestMetrics m)
    {
        final long start = slot.scheduledNs > 0 ? slot.scheduledNs : slot.sentNs;
        if (windowStartNs == 0 || (start > 0 && start < windowStartNs))
        {
            windowStartNs = start;
        }
        windowEndNs = Math.max(windowEndNs, slot.endNs);
        if (slot.status == RequestSlot.STATUS_OK)
        {
            ok++;
            outputTokens += Math.max(0, m.outputTokens); // -1: an answer read whole generates none
            inputTokens += Math.max(0, m.inputTokens);
        }
        else if (slot.status == RequestSlot.STATUS_CANCELLED)
        {
            cancelled++;
        }
        else
        {
            errors++;
        }
    }
}
