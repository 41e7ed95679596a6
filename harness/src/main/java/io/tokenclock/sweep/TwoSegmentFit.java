package io.tokenclock.sweep;

/**
 * The knee by throughput fit: a continuous two-segment (piecewise linear, "hinge") least-squares fit of achieved
 * throughput {@code y} against offered load {@code x},
 * {@code y = a + b * x + c * max(0, x - t)}: slope {@code b} below the breakpoint {@code t}, {@code b + c} above it.
 * For each candidate {@code t} the model is linear in {@code a, b, c}, solved by ordinary least squares; the
 * breakpoint is the candidate with the least total squared error {@code SSE(t) = sum (y_i - yhat_i)^2}. Candidates
 * are every data point from the second to the last but one (so that each segment holds at least two points) and
 * {@value #STEPS_PER_GAP} evenly spaced values inside each gap between them, so {@code t} is exact to a
 * {@value #STEPS_PER_GAP}th of the gap that holds it. The first candidate of least error wins a tie. Immutable and
 * thread-safe.
 *
 * @param breakpoint     t, the offered load where the slope changes.
 * @param intercept      a.
 * @param slopeBelow     b, throughput per unit of offered load below t.
 * @param slopeAbove     b + c, above t.
 * @param throughputAtBreakpoint a + b * t, the fitted throughput at the breakpoint.
 * @param sse            the total squared error of the fit.
 * @param points         the points fitted.
 */
public record TwoSegmentFit(double breakpoint, double intercept, double slopeBelow, double slopeAbove,
    double throughputAtBreakpoint, double sse, int points)
{
    /** The fewest points a two-segment fit takes: two per segment, the breakpoint shared. */
    public static final int MIN_POINTS = 4;
    /** Candidate breakpoints inside each gap between consecutive data points. */
    static final int STEPS_PER_GAP = 1000;
    /** Below this share of the slope below, the slope above says the throughput has stopped following the load. */
    public static final double SATURATED_SLOPE_RATIO = 0.5;

    /**
     * @param x the offered loads, strictly increasing; NaN-free.
     * @param y the achieved throughput at each.
     * @return the fit of least squared error, or null when there are fewer than {@link #MIN_POINTS} points.
     */
    public static TwoSegmentFit fit(final double[] x, final double[] y)
    {
        if (x.length != y.length)
        {
            throw new IllegalArgumentException("x and y differ in length: " + x.length + " and " + y.length);
        }
        if (x.length < MIN_POINTS)
        {
            return null;
        }
        TwoSegmentFit best = null;
        for (int j = 1; j <= x.length - 2; j++)
        {
            final int steps = j == x.length - 2 ? 1 : STEPS_PER_GAP;
            for (int s = 0; s < steps; s++)
            {
                final TwoSegmentFit candidate = at(x, y, x[j] + (x[j + 1] - x[j]) * s / STEPS_PER_GAP);
                if (candidate != null && (best == null || candidate.sse < best.sse))
                {
                    best = candidate;
                }
            }
        }
        return best;
    }

    /** @return whether the slope above the breakpoint is under {@link #SATURATED_SLOPE_RATIO} of the slope below. */
    public boolean saturated()
    {
        return slopeAbove < SATURATED_SLOPE_RATIO * slopeBelow;
    }

    /** @return the least-squares hinge with its breakpoint at {@code t}, or null when the system is singular. */
    static TwoSegmentFit at(final double[] x, final double[] y, final double t)
    {
        // Normal equations (X'X) beta = X'y for the columns 1, x, max(0, x - t).
        final double[][] m = new double[3][4];
        for (int i = 0; i < x.length; i++)
        {
            final double[] row = {1, x[i], Math.max(0, x[i] - t)};
            for (int r = 0; r < 3; r++)
            {
                for (int c = 0; c < 3; c++)
                {
                    m[r][c] += row[r] * row[c];
                }
                m[r][3] += row[r] * y[i];
            }
        }
        final double[] beta = solve(m);
        if (beta == null)
        {
            return null;
        }
        double sse = 0;
        for (int i = 0; i < x.length; i++)
        {
            final double e = y[i] - (beta[0] + beta[1] * x[i] + beta[2] * Math.max(0, x[i] - t));
            sse += e * e;
        }
        return new TwoSegmentFit(t, beta[0], beta[1], beta[1] + beta[2], beta[0] + beta[1] * t, sse, x.length);
    }

    /** Gaussian elimination with partial pivoting on an augmented 3 x 4 matrix; null when singular. */
    private static double[] solve(final double[][] m)
    {
        final int n = 3;
        final double scale = Math.abs(m[0][0]) + Math.abs(m[1][1]) + Math.abs(m[2][2]);
        for (int col = 0; col < n; col++)
        {
            int pivot = col;
            for (int r = col + 1; r < n; r++)
            {
                pivot = Math.abs(m[r][col]) > Math.abs(m[pivot][col]) ? r : pivot;
            }
            final double[] swap = m[col];
            m[col] = m[pivot];
            m[pivot] = swap;
            if (!(Math.abs(m[col][col]) > 1e-12 * scale))
            {
                return null;
            }
            for (int r = col + 1; r < n; r++)
            {
                final double f = m[r][col] / m[col][col];
                for (int c = col; c <= n; c++)
                {
                    m[r][c] -= f * m[col][c];
                }
            }
        }
        final double[] beta = new double[n];
        for (int r = n - 1; r >= 0; r--)
        {
            double v = m[r][n];
            for (int c = r + 1; c < n; c++)
            {
                v -= m[r][c] * beta[c];
            }
            beta[r] = v / m[r][r];
        }
        return beta;
    }
}
