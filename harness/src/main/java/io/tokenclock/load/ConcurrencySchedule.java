package io.tokenclock.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Closed-loop stages: run at one concurrency for a while, then at the next, each stage reported on its own; the
 * closed-loop half of a saturation sweep in one run. The stage clock starts with the first measured request.
 * Immutable and thread-safe.
 */
public record ConcurrencySchedule(int[] concurrency, double[] durationS)
{
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

    /** @return the stages' total length in seconds. */
    public double totalS()
    {
        double total = 0;
        for (final double d : durationS)
        {
            total += d;
        }
        return total;
    }

    /** @return reported names, e.g. {@code stage 1: concurrency 8, 30 s}. */
    public List<String> stageNames()
    {
        final List<String> names = new ArrayList<>();
        for (int j = 0; j < concurrency.length; j++)
        {
            final double d = durationS[j];
            names.add(String.format(Locale.ROOT, "stage %d: concurrency %d, %s s", j + 1, concurrency[j],
                d == Math.rint(d) ? String.valueOf((long)d) : String.valueOf(d)));
        }
        return names;
    }
}
