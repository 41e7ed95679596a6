package io.tokenclock.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The members of a directory written before {@code index.json} existed, found as its writer laid them out:
 * {@code rep-K} for repetitions, {@code A/rep-K} and {@code B/rep-K} for an A/B, and {@code sweep.json}'s
 * {@code run_dir}s for a sweep.
 */
final class LegacyMembers
{
    private LegacyMembers()
    {
    }

    static List<Result.Run> repetitions(final Path dir, final String role) throws IOException
    {
        final List<Result.Run> runs = new ArrayList<>();
        for (final Path rep : Results.numbered(dir, "rep"))
        {
            final String k = rep.getFileName().toString().substring(4);
            runs.add(new Result.Run(role + " " + k, rep, Results.record(rep)));
        }
        return runs;
    }

    static List<Result.Run> ab(final Path dir) throws IOException
    {
        final List<Result.Run> runs = new ArrayList<>(repetitions(dir.resolve("A"), "a"));
        runs.addAll(repetitions(dir.resolve("B"), "b"));
        return runs;
    }

    static List<Result.Run> sweep(final Path dir) throws IOException
    {
        final JsonNode sweep = Results.tree(dir.resolve("sweep.json"));
        final List<Result.Run> runs = new ArrayList<>();
        int k = 0;
        for (final JsonNode p : sweep.path("points"))
        {
            k++;
            add(runs, dir, p, "point " + k);
        }
        k = 0;
        for (final JsonNode p : sweep.path("search").path("runs"))
        {
            k++;
            add(runs, dir, p, "search " + k);
        }
        return runs;
    }

    private static void add(final List<Result.Run> runs, final Path dir, final JsonNode point, final String role)
        throws IOException
    {
        final Path run = dir.resolve(point.path("run_dir").asText());
        if (Files.isRegularFile(run.resolve(Results.RECORD)))
        {
            runs.add(new Result.Run(role, run, Results.record(run)));
        }
    }
}
