package io.tokenclock.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.metrics.Counter;
import io.tokenclock.peers.PeerRun;
import io.tokenclock.peers.Peers;
import io.tokenclock.results.record.FileErrors;
import io.tokenclock.results.record.PooledRecord;
import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.record.ReportSection;
import io.tokenclock.results.record.RunRecord;

/**
 * Opens any result: an output directory of any kind (by its {@code index.json}, or, for a directory written before
 * there was one, by the file that names its kind: {@code repetitions.json}, {@code sweep.json}, {@code ab.json},
 * {@code record.json}), one of those files itself, or a peer tool's result file. Thread-safe.
 */
public final class Results
{
    /** A run's record in its directory. */
    public static final String RECORD = "record.json";

    private Results()
    {
    }

    /**
     * @return the result at {@code path}.
     * @throws IllegalArgumentException when it is none (one line naming the path and what was looked for), or a peer
     *                                  file's field is not what its shape holds.
     */
    public static Result open(final Path path) throws IOException
    {
        if (!Files.exists(path))
        {
            throw new IllegalArgumentException(path + ": no such file or directory");
        }
        if (Files.isRegularFile(path))
        {
            return openFile(path);
        }
        final Index index = Index.read(path);
        final Kind kind = index != null ? index.type() : inferred(path);
        return switch (kind)
        {
            case RUN -> new RunResultDir(path, record(path));
            case REPETITIONS -> new RepetitionSet(path, members(path, index, "repetition"),
                tree(path.resolve("repetitions.json")), pooled(path.resolve(PooledRecord.FILE)));
            case SWEEP -> new Sweep(path, index != null ? members(path, index, "") : LegacyMembers.sweep(path),
                tree(path.resolve("sweep.json")));
            case AB -> ab(path, index);
            case MERGED -> new Merged(path, index, record(path));
            case IMPORTED -> imported(path, index);
        };
    }

    /** @return the kind of a directory written without {@code index.json}, by the file that names it. */
    static Kind inferred(final Path dir)
    {
        if (Files.isRegularFile(dir.resolve("repetitions.json")))
        {
            return Kind.REPETITIONS;
        }
        if (Files.isRegularFile(dir.resolve("sweep.json")))
        {
            return Kind.SWEEP;
        }
        if (Files.isRegularFile(dir.resolve("ab.json")))
        {
            return Kind.AB;
        }
        if (Files.isRegularFile(dir.resolve(RECORD)))
        {
            return Kind.RUN;
        }
        if (Files.isRegularFile(dir.resolve("profile_export_aiperf.json")))
        {
            return Kind.IMPORTED; // an AIPerf artifact directory
        }
        throw new IllegalArgumentException(dir + ": not a tokenclock result: no index.json, record.json, " +
            "repetitions.json, sweep.json or ab.json");
    }

    private static Result openFile(final Path file) throws IOException
    {
        final String name = file.getFileName().toString();
        if (List.of(RECORD, Index.FILE, "repetitions.json", PooledRecord.FILE, "sweep.json", "ab.json")
            .contains(name))
        {
            final Path parent = file.toAbsolutePath().getParent();
            return name.equals(RECORD) && Index.read(parent) == null ? new RunResultDir(parent, record(parent)) :
                open(parent);
        }
        final List<PeerRun> peers = Peers.read(file);
        if (peers == null)
        {
            throw new IllegalArgumentException(file + ": not a result: neither a tokenclock file nor a vLLM, SGLang, " +
                "AIPerf or GuideLLM result in a shape this build reads (docs/RESULTS.md, \"Peers' results\")");
        }
        return new Imported(file, peers);
    }

    private static Result imported(final Path dir, final Index index) throws IOException
    {
        if (index == null)
        {
            final List<PeerRun> peers = Peers.read(dir);
            if (peers == null)
            {
                throw new IllegalArgumentException(dir.resolve("profile_export_aiperf.json") + ": not a result: " +
                    "not in AIPerf's shape (a request_latency metric beside its input_config; docs/RESULTS.md, " +
                    "\"Peers' results\")");
            }
            return new Imported(dir, peers);
        }
        if (index.members().isEmpty())
        {
            throw new IllegalArgumentException(dir.resolve(Index.FILE) + ": field members: expected the imported " +
                "file, got none");
        }
        return openFile(dir.resolve(index.members().get(0).path()));
    }

