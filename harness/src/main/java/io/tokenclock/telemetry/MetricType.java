package io.tokenclock.telemetry;

import java.util.Locale;

/** The type a {@code # TYPE} line declares: the text format 0.0.4's five, and OpenMetrics' additions. */
public enum MetricType
{
    COUNTER,
    GAUGE,
    HISTOGRAM,
    SUMMARY,
    UNTYPED,
    /** OpenMetrics' name for untyped. */
    UNKNOWN,
    INFO,
    STATESET,
    GAUGEHISTOGRAM;

    /** @return the type of a {@code # TYPE} line's word (lower case, as written), or null if it names none. */
    static MetricType of(final String word)
    {
        for (final MetricType t : values())
        {
            if (t.name().toLowerCase(Locale.ROOT).equals(word))
            {
                return t;
            }
        }
        return null;
    }
}
