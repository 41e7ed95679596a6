package io.tokenclock.goodput;

import java.util.Arrays;
import java.util.function.LongToIntFunction;

import io.tokenclock.recording.RequestMetrics;
import io.tokenclock.recording.RequestSlot;
import io.tokenclock.recording.RequestVerdicts;

/**
 * The run's goodput: every measured request's verdict against the run's SLO and its group's, counted per constraint.
 * <p>
 * Without a quality rule that judges outputs, verdicts are final when a request ends, and are counted at once. With
 * one, outputs are judged only after the window, so each request's latency verdicts wait in a compact ledger (about
 * 22 bytes a request: id, group, two verdict bytes, output tokens) until {@link #settle} adds the quality verdicts and
 * counts them; nothing else of the request is kept here.
 * <p>
 * Thread-safety: {@link #onMeasured} on the request stage's thread; {@link #settle} and the readers after the stage
 * stopped (its thread was joined).
 */
public final class GoodputBook implements RequestVerdicts
{
    private static final int INITIAL = 1024;

    private final Slo slo;
    private final Slo[] groupSlos;
    private final boolean deferred;
    private final GoodputTally overall = new GoodputTally();
    private final GoodputTally[] groups;
    private long[] ids = new long[0];
    private int[] groupOf = new int[0];
    private byte[] verdicts = new byte[0];
    private byte[] groupVerdicts = new byte[0];
    private long[] outputTokens = new long[0];
    private int size;
    private boolean settled;

    /**
     * @param slo       the run's SLO, or null for none (a quality rule alone).
     * @param groupSlos each group's SLO (its own, or the run's), indexed by {@link RequestSlot#group}; null entries
     *                  for none; empty without groups.
     * @param deferred  a quality rule judges outputs after the window: keep verdicts until {@link #settle}.
     */
    public GoodputBook(final Slo slo, final Slo[] groupSlos, final boolean deferred)
    {
        this.slo = slo;
        this.groupSlos = groupSlos.clone();
        this.deferred = deferred;
        this.groups = new GoodputTally[groupSlos.length];
        for (int k = 0; k < groups.length; k++)
        {
            groups[k] = new GoodputTally();
        }
        this.settled = !deferred;
    }

    /** @return the run's SLO, or null. */
    public Slo slo()
    {
        return slo;
    }

    /** @return whether verdicts wait for {@link #settle}. */
    public boolean deferred()
    {
        return deferred;
    }

    /** @return a request's verdict against {@code objective}: its failure, or the bounds it missed (0: none). */
    static int verdict(final Slo objective, final RequestSlot s, final RequestMetrics m)
    {
        if (s.status == RequestSlot.STATUS_CANCELLED)
        {
            return GoodputCounts.CANCELLED;
        }
        if (s.status != RequestSlot.STATUS_OK)
        {
            return GoodputCounts.FAILED;
        }
        return objective == null ? 0 : objective.misses(s, m);
    }

    /**
     * Takes one measured request's latency verdicts.
     *
     * @return the request's verdict against the run's SLO (0: met every bound so far).
     */
    @Override
    public int onMeasured(final RequestSlot s, final RequestMetrics m)
    {
        final int verdict = verdict(slo, s, m);
        final int group = groups.length > 0 ? s.group : -1;
        final int groupVerdict = group >= 0 ? verdict(groupSlos[group], s, m) : 0;
        final long tokens = s.status == RequestSlot.STATUS_OK ? Math.max(0, m.outputTokens) : 0; // -1: none generated
        if (!deferred)
        {
            overall.add(verdict, tokens);
            if (group >= 0)
            {
                groups[group].add(groupVerdict, tokens);
            }
            return verdict;
        }
        if (size == ids.length)
        {
            grow();
        }
        ids[size] = s.requestId;
        groupOf[size] = group;
        verdicts[size] = (byte)verdict;
        groupVerdicts[size] = (byte)groupVerdict;
        outputTokens[size] = tokens;
        size++;
        return verdict;
    }

    private void grow()
    {
        final int capacity = Math.max(INITIAL, ids.length << 1);
        ids = Arrays.copyOf(ids, capacity);
        groupOf = Arrays.copyOf(groupOf, capacity);
        verdicts = Arrays.copyOf(verdicts, capacity);
        groupVerdicts = Arrays.copyOf(groupVerdicts, capacity);
        outputTokens = Arrays.copyOf(outputTokens, capacity);
    }

    /**
     * Adds the quality verdicts and counts every kept request; once, after the stage stopped. Does nothing when the
     * verdicts were counted as they came.
     *
     * @param quality a request id's quality verdict: 0 (passed, or not judged), {@link GoodputCounts#MISS_QUALITY}
     *                or {@link GoodputCounts#EXCLUDED}.
     */
    public void settle(final LongToIntFunction quality)
    {
        if (settled)
        {
            return;
        }
        settled = true;
        for (int i = 0; i < size; i++)
        {
            final int q = (verdicts[i] & (GoodputCounts.FAILED | GoodputCounts.CANCELLED)) != 0 ? 0 :
                quality.applyAsInt(ids[i]);
            overall.add((verdicts[i] & 0xff) | q, outputTokens[i]);
            if (groupOf[i] >= 0)
            {
                groups[groupOf[i]].add((groupVerdicts[i] & 0xff) | q, outputTokens[i]);
            }
        }
    }

    /** @return the run's goodput (before {@link #settle}, of the verdicts counted so far). */
    public GoodputCounts overall()
    {
        return overall.counts();
    }

    /** @return a group's goodput, by {@link RequestSlot#group}. */
    public GoodputCounts group(final int group)
    {
        return groups[group].counts();
    }

    /** @return a group's SLO, or null. */
    public Slo groupSlo(final int group)
    {
        return groupSlos[group];
    }
}
