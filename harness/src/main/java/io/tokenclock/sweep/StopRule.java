package io.tokenclock.sweep;

import java.util.Locale;

/**
 * When a sweep stops early: after a point whose share of failed requests, or (with an SLO) of requests that missed
 * it, passes a limit, no higher load is run: past that point the server is failing, and more load only costs time.
 * A point with no measured request stops the sweep too. Immutable and thread-safe.
 *
 * @param errorFraction   stop after a point where errors / measured requests exceeds this, in [0, 1] (1: never).
 * @param sloMissFraction stop after a point where (measured - good) / measured exceeds this, in [0, 1] (1: never);
 *                        applies only with an SLO.
 */
public record StopRule(double errorFraction, double sloMissFraction)
{
    public StopRule
    {
        if (!(errorFraction >= 0 && errorFraction <= 1) || !(sloMissFraction >= 0 && sloMissFraction <= 1))
        {
            throw new IllegalArgumentException("stop fractions must be in [0, 1]: " + errorFraction + ", " +
                sloMissFraction);
        }
    }

    /**
     * @param p      a finished point.
     * @param sloSet whether the run has an SLO (without one, no request misses it).
     * @return why the sweep stops after {@code p}, one line, or null when it goes on.
     */
    public String reason(final SweepPoint p, final boolean sloSet)
    {
        if (p.samples() == 0)
        {
            return "no measured request at " + p.loop().key() + " " + format(p.offered());
        }
        if (p.errorFraction() > errorFraction)
        {
            return String.format(Locale.ROOT, "%.1f%% of requests failed at %s %s (limit %.1f%%)",
                100 * p.errorFraction(), p.loop().key(), format(p.offered()), 100 * errorFraction);
        }
        final double missed = 1 - p.goodFraction();
        if (sloSet && missed > sloMissFraction)
        {
            return String.format(Locale.ROOT, "%.1f%% of requests missed the SLO at %s %s (limit %.1f%%)",
                100 * missed, p.loop().key(), format(p.offered()), 100 * sloMissFraction);
        }
        return null;
    }

    /** @return a load as a short number: four significant digits at most, no trailing zeros ({@code 12.5}). */
    public static String format(final double load)
    {
        final String s = String.format(Locale.ROOT, "%.4g", load);
        return s.contains("e") || !s.contains(".") ? s : s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
