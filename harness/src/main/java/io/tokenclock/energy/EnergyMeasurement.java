package io.tokenclock.energy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The energy measured over a run's window: each channel's integral, the boundary they make up, and one line for
 * every source or channel that could not be read. The boundary is the set of components measured: with a wall meter
 * it is the meter's ({@code wall}; {@code nodes} for several meters) and the other channels are inside it, reported
 * beside it but not added; without one it is the accelerators, CPU packages and DRAM that were measured, added up. An
 * unavailable source is never a zero: it narrows the boundary, and says so.
 * <p>
 * Immutable and thread-safe.
 *
 * @param sources           every configured source, as configured.
 * @param boundary          the boundary in words ({@code accelerator + CPU + DRAM}, {@code wall}, ...), or null
 *                          when nothing was measured.
 * @param boundarySources   each component of the boundary and the channels that measured it.
 * @param joules            the energy inside the boundary, J, or null.
 * @param uncertaintyJoules the sum of the channels' error bounds, J, or null.
 * @param windowSeconds     the measured window, s.
 * @param parts             every channel measured, in the boundary or beside it.
 * @param unavailable       one line per source or channel that could not be read.
 * @param synthetic         one line per source whose readings declare themselves synthetic (not a measurement of
 *                          any machine, e.g. the shipped example meter file); empty when every reading is measured.
 */
public record EnergyMeasurement(List<String> sources, String boundary, Map<String, List<String>> boundarySources,
    Double joules, Double uncertaintyJoules, double windowSeconds, List<Part> parts, List<String> unavailable,
    List<String> synthetic)
{
    /**
     * One channel's energy.
     *
     * @param channel    the channel, e.g. {@code rapl:package-0}.
     * @param component  what it measures.
     * @param inBoundary whether it is added into the total (false: inside a wall meter's boundary).
     * @param integral   its energy over the window.
     */
    public record Part(String channel, Component component, boolean inBoundary, Integral integral)
    {
    }

    public EnergyMeasurement
    {
        sources = List.copyOf(sources);
        boundarySources = Collections.unmodifiableMap(new LinkedHashMap<>(boundarySources));
        parts = List.copyOf(parts);
        unavailable = List.copyOf(unavailable);
        synthetic = List.copyOf(synthetic);
    }

    /** @return this measurement, with {@code lines} saying which sources' readings are synthetic. */
    public EnergyMeasurement withSynthetic(final List<String> lines)
    {
        return new EnergyMeasurement(sources, boundary, boundarySources, joules, uncertaintyJoules, windowSeconds,
            parts, unavailable, lines);
    }

    /**
     * @param sources     every configured source.
     * @param measured    each channel's component and integral, available or not.
     * @param unavailable the lines of sources that gave no channel at all.
     */
    public static EnergyMeasurement of(final List<String> sources, final List<Part> measured,
        final List<String> unavailable, final double windowSeconds)
    {
        final List<String> lines = new ArrayList<>(unavailable);
        final List<Part> ok = new ArrayList<>();
        for (final Part p : measured)
        {
            if (p.integral().available())
            {
                ok.add(p);
            }
            else
            {
                lines.add(p.channel() + ": unavailable: " + p.integral().unavailable());
            }
        }
        final boolean wall = ok.stream().anyMatch(p -> p.component() == Component.WALL);
        final List<Part> parts = new ArrayList<>();
        final Map<String, List<String>> bySource = new LinkedHashMap<>();
        final Set<Component> in = EnumSet.noneOf(Component.class);
        double joules = 0;
        double error = 0;
        for (final Component c : Component.values())
        {
            for (final Part p : ok)
            {
                if (p.component() != c)
                {
                    continue;
                }
                final boolean counted = !wall || c == Component.WALL;
                parts.add(new Part(p.channel(), c, counted, p.integral()));
                if (counted)
                {
                    in.add(c);
                    bySource.computeIfAbsent(c.word(), k -> new ArrayList<>()).add(p.channel());
                    joules += p.integral().joules();
                    error += p.integral().uncertaintyJoules();
                }
            }
        }
        final String boundary = in.isEmpty() ? null : wall ? (bySource.get(Component.WALL.word()).size() > 1 ?
            "nodes" : "wall") : String.join(" + ", in.stream().map(Component::word).toList());
        return new EnergyMeasurement(sources, boundary, bySource, in.isEmpty() ? null : joules,
            in.isEmpty() ? null : error, windowSeconds, parts, lines, List.of());
    }

    /** @return the boundary with the channels of each component, for {@code measurement.power_boundary}; or null. */
    public String powerBoundary()
    {
        if (boundary == null)
        {
            return null;
        }
        final List<String> each = new ArrayList<>();
        boundarySources.forEach((c, channels) -> each.add(c + ": " + String.join(", ", channels)));
        return boundary + " (" + String.join("; ", each) + ")";
    }

    /** @return the mean power over the window, W, or null. */
    public Double averageWatts()
    {
        return joules == null || !(windowSeconds > 0) ? null : joules / windowSeconds;
    }
}
