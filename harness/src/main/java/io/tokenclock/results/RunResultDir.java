package io.tokenclock.results;

import java.nio.file.Path;
import java.util.List;

import io.tokenclock.results.record.RunRecord;

/**
 * One run's directory: {@code record.json} (and {@code requests.jsonl} beside it).
 *
 * @param path   the directory.
 * @param record its record.
 */
public record RunResultDir(Path path, RunRecord record) implements Result
{
    @Override
    public Kind kind()
    {
        return Kind.RUN;
    }

    @Override
    public String partial()
    {
        return record.partial() ? record.partialReason() : null;
    }

    @Override
    public List<Run> runs()
    {
        return List.of(new Run("run", path, record));
    }
}
