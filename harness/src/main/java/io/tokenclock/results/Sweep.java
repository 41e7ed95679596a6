package io.tokenclock.results;

import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code sweep}: one run per point (and per search probe), and {@code sweep.json}.
 *
 * @param path   the directory.
 * @param points the points' runs, in increasing load, then the search's (roles {@code point K}, {@code search K},
 *               {@code ceiling}).
 * @param sweep  {@code sweep.json}: the points' figures, the knees, the maximum goodput, the SLO search.
 */
public record Sweep(Path path, List<Run> points, JsonNode sweep) implements Result
{
    @Override
    public Kind kind()
    {
        return Kind.SWEEP;
    }

    @Override
    public String partial()
    {
        return Result.partialOf(sweep);
    }

    @Override
    public List<Run> runs()
    {
        return points;
    }
}
