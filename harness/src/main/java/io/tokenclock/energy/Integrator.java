package io.tokenclock.energy;

import java.util.Locale;

/**
 * Energy over exactly the measured window, from stamped readings; pure functions of their arguments, so tests drive
 * them with explicit stamps. Both need readings on both sides of the window (a window the readings do not cover has no
 * figure, never a partial one).
 * <ul>
 * <li>{@link #counter}: the counter interpolated linearly at each edge, end minus start. Its error bound: at each edge,
 * the larger part of the bracketing interval's energy (the true split of that energy is anywhere in it, power being
 * never negative), plus the counter's resolution at each of the two edges.</li>
 * <li>{@link #trapezoid}: power interpolated linearly at each edge, then the trapezoid rule over the samples between.
 * Its error bound, for power monotone between two samples: half the power step times the interval for each whole
 * interval, the whole step times the part kept for the two partial intervals at the edges.</li>
 * </ul>
 * Spikes shorter than the sampling interval are invisible to the trapezoid rule; the interval is reported beside it.
 * Stateless and thread-safe.
 */
public final class Integrator
{
    private static final double NS_PER_S = 1e9;

    private Integrator()
    {
    }

    /**
     * @param tNs         stamps, ascending, ns.
     * @param joules      the cumulative counter at each stamp, J, unwrapped.
     * @param resolutionJ the counter's step, J.
     */
    public static Integral counter(final long[] tNs, final double[] joules, final long startNs, final long endNs,
        final double resolutionJ)
    {
        final String gap = coverage(tNs, startNs, endNs, "energy counter");
        if (gap != null)
        {
            return Integral.unavailable(gap);
        }
        final int a = bracket(tNs, startNs);
        final int b = bracket(tNs, endNs);
        final double atStart = interpolate(tNs, joules, a, startNs);
        final double atEnd = interpolate(tNs, joules, b, endNs);
        final double error = edgeError(tNs, joules, a, startNs) + edgeError(tNs, joules, b, endNs) + 2 * resolutionJ;
        return new Integral("counter", atEnd - atStart, error, inside(tNs, startNs, endNs), meanMs(tNs, a, b + 1),
            maxMs(tNs, a, b + 1), null);
    }

    /**
     * @param tNs   stamps, ascending, ns.
     * @param watts the power at each stamp, W.
     */
    public static Integral trapezoid(final long[] tNs, final double[] watts, final long startNs, final long endNs)
    {
        final String gap = coverage(tNs, startNs, endNs, "power samples");
        if (gap != null)
        {
            return Integral.unavailable(gap);
        }
        final int a = bracket(tNs, startNs);
        final int b = bracket(tNs, endNs);
        double joules = 0;
        double error = 0;
        for (int i = a; i <= b && i + 1 < tNs.length; i++)
        {
            final long from = Math.max(tNs[i], startNs);
            final long to = Math.min(tNs[i + 1], endNs);
            if (to <= from)
            {
                continue;
            }
            final double seconds = (to - from) / NS_PER_S;
            final double pFrom = interpolate(tNs, watts, i, from);
            final double pTo = interpolate(tNs, watts, i, to);
            joules += 0.5 * (pFrom + pTo) * seconds;
            final boolean whole = from == tNs[i] && to == tNs[i + 1];
            error += Math.abs(watts[i + 1] - watts[i]) * seconds * (whole ? 0.5 : 1.0);
        }
        return new Integral("trapezoid", joules, error, inside(tNs, startNs, endNs), meanMs(tNs, a, b + 1),
            maxMs(tNs, a, b + 1), null);
    }

    private static String coverage(final long[] tNs, final long startNs, final long endNs, final String what)
    {
        if (endNs < startNs)
        {
            return "the window ends before it starts";
        }
        if (tNs.length < 2)
        {
            return String.format(Locale.ROOT, "%d %s reading%s: two around the window are needed", tNs.length, what,
                tNs.length == 1 ? "" : "s");
        }
        if (tNs[0] > startNs || tNs[tNs.length - 1] < endNs)
        {
            return String.format(Locale.ROOT, "the %s do not cover the window: readings from %+.3f s to %+.3f s of " +
                "the window's start, the window %.3f s long", what, (tNs[0] - startNs) / NS_PER_S,
                (tNs[tNs.length - 1] - startNs) / NS_PER_S, (endNs - startNs) / NS_PER_S);
        }
        return null;
    }

    /** @return the index i with tNs[i] <= x < tNs[i + 1], the last interval's start when x is the last stamp. */
    private static int bracket(final long[] tNs, final long x)
    {
        int i = 0;
        while (i + 2 < tNs.length && tNs[i + 1] <= x)
        {
            i++;
        }
        return i;
    }

    private static double interpolate(final long[] tNs, final double[] v, final int i, final long x)
    {
        final long span = tNs[i + 1] - tNs[i];
        if (span <= 0)
        {
            return v[i + 1];
        }
        return v[i] + (v[i + 1] - v[i]) * ((double)(x - tNs[i]) / span);
    }

    private static double edgeError(final long[] tNs, final double[] joules, final int i, final long x)
    {
        final long span = tNs[i + 1] - tNs[i];
        if (span <= 0 || x == tNs[i] || x == tNs[i + 1])
        {
            return 0;
        }
        final double f = (double)(x - tNs[i]) / span;
        return Math.max(f, 1 - f) * Math.abs(joules[i + 1] - joules[i]);
    }

    private static int inside(final long[] tNs, final long startNs, final long endNs)
    {
        int n = 0;
        for (final long t : tNs)
        {
            if (t >= startNs && t <= endNs)
            {
                n++;
            }
        }
        return n;
    }

    private static double meanMs(final long[] tNs, final int from, final int to)
    {
        final int last = Math.min(to, tNs.length - 1);
        return last > from ? (tNs[last] - tNs[from]) / 1e6 / (last - from) : Double.NaN;
    }

    private static double maxMs(final long[] tNs, final int from, final int to)
    {
        double max = 0;
        for (int i = from; i < Math.min(to, tNs.length - 1); i++)
        {
            max = Math.max(max, (tNs[i + 1] - tNs[i]) / 1e6);
        }
        return max;
    }
}
