package io.tokenclock.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Closed-loop stages: run at one concurrency for a while, then at the next, each stage reported on its own; the
 * closed-loop half of a saturation sweep in one run. The stage clock starts with the first measured request.
 * Immutable and thread-safe.
 */
public record ConcurrencySchedule(int[] concurrency, double[] durationS, int rampStages)
{
    /** Stages without a ramp. */
    public ConcurrencySchedule(final int[] concurrency, final double[] durationS)
    {
        this(concurrency, durationS, 0);
    }

    /**
     * Prepends a ramp of the concurrency from {@code from} to {@code to} over {@code seconds}, in 2 to 20 equal
     * steps (of at least 0.1 s where the ramp allows), linear or geometric, the first at {@code from}, the last at
     * {@code to}. Ramp requests are recorded as phase {@code ramp} and kept out of the measured figures, and the stage
     * clock then starts with the run rather than with the first measured request.
     */
    public static ConcurrencySchedule withRamp(
        final int from, final int to, final double seconds, final boolean exponential, final ConcurrencySchedule stages)
    {
        if (from < 1 || to < 1 || !(seconds > 0))
        {
            throw new IllegalArgumentException("a concurrency ramp needs from >= 1, to >= 1 and seconds > 0");
        }
        final int steps = (int)Math.max(2, Math.min(20, Math.ceil(seconds / 0.1)));
        final int[] c = new int[steps + stages.concurrency.length];
        final double[] d = new double[c.length];
        for (int i = 0; i < steps; i++)
        {
            final double f = i / (double)(steps - 1);
            final double target = exponential ? from * Math.pow((double)to / from, f) : from + (to - from) * f;
            c[i] = (int)Math.max(1, Math.round(target));
            d[i] = seconds / steps;
        }
        System.arraycopy(stages.concurrency, 0, c, steps, stages.concurrency.length);
        System.arraycopy(stages.durationS, 0, d, steps, stages.durationS.length);
        return new ConcurrencySchedule(c, d, steps);
    }

    public ConcurrencySchedule
    {
        if (concurrency.length == 0 || concurrency.length != durationS.length)
        {
            throw new IllegalArgumentException("concurrency stages need one duration per stage");
        }
        for (int j = 0; j < concurrency.length; j++)
        {
            if (concurrency[j] < 1 || !(durationS[j] > 0))
            {
                throw new IllegalArgumentException("a concurrency stage needs concurrency >= 1 and duration > 0");
            }
        }
        concurrency = concurrency.clone();
        durationS = durationS.clone();
    }

    /** @return the stage at {@code elapsedS} seconds into the measured window (the last stage past the end). */
    public int stageAt(final double elapsedS)
    {
        double end = 0;
        for (int j = 0; j < durationS.length; j++)
        {
            end += durationS[j];
            if (elapsedS < end)
            {
                return j;
            }
        }
        return durationS.length - 1;
    }

    /** @return the highest concurrency of any stage: the cap on requests in flight. */
    public int maxConcurrency()
    {
        int max = 0;
        for (final int c : concurrency)
        {
            max = Math.max(max, c);
        }
        return max;
    }

    /** @return the measured stages' total length in seconds (the ramp excluded). */
    public double totalS()
    {
        double total = 0;
        for (int j = rampStages; j < durationS.length; j++)
        {
            total += durationS[j];
        }
        return total;
    }

    /** @return reported names, e.g. {@code stage 1: concurrency 8, 30 s}. */
    public List<String> stageNames()
    {
        final List<String> names = new ArrayList<>();
        for (int j = rampStages; j < concurrency.length; j++)
        {
            final double d = durationS[j];
            names.add(String.format(Locale.ROOT, "stage %d: concurrency %d, %s s", j - rampStages + 1, concurrency[j],
                d == Math.rint(d) ? String.valueOf((long)d) : String.valueOf(d)));
        }
        return names;
    }
}
