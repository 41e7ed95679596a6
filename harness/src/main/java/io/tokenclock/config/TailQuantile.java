package io.tokenclock.config;

import java.util.Locale;

/**
 * A percentile named the way users write it, {@code p99}, {@code p99.9} or {@code 90}, for {@code --min-samples-for}.
 *
 * @param quantile the percentile as a quantile in (0, 1), e.g. 0.99.
 */
public record TailQuantile(double quantile)
{
    public TailQuantile
    {
        if (!(quantile > 0 && quantile < 1))
        {
            throw new IllegalArgumentException("must be a percentile in (0, 100): " + quantile * 100);
        }
    }

    /**
     * @param value {@code pNN}, {@code pNN.N} or a bare number in (0, 100).
     * @throws IllegalArgumentException naming the value when it is not one.
     */
    public static TailQuantile parse(final String value)
    {
        final String v = value.trim().toLowerCase(Locale.ROOT);
        final String digits = v.startsWith("p") ? v.substring(1) : v;
        try
        {
            return new TailQuantile(Double.parseDouble(digits) / 100);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("must be a percentile such as p90, p99 or p99.9: " + value);
        }
    }

    /** @return the name users write, e.g. {@code p99} or {@code p99.9}. */
    public String label()
    {
        final double percent = Math.round(quantile * 100 * 1e6) / 1e6;
        return percent == Math.rint(percent) ? "p" + (long)percent : "p" + percent;
    }
}
