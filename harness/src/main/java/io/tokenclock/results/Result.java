package io.tokenclock.results;

import java.nio.file.Path;
import java.util.List;

import io.tokenclock.record.RunRecord;

/**
 * Any output directory (or imported peer file), read by {@link Results#open}: one run, a repetition set, a sweep, an
 * A/B, a merged run, or a peer's file. Every kind gives its runs as typed records ({@link #runs()}), which is what
 * {@code record}, {@code report} and {@code compare} work from.
 */
public sealed interface Result permits RunResultDir, RepetitionSet, Sweep, AbResult, Merged, Imported
{
    /** @return the directory (or file) it was read from. */
    Path path();

    /** @return its kind. */
    Kind kind();

    /** @return its runs, each with its role ({@code run}, {@code repetition 2}, {@code point 3}, {@code a 1} ...). */
    List<Run> runs();

    /**
     * One run of a result.
     *
     * @param role   what it is in the whole.
     * @param dir    its directory (the file, for an imported one).
     * @param record its record.
     */
    record Run(String role, Path dir, RunRecord record)
    {
    }
}
