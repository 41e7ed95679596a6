package io.tokenclock.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The declared outlier rule for run-to-run figures: Tukey's fences. A value below Q1 - 1.5 IQR or above
 * Q3 + 1.5 IQR is excluded from the interval, and listed, never silently dropped. Quartiles are the medians of the
 * lower and upper halves (Tukey's hinges). Fewer than {@link #MIN_VALUES} values are never judged: with three runs a
 * "fence" is only the other two.
 * <p>
 * Example: repetitions with 10.0, 10.2, 9.9, 10.1 and 14.0 req/s have hinges 10.0 and 10.2, fences 9.7 and 10.5, so
 * 14.0 (the fifth run) is excluded and listed.
 * <p>
 * Stateless and thread-safe.
 */
public final class Outliers
{
    /** The rule as the record states it. */
    public static final String RULE = "Tukey fences: outside [Q1 - 1.5 IQR, Q3 + 1.5 IQR], judged with >= 4 values";
    public static final int MIN_VALUES = 4;

    private Outliers()
    {
    }

    /** @return the 0-based indexes of the values the rule excludes, in order. */
    public static List<Integer> excluded(final double[] values)
    {
        final List<Integer> out = new ArrayList<>();
        if (values.length < MIN_VALUES)
        {
            return out;
        }
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int half = sorted.length / 2;
        final double q1 = median(Arrays.copyOfRange(sorted, 0, sorted.length % 2 == 0 ? half : half + 1));
        final double q3 = median(Arrays.copyOfRange(sorted, half, sorted.length));
        final double iqr = q3 - q1;
        for (int i = 0; i < values.length; i++)
        {
            if (values[i] < q1 - 1.5 * iqr || values[i] > q3 + 1.5 * iqr)
            {
                out.add(i);
            }
        }
        return out;
    }

    /** @return {@code values} without the given indexes. */
    public static double[] without(final double[] values, final List<Integer> excluded)
    {
        final double[] kept = new double[values.length - excluded.size()];
        int k = 0;
        for (int i = 0; i < values.length; i++)
        {
            if (!excluded.contains(i))
            {
                kept[k++] = values[i];
            }
        }
        return kept;
    }

    private static double median(final double[] sorted)
    {
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