    private static AbResult ab(final Path dir, final Index index) throws IOException
    {
        final List<Result.Run> runs = index != null ? members(dir, index, "") : LegacyMembers.ab(dir);
        return new AbResult(dir, runs.stream().filter(r -> r.role().startsWith("a ")).toList(),
            runs.stream().filter(r -> r.role().startsWith("b ")).toList(), tree(dir.resolve("ab.json")));
    }

    /** @return the members' runs, from the index, or (no index) the {@code rep-K} directories in order. */
    private static List<Result.Run> members(final Path dir, final Index index, final String legacyRole)
        throws IOException
    {
        if (index == null)
        {
            return LegacyMembers.repetitions(dir, legacyRole);
        }
        final List<Result.Run> runs = new ArrayList<>();
        for (final Index.Member m : index.members())
        {
            final Path member = dir.resolve(m.path());
            runs.add(new Result.Run(m.role(), member, record(member)));
        }
        return runs;
    }

    /**
     * @return the record in run directory {@code dir}; none, or one whose {@code requests.jsonl} beside it is not of
     * the same result ({@link RequestsFile}), is one line naming the directory or the file.
     */
    public static RunRecord record(final Path dir) throws IOException
    {
        final Path file = dir.resolve(RECORD);
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException(dir + ": no record.json (a run directory holds one)");
        }
        final RunRecord record = RecordJson.read(file);
        final ReportSection.Counts counts = record.report() == null ? null : record.report().counts();
        if (counts != null)
        {
            final String why = RequestsFile.disagreement(dir, counts.measured() +
                counts.get(Counter.WARMUP_REQUESTS), record.partial());
            if (why != null)
            {
                throw new IllegalArgumentException(dir.resolve(RequestsFile.FILE) + " " + why);
            }
        }
        return record;
    }

    /** @return the pooled record in {@code file}, or null when there is none; one that is not is one line. */
    static PooledRecord pooled(final Path file) throws IOException
    {
        if (!Files.isRegularFile(file))
        {
            return null;
        }
        final PooledRecord p;
        try
        {
            p = RecordJson.JSON.readValue(file.toFile(), PooledRecord.class);
        }
        catch (final com.fasterxml.jackson.core.JacksonException ex)
        {
            throw FileErrors.of(file, "a pooled.json", ex);
        }
        if (p == null)
        {
            throw new IllegalArgumentException(file + ": expected a pooled record (a JSON object), got null");
        }
        if (!PooledRecord.FORMAT.equals(p.format()))
        {
            throw new IllegalArgumentException(file + ": field format: expected \"" + PooledRecord.FORMAT +
                "\", got " + p.format());
        }
        return p;
    }

    static JsonNode tree(final Path file) throws IOException
    {
        if (!Files.isRegularFile(file))
        {
            return null;
        }
        final JsonNode tree;
        try
        {
            tree = RecordJson.JSON.readTree(file.toFile());
        }
        catch (final com.fasterxml.jackson.core.JacksonException ex)
        {
            throw FileErrors.of(file, "a " + file.getFileName(), ex);
        }
        if (!tree.isObject())
        {
            throw new IllegalArgumentException(file + ": expected a JSON object, got " + tree.getNodeType()
                .toString().toLowerCase(java.util.Locale.ROOT));
        }
        return tree;
    }

    /**
     * @return the record in {@code file} as a tree (as {@code merge} reads a shard's): one that is no JSON, no JSON
     * object, or whose format or formulas version is newer than this build's, is one line naming {@code file}.
     */
    public static JsonNode recordTree(final Path file) throws IOException
    {
        final JsonNode tree;
        try
        {
            tree = RecordJson.JSON.readTree(file.toFile());
        }
        catch (final com.fasterxml.jackson.core.JacksonException ex)
        {
            throw FileErrors.of(file, "a record", ex);
        }
        RecordJson.check(file, tree);
        return tree;
    }

    /** @return the subdirectories of {@code dir} named {@code PREFIX-K}, in increasing K. */
    static List<Path> numbered(final Path dir, final String prefix) throws IOException
    {
        if (!Files.isDirectory(dir))
        {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir))
        {
            return s.filter(p -> Files.isDirectory(p) && p.getFileName().toString().matches(prefix + "-\\d+"))
                .sorted(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString()
                    .substring(prefix.length() + 1))))
                .toList();
        }
    }
}
