package io.tokenclock.util;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every file a tokenclock command writes, written so that it appears whole or not at all, and so that nothing planted
 * in the output directory is followed. The one place that writes result files (docs/RESULTS.md, "Files appear whole").
 * <p>
 * Why this way: a reader (or a user after {@code kill -9}) must never find a half-written {@code record.json} that
 * parses as a shorter record, nor a {@code requests.jsonl} cut mid-line beside an older record. So {@link #write}
 * writes the content to a temporary file beside the target and renames it over the target ({@code rename(2)}, atomic
 * within a directory): the name holds the old file or the new one, never a part. The temporary file's name is random
 * ({@code NAME.0123456789abcdef.tmp}) and it is created exclusively ({@code O_CREAT|O_EXCL}, which never follows a
 * link): a symbolic link planted at a name we might use is neither followed (its target is never written) nor renamed
 * into place (the target name never becomes a link), and a name already taken is tried again with another. Example:
 * <pre>
 * results/run/record.json.tmp -&gt; ~/.bashrc     planted before the run
 * WholeFile.write(results/run/record.json, bytes)
 *   creates results/run/record.json.5f0c2a91d4e3b7a8.tmp (new, never a link), writes, renames it to record.json
 *   ~/.bashrc untouched; record.json a regular file; the planted link still there, unused
 * </pre>
 * What it does not promise: durability across a power loss (no {@code fsync}: the threat is a process stopped at any
 * moment, not the machine). A process killed between creating and renaming leaves its temporary file behind under
 * its random name, which no reader takes for the target; on an orderly JVM exit (SIGINT, SIGTERM without tokenclock's
 * handlers) a shutdown hook removes the ones in flight.
 * <p>
 * Files written while a run goes on ({@code requests.jsonl}, {@code server_metrics.jsonl}) cannot be renamed into
 * place at the end without losing what a killed run wrote; {@link #replace} opens them instead: whatever the name held
 * (a file, a link) is removed, never followed, and the file is created exclusively. Whether such a file is whole is
 * then the record's to say (the record beside it counts its lines; docs/RESULTS.md).
 * <p>
 * A device, a pipe or a socket at the name, or a link to one, is refused (one line) and left as it is: both ways of
 * writing remove what the name held, and a device is no result file. Why it matters: as root, {@code RequestStageBenchmark}'s
 * {@code requests.jsonl} aimed at {@code /dev/null} (through {@link #replace}) removed the machine's null device and
 * left a regular file in its place, which a later {@code podman run} gave to the container as its stdin (conmon opens
 * {@code /dev/null} for it) and runc chowned to the image's user (runc gives a container's stdio to its user unless it
 * is the null device): munged and every {@code >/dev/null} on the machine then broke.
 * <p>
 * Thread-safe.
 */
public final class WholeFile
{
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int ATTEMPTS = 16;
    private static final int BUFFER_BYTES = 1 << 16;
    /** Temporary files being written, removed by the shutdown hook if the JVM exits before their rename. */
    private static final Set<Path> IN_FLIGHT = ConcurrentHashMap.newKeySet();

    static
    {
        try
        {
            Runtime.getRuntime().addShutdownHook(new Thread(WholeFile::removeInFlight, "tokenclock-whole-file"));
        }
        catch (final IllegalStateException ex)
        {
            // the JVM is already shutting down: nothing is written after this anyway
        }
    }

    private WholeFile()
    {
    }

    /** What a file holds: written to {@code out}, which {@link WholeFile} closes (closing it here only flushes). */
    @FunctionalInterface
    public interface Content
    {
        /** Writes the content. */
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes {@code file} whole or not at all: {@code content} to a new temporary file beside it, then renamed over
     * it. On any failure (the content's own included) the temporary file is removed and {@code file} is as it was.
     *
     * @throws IllegalArgumentException (one line) when {@code file} is a directory or its directory does not exist.
     */
    public static void write(final Path file, final Content content) throws IOException
    {
        checkTarget(file);
        final byte[] random = new byte[8];
        for (int attempt = 1; ; attempt++)
        {
            RANDOM.nextBytes(random);
            final Path tmp = file.resolveSibling(file.getFileName() + "." + HexFormat.of().formatHex(random) + ".tmp");
            final OutputStream created;
            try
            {
                // O_CREAT|O_EXCL|O_NOFOLLOW in one call: any existing name fails, a link (even a dangling one)
                // included, and nothing can be swapped in between creating the file and opening it
                created = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
            }
            catch (final FileAlreadyExistsException ex)
            {
                if (attempt == ATTEMPTS)
                {
                    throw ex;
                }
                continue;
            }
            writeAndRename(created, tmp, file, content);
            return;
        }
    }

    private static void writeAndRename(final OutputStream created, final Path tmp, final Path file,
        final Content content) throws IOException
    {
        IN_FLIGHT.add(tmp);
        try
        {
            try (OutputStream out = new BufferedOutputStream(created, BUFFER_BYTES))
            {
                content.writeTo(new Unclosable(out));
            }
            move(tmp, file);
        }
        catch (final IOException | RuntimeException | Error ex)
        {
            Files.deleteIfExists(tmp);
            throw ex;
        }
        finally
        {
            IN_FLIGHT.remove(tmp);
        }
    }

    /** Writes {@code bytes} to {@code file} whole or not at all ({@link #write(Path, Content)}). */
    public static void write(final Path file, final byte[] bytes) throws IOException
    {
        write(file, out -> out.write(bytes));
    }

    /** Writes {@code text} as UTF-8 to {@code file} whole or not at all ({@link #write(Path, Content)}). */
    public static void writeString(final Path file, final String text) throws IOException
    {
        write(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Opens {@code file} for a file written while a run goes on: whatever the name held before (a file, a symbolic
     * link: the link itself, never its target) is removed, and the file is created exclusively, so that nothing
     * planted at the name is followed.
     *
     * @throws IllegalArgumentException (one line) when {@code file} is a directory or its directory does not exist.
     */
    public static OutputStream replace(final Path file) throws IOException
    {
        checkTarget(file);
        Files.deleteIfExists(file);
        return Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * @throws IllegalArgumentException (one line naming it) when {@code file} cannot be a file written here: it is a
     * directory, a device, a pipe or a socket (or a link to one), or its directory does not exist.
     */
    public static void checkTarget(final Path file)
    {
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS))
        {
            throw new IllegalArgumentException(file + ": is a directory: give a file's name");
        }
        if (isSpecial(file))
        {
            throw new IllegalArgumentException(file + ": not a regular file (a device, a pipe or a socket, or a link " +
                "to one), which writing here would remove: give a file's name");
        }
        final Path parent = file.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent))
        {
            throw new IllegalArgumentException(file + ": no such directory: " + parent);
        }
    }

    /**
     * @return whether the name holds a device, a pipe or a socket, or a link to one ({@code /dev/stdout}): the link is
     * only looked through, never written through, and as root replacing it would break the machine's {@code /dev}.
     */
    private static boolean isSpecial(final Path file)
    {
        try
        {
            final BasicFileAttributes name =
                Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (name.isOther())
            {
                return true;
            }
            return name.isSymbolicLink() && Files.readAttributes(file, BasicFileAttributes.class).isOther();
        }
        catch (final IOException ex)
        {
            // nothing there (the usual case), a dangling link, or nothing readable: the write itself says what is wrong
            return false;
        }
    }

    /** @return whether {@code name} is one of this class's temporary names ({@code NAME.HEX16.tmp}). */
    public static boolean isTemporary(final String name)
    {
        return name.matches(".+\\.[0-9a-f]{16}\\.tmp");
    }

    private static void move(final Path tmp, final Path file) throws IOException
    {
        try
        {
            // rename(2): replaces whatever the name held (a link included, never followed) in one step
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final AtomicMoveNotSupportedException ex)
        {
            // not on Linux within one directory; a file system without rename keeps the best it can
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void removeInFlight()
    {
        for (final Path tmp : IN_FLIGHT)
        {
            try
            {
                Files.deleteIfExists(tmp);
            }
            catch (final IOException ex)
            {
                // the JVM is exiting: a temporary file left behind is never read as the target
            }
        }
    }

    /** The stream a content writes to: closing it flushes, so that {@link #write} closes the file itself, once. */
    private static final class Unclosable extends FilterOutputStream
    {
        Unclosable(final OutputStream out)
        {
            super(out);
        }

        @Override
        public void write(final byte[] b, final int off, final int len) throws IOException
        {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException
        {
            out.flush();
        }
    }
}
