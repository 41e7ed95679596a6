package io.tokenclock.merge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenclock.json.Json;
import io.tokenclock.results.Results;

/**
 * One shard's run directory as {@code merge} reads it: its record and the facts of its {@code shard} section.
 *
 * @param dir    the run directory.
 * @param record its record.json.
 * @param index  the shard's index.
 * @param count  the shard count it was one of.
 */
record ShardRun(Path dir, JsonNode record, int index, int count)
{
    private static final ObjectMapper JSON = Json.MAPPER;

    /** @return the shard in {@code dir}, or null when the directory holds no record (a missing shard). */
    static ShardRun read(final Path dir) throws IOException
    {
        final Path file = dir.resolve("record.json");
        if (!Files.isReadable(file))
        {
            return null;
        }
        final JsonNode record = Results.recordTree(file);
        final JsonNode shard = record.path("shard");
        if (!shard.isObject())
        {
            throw new IllegalArgumentException(dir + " is not a shard's run directory: its record.json has no shard " +
                "section (run it with --shard I/N or --shards N)");
        }
        return new ShardRun(dir, record, shard.path("index").asInt(), shard.path("count").asInt());
    }

    /** @return "shard I/N (DIR)", how every message names it. */
    String name()
    {
        return "shard " + index + "/" + count + " (" + dir + ")";
    }

    JsonNode shard()
    {
        return record.path("shard");
    }

    /** @return why the shard refused to run (it was ready too late), or null. */
    String refused()
    {
        return shard().hasNonNull("refused") ? shard().get("refused").asText() : null;
    }

    /** @return why the shard's record is partial (it failed, was interrupted, or never finished), or null. */
    String partialReason()
    {
        return record.path("partial").asBoolean() ? record.path("partial_reason").asText("partial") : null;
    }

    /** @return whether it measured anything to merge: it ran (did not refuse). */
    boolean ran()
    {
        return refused() == null;
    }

    /** @return add to a stamp of its monotonic clock to put it on the wall clock, ns. */
    long wallMinusMonotonicNs()
    {
        return shard().path("wall_minus_monotonic_ns").asLong();
    }

    /** @return its window's start on the wall clock, ns since the epoch. */
    long windowStartWallNs()
    {
        return record.path("report").path("window").path("start_ns").asLong() + wallMinusMonotonicNs();
    }

    /** @return its window's end on the wall clock, ns since the epoch. */
    long windowEndWallNs()
    {
        return record.path("report").path("window").path("end_ns").asLong() + wallMinusMonotonicNs();
    }

    /** @return the version of the formulas its figures were computed with, or null when the record names none. */
    String formulasVersion()
    {
        return record.path("tokenclock").path("formulas_version").asText(null);
    }

    /** @return the requests its record counts, measured and warm-up: the lines its requests.jsonl holds. */
    long countedRequests()
    {
        final JsonNode counts = record.path("report").path("counts");
        return counts.path("measured").asLong() + counts.path("warmup").asLong();
    }

    /** @return its window, s. */
    double windowSeconds()
    {
        return record.path("report").path("window").path("duration_s").asDouble();
    }
}
