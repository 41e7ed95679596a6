package io.tokenclock.results;

import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code run --repetitions N}: one run directory per repetition and {@code repetitions.json}, their spread.
 *
 * @param path        the directory.
 * @param repetitions the repetitions, in order (role {@code repetition K}).
 * @param spread      {@code repetitions.json}: each figure per repetition, its mean, stdev and 95% interval.
 */
public record RepetitionSet(Path path, List<Run> repetitions, JsonNode spread) implements Result
{
    @Override
    public Kind kind()
    {
        return Kind.REPETITIONS;
    }

    @Override
    public List<Run> runs()
    {
        return repetitions;
    }
}
