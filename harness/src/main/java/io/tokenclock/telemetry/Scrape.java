package io.tokenclock.telemetry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One parsed exposition: its samples in the order written, the types and help texts its comment lines declared, and
 * the lines that could not be parsed (skipped, counted, the first {@value Exposition#MAX_ERRORS_KEPT} kept).
 * Immutable and thread-safe once built.
 *
 * @param samples    every sample line parsed, in order.
 * @param types      metric family name to its declared type.
 * @param help       metric family name to its help text, unescaped.
 * @param errorCount lines skipped as malformed.
 * @param errors     the first of them, with their line numbers.
 * @param eof        whether an OpenMetrics {@code # EOF} line was seen.
 */
public record Scrape(List<Sample> samples, Map<String, MetricType> types, Map<String, String> help, int errorCount,
    List<ParseError> errors, boolean eof)
{
    /** Suffixes a sample's name may add to its family's name, longest first. */
    private static final String[] SUFFIXES = {"_bucket", "_gcount", "_created", "_count", "_total", "_gsum", "_info",
        "_sum"};

    /**
     * One line skipped as malformed.
     *
     * @param line    its number, from 1.
     * @param message why, in one line.
     */
    public record ParseError(int line, String message)
    {
    }

    public Scrape
    {
        samples = Collections.unmodifiableList(new ArrayList<>(samples));
        types = Collections.unmodifiableMap(new LinkedHashMap<>(types));
        help = Collections.unmodifiableMap(new LinkedHashMap<>(help));
        errors = List.copyOf(errors);
    }

    /** @return every sample whose name is exactly {@code name}, in order; empty if none. */
    public List<Sample> named(final String name)
    {
        final List<Sample> found = new ArrayList<>();
        for (final Sample s : samples)
        {
            if (s.name().equals(name))
            {
                found.add(s);
            }
        }
        return found;
    }

    /** @return the samples grouped by name, each group in order. */
    public Map<String, List<Sample>> byName()
    {
        final Map<String, List<Sample>> by = new HashMap<>();
        for (final Sample s : samples)
        {
            by.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(s);
        }
        return by;
    }

    /**
     * @return the declared type of the family a sample name belongs to: its own name's, else that of the name without
     * a histogram, summary, counter or info suffix; {@link MetricType#UNTYPED} when none was declared.
     */
    public MetricType typeOf(final String sampleName)
    {
        final MetricType own = types.get(sampleName);
        if (own != null)
        {
            return own;
        }
        for (final String suffix : SUFFIXES)
        {
            if (sampleName.endsWith(suffix))
            {
                final MetricType family = types.get(sampleName.substring(0, sampleName.length() - suffix.length()));
                if (family != null)
                {
                    return family;
                }
            }
        }
        return MetricType.UNTYPED;
    }
}
