package io.tokenclock.results;

import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.results.record.PooledRecord;

/**
 * {@code run --repetitions N}: one run directory per repetition, {@code repetitions.json}, their spread, and
 * {@code pooled.json}, the set's top-level record: the whole repetitions' requests pooled.
 *
 * @param path        the directory.
 * @param repetitions the repetitions, in order (role {@code repetition K}).
 * @param spread      {@code repetitions.json}: each figure per repetition, its mean, stdev and 95% interval.
 * @param pooled      {@code pooled.json}, or null for a set written before it (or stopped before its end).
 */
public record RepetitionSet(Path path, List<Run> repetitions, JsonNode spread, PooledRecord pooled) implements Result
{
    @Override
    public Kind kind()
    {
        return Kind.REPETITIONS;
    }

    @Override
    public String partial()
    {
        return spread == null ? "no repetitions.json: the set was stopped before its end" : Result.partialOf(spread);
    }

    @Override
    public List<Run> runs()
    {
        return repetitions;
    }
}
