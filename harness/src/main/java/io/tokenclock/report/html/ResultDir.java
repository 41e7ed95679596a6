package io.tokenclock.report.html;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * An output directory as the report reads it: its kind, its summary file, and the run directories it holds.
 * <p>
 * A small reader of the files as they are written today (record.json, repetitions.json, sweep.json, ab.json),
 * to be replaced by the shared result model (issue 20, "One model of a result") once it exists.
 *
 * @param dir     the directory.
 * @param kind    run, repetitions, sweep or ab.
 * @param summary the kind's summary file (record.json of a run), parsed.
 * @param runs    the run directories it holds, in order (the directory itself for a run).
 * @param roles   each run's role: "run", "rep-K", the sweep point's directory name, "A rep-K".
 */
record ResultDir(Path dir, String kind, JsonNode summary, List<Path> runs, List<String> roles)
{
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads {@code dir}; one clear line when it holds no result. */
    static ResultDir open(final Path dir) throws IOException
    {
        if (Files.isRegularFile(dir.resolve("sweep.json")))
        {
            return sweep(dir);
        }
        if (Files.isRegularFile(dir.resolve("ab.json")))
        {
            return withRuns(dir, "ab", read(dir.resolve("ab.json")), "A", "B");
        }
        if (Files.isRegularFile(dir.resolve("repetitions.json")))
        {
            return withRuns(dir, "repetitions", read(dir.resolve("repetitions.json")), "");
        }
        if (Files.isRegularFile(dir.resolve("record.json")))
        {
            return new ResultDir(dir, "run", read(dir.resolve("record.json")), List.of(dir), List.of("run"));
        }
        throw new IllegalArgumentException(dir + ": no record.json, repetitions.json, sweep.json or ab.json: " +
            "not a tokenclock result directory");
    }

    static JsonNode read(final Path file) throws IOException
    {
        try
        {
            return JSON.readTree(file.toFile());
        }
        catch (final com.fasterxml.jackson.core.JsonProcessingException ex)
        {
            throw new IllegalArgumentException(file + ": not valid JSON (" + ex.getOriginalMessage() + ")");
        }
    }

    private static ResultDir sweep(final Path dir) throws IOException
    {
        final JsonNode s = read(dir.resolve("sweep.json"));
        final List<Path> runs = new ArrayList<>();
        final List<String> roles = new ArrayList<>();
        if (s.path("ceiling").hasNonNull("run_dir"))
        {
            runs.add(dir.resolve(s.path("ceiling").path("run_dir").asText()));
            roles.add("ceiling");
        }
        for (final JsonNode p : s.path("points"))
        {
            if (p.hasNonNull("run_dir"))
            {
                runs.add(dir.resolve(p.path("run_dir").asText()));
                roles.add(p.path("run_dir").asText());
            }
        }
        return new ResultDir(dir, "sweep", s, runs, roles);
    }

    /** The rep-K directories under each variant ("" for the directory itself), in repetition order. */
    private static ResultDir withRuns(final Path dir, final String kind, final JsonNode summary,
        final String... variants) throws IOException
    {
        final List<Path> runs = new ArrayList<>();
        final List<String> roles = new ArrayList<>();
        for (final String v : variants)
        {
            final Path base = v.isEmpty() ? dir : dir.resolve(v);
            if (!Files.isDirectory(base))
            {
                continue;
            }
            try (Stream<Path> list = Files.list(base))
            {
                list.filter(p -> p.getFileName().toString().matches("rep-\\d+") &&
                    Files.isRegularFile(p.resolve("record.json")))
                    .sorted((a, b) -> Integer.compare(rep(a), rep(b)))
                    .forEach(p -> {
                        runs.add(p);
                        roles.add((v.isEmpty() ? "" : v + " ") + p.getFileName());
                    });
            }
        }
        return new ResultDir(dir, kind, summary, runs, roles);
    }

    private static int rep(final Path p)
    {
        return Integer.parseInt(p.getFileName().toString().substring(4));
    }

    /** @return the record of the first run it holds, or null: what an overlay checks against the others. */
    JsonNode firstRecord() throws IOException
    {
        for (final Path run : runs)
        {
            if (Files.isRegularFile(run.resolve("record.json")))
            {
                return read(run.resolve("record.json"));
            }
        }
        return null;
    }
}
