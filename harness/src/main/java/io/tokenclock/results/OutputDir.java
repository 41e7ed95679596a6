package io.tokenclock.results;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * The one rule every command that writes a result directory applies ({@code run}, {@code sweep}, {@code ab},
 * {@code replay}, {@code merge}): a directory that already holds a result is never written into unless
 * {@code --force}, so that no result is lost silently. A directory holds a result when it holds any of the files a
 * reader opens it by ({@link Results#open}): {@code index.json}, {@code record.json}, {@code requests.jsonl},
 * {@code repetitions.json}, {@code sweep.json}, {@code ab.json}. Stateless.
 */
public final class OutputDir
{
    /** The files that make a directory hold a result, in the order a refusal names the first found. */
    public static final List<String> RESULT_FILES = List.of(Index.FILE, Results.RECORD, "requests.jsonl",
        "repetitions.json", "sweep.json", "ab.json");

    private OutputDir()
    {
    }

    /**
     * @param otherwise what to choose instead, as the refusal says it ({@code --output-dir or --run-id}).
     * @throws IllegalArgumentException (one line naming the directory and the file) when {@code dir} holds a result
     *                                  and {@code force} is false.
     */
    public static void refuseExisting(final Path dir, final boolean force, final String otherwise)
    {
        final String held = resultFile(dir);
        if (held != null && !force)
        {
            throw new IllegalArgumentException(dir + " already holds a result (" + held + "): choose another " +
                otherwise + ", or pass --force to replace it");
        }
    }

    /** @return the first of {@link #RESULT_FILES} that {@code dir} holds, or null when it holds none. */
    public static String resultFile(final Path dir)
    {
        for (final String name : RESULT_FILES)
        {
            if (Files.exists(dir.resolve(name), LinkOption.NOFOLLOW_LINKS))
            {
                return name;
            }
        }
        return null;
    }
}
