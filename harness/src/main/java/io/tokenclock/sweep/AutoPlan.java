package io.tokenclock.sweep;

/**
 * The open-loop rates of an automatic sweep, from the throughput ceiling that a closed loop at high concurrency
 * measured first: {@code points} rates evenly spaced from low load to past the ceiling,
 * {@code rate_i = i * MAX_FRACTION * ceiling / points} for {@code i = 1 .. points}, so that the lowest is a light
 * load ({@code 0.175} of the ceiling with 8 points) and the highest {@value #MAX_FRACTION} times the ceiling, well past
 * it. Thread-safe: stateless.
 */
public final class AutoPlan
{
    /** The highest rate swept, as a multiple of the ceiling. */
    public static final double MAX_FRACTION = 1.4;
    /** The fewest points an automatic sweep runs: enough for the two-segment fit. */
    public static final int MIN_POINTS = TwoSegmentFit.MIN_POINTS;
    /** The most points an automatic sweep runs. */
    public static final int MAX_POINTS = 50;

    private AutoPlan()
    {
    }

    /**
     * @param ceilingRps the throughput ceiling, requests/s (&gt; 0).
     * @param points     how many rates, in [{@value #MIN_POINTS}, {@value #MAX_POINTS}].
     * @return the rates, increasing, requests/s.
     */
    public static double[] rates(final double ceilingRps, final int points)
    {
        if (!(ceilingRps > 0) || Double.isInfinite(ceilingRps))
        {
            throw new IllegalArgumentException("the throughput ceiling must be a positive rate: " + ceilingRps);
        }
        if (points < MIN_POINTS || points > MAX_POINTS)
        {
            throw new IllegalArgumentException("an automatic sweep runs " + MIN_POINTS + " to " + MAX_POINTS +
                " points: " + points);
        }
        final double[] rates = new double[points];
        for (int i = 1; i <= points; i++)
        {
            rates[i - 1] = i * MAX_FRACTION * ceilingRps / points;
        }
        return rates;
    }
}
