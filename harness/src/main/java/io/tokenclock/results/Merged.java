package io.tokenclock.results;

import java.nio.file.Path;
import java.util.List;

import io.tokenclock.results.record.RunRecord;

/**
 * {@code merge}: shards of one run merged into one record ({@code record.json} in the directory), its members the
 * shards (role {@code shard K/N}).
 *
 * @param path   the directory.
 * @param index  its index.
 * @param record the merged record.
 */
public record Merged(Path path, Index index, RunRecord record) implements Result
{
    @Override
    public Kind kind()
    {
        return Kind.MERGED;
    }

    @Override
    public String partial()
    {
        return record.partial() ? record.partialReason() : null;
    }

    @Override
    public List<Run> runs()
    {
        return List.of(new Run("merged", path, record));
    }
}
