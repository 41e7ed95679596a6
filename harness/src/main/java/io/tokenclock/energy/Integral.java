package io.tokenclock.energy;

/**
 * The energy of one channel over the measured window, or why it could not be had.
 * <p>
 * Immutable and thread-safe.
 *
 * @param method            {@code counter} (energy-counter delta) or {@code trapezoid} (power samples integrated).
 * @param joules            the energy, J (NaN when unavailable).
 * @param uncertaintyJoules the bound on its error, J (docs/COST_ENERGY.md says how it is estimated).
 * @param samples           readings inside the window.
 * @param meanIntervalMs    the mean gap between the readings used, ms.
 * @param maxIntervalMs     the longest gap between the readings used, ms.
 * @param unavailable       why there is no figure (one line), or null when there is one.
 */
public record Integral(String method, double joules, double uncertaintyJoules, int samples, double meanIntervalMs,
    double maxIntervalMs, String unavailable)
{
    /** @return an integral that could not be computed, for {@code why}. */
    public static Integral unavailable(final String why)
    {
        return new Integral(null, Double.NaN, Double.NaN, 0, Double.NaN, Double.NaN, why);
    }

    /** @return whether there is a figure. */
    public boolean available()
    {
        return unavailable == null;
    }
}
