package io.tokenclock.results;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code ab}: the variants' runs ({@code A/rep-K}, {@code B/rep-K}) and {@code ab.json}.
 *
 * @param path the directory.
 * @param a    variant A's runs (role {@code a K}).
 * @param b    variant B's runs (role {@code b K}).
 * @param ab   {@code ab.json}: each figure's difference with its interval and verdict.
 */
public record AbResult(Path path, List<Run> a, List<Run> b, JsonNode ab) implements Result
{
    @Override
    public Kind kind()
    {
        return Kind.AB;
    }

    @Override
    public String partial()
    {
        return Result.partialOf(ab);
    }

    @Override
    public List<Run> runs()
    {
        return Stream.concat(a.stream(), b.stream()).toList();
    }
}
