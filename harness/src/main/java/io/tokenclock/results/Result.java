package io.tokenclock.results;

import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.results.record.RunRecord;

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
     * @return why it is less than whole, or null: a run's or a merge's own {@code partial_reason}; a set's
     * ({@code repetitions.json}, {@code sweep.json}, {@code ab.json} {@code partial}), such as a signal that stopped
     * it, or "in progress" for a set written as it went and stopped by {@code kill -9} (or still running).
     */
    default String partial()
    {
        return null;
    }

    /** @return {@code file}'s {@code partial} when it is text, else null (a set file that is absent: null). */
    static String partialOf(final JsonNode file)
    {
        return file != null && file.path("partial").isTextual() ? file.get("partial").asText() : null;
    }

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
