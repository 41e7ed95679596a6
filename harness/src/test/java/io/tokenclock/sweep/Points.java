package io.tokenclock.sweep;

/** Sweep points for tests, with only the figures a test looks at set; the rest are NaN or zero. */
final class Points
{
    private Points()
    {
    }

    /** @return an open-loop point at {@code offered} req/s with these figures. */
    static SweepPoint point(final double offered, final double achievedRps, final double ttftP99Ms,
        final double goodputRps, final long ok, final long errors, final long good)
    {
        return new SweepPoint(SweepPoint.Loop.RATE, offered, achievedRps, Double.NaN, ttftP99Ms, Double.NaN,
            Double.NaN, Double.NaN, Double.NaN, goodputRps, ok, errors, 0, good,
            new SweepPoint.Queue("client", Double.NaN, Double.NaN, 1.5), "/tmp/sweep/points/" + (long)offered);
    }
}
