package io.tokenclock.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import io.tokenclock.results.record.FileErrors;
import io.tokenclock.results.record.RecordJson;

/**
 * {@code index.json}, written in every output directory: the format, the directory's {@link Kind}, and its members
 * (the directories it is made of, relative to it, each with its role: {@code repetition 2}, {@code point 3},
 * {@code a 1}, {@code shard 0/4} ...). A run has no members. Readers skip keys they do not know, so a writer may add
 * keys (docs/RESULTS.md). Written from {@code run}, repetitions, {@code sweep}, {@code ab} and {@code merge}.
 *
 * @param format  {@link #FORMAT}.
 * @param kind    the kind's word.
 * @param members the member directories, in order.
 * @param command the command line that wrote the directory, or null (absent).
 */
public record Index(String format, String kind, List<Member> members,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<String> command)
{
    /** The format's name and version. */
    public static final String FORMAT = "tokenclock-index/1";
    /** The file's name in an output directory. */
    public static final String FILE = "index.json";

    public Index
    {
        members = members == null ? List.of() : List.copyOf(members);
    }

    /** @return an index of {@code kind} with {@code members}. */
    public static Index of(final Kind kind, final List<Member> members)
    {
        return new Index(FORMAT, kind.word(), members, null);
    }

    /** @return this index's kind. */
    @JsonIgnore
    public Kind type()
    {
        return Kind.of(kind);
    }

    /**
     * One member directory.
     *
     * @param path relative to the index's directory.
     * @param role what it is in the whole, e.g. {@code repetition 1}, {@code point 3}, {@code a 2}, {@code shard 0/4}.
     */
    public record Member(String path, String role)
    {
    }

    /** Writes {@code DIR/index.json} atomically, creating {@code DIR} if needed. */
    public void write(final Path dir) throws IOException
    {
        Files.createDirectories(dir);
        RecordJson.write(this, dir.resolve(FILE));
    }

    /**
     * Writes {@code DIR/index.json} of {@code kind} with {@code members}, each path absolute or relative to
     * {@code dir}, written relative to {@code dir} (a member outside it stays absolute).
     */
    public static void write(final Path dir, final Kind kind, final List<Member> members) throws IOException
    {
        of(kind, members.stream().map(m -> new Member(relative(dir, m.path()), m.role())).toList()).write(dir);
    }

    /**
     * @return the index in {@code DIR}, or null when it has none.
     * @throws IllegalArgumentException for one that is not an index of this format (one line naming the file).
     */
    public static Index read(final Path dir) throws IOException
    {
        final Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file))
        {
            return null;
        }
        final Index index;
        try
        {
            index = RecordJson.JSON.readValue(file.toFile(), Index.class);
        }
        catch (final com.fasterxml.jackson.core.JacksonException ex)
        {
            throw FileErrors.of(file, "an index.json", ex);
        }
        if (index == null)
        {
            throw new IllegalArgumentException(file + ": expected an index (a JSON object), got null");
        }
        if (!FORMAT.equals(index.format()))
        {
            throw new IllegalArgumentException(file + ": field format: expected \"" + FORMAT + "\", got " +
                index.format());
        }
        return index;
    }

    private static String relative(final Path dir, final String path)
    {
        final Path base = dir.toAbsolutePath().normalize();
        final Path p = (Path.of(path).isAbsolute() ? Path.of(path) : base.resolve(path)).normalize();
        return p.startsWith(base) ? base.relativize(p).toString() : path;
    }
}
