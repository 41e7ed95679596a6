package io.tokenclock.secrets;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * The one file tokenclock writes credentials into on purpose: the environment a rendered job sources (Slurm) or the
 * Secret it applies (Kubernetes), so that the script or manifest itself holds none. It is written as a credentials
 * file must be:
 * <ul>
 *   <li>readable and writable by its owner only ({@code 0600}), from the moment it exists: the mode is given when the
 *       file is created, never set after, so no other user can open it in between;</li>
 *   <li>created exclusively ({@code O_CREAT|O_EXCL}, which never follows a symbolic link) under a random name
 *       beside the target, then renamed over it: a link planted at the target is replaced, never followed, and a
 *       reader sees the old file or the new one, whole;</li>
 *   <li>its directory made, if missing, readable by its owner only ({@code 0700}).</li>
 * </ul>
 * On a file system without POSIX permissions it is refused: a credentials file whose mode cannot be set is not
 * written.
 */
public final class SecretFile
{
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
    private static final SecureRandom RANDOM = new SecureRandom();

    private SecretFile()
    {
    }

    /**
     * Writes {@code text} to {@code file}, as the class comment says.
     *
     * @param what the flag that named the file, for a message.
     * @return the file's absolute path.
     */
    public static Path write(final String what, final Path file, final String text) throws IOException
    {
        final Path target = file.toAbsolutePath().normalize();
        final Path dir = target.getParent();
        if (!Files.getFileStore(Files.exists(dir) ? dir : existingAncestor(dir)).supportsFileAttributeView("posix"))
        {
            throw new IllegalArgumentException(what + " " + target + ": its file system has no POSIX permissions, " +
                "so the file could not be kept to its owner; choose another place");
        }
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS))
        {
            throw new IllegalArgumentException(what + " " + target + " is a directory: name a file");
        }
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
        final Path tmp = dir.resolve("." + target.getFileName() + "." + HexFormat.of().toHexDigits(RANDOM.nextLong()) +
            ".tmp");
        final Set<OpenOption> create = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS);
        try (SeekableByteChannel out = Files.newByteChannel(tmp, create,
            PosixFilePermissions.asFileAttribute(OWNER_FILE)))
        {
            // the umask can only narrow 0600; nothing is set by path afterwards (the path could be swapped)
            final ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining())
            {
                out.write(bytes);
            }
        }
        catch (final FileAlreadyExistsException ex)
        {
            throw new IOException(what + ": a file appeared at the random name " + tmp + ": not written", ex);
        }
        try
        {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException ex)
        {
            Files.deleteIfExists(tmp);
            throw ex;
        }
        return target;
    }

    private static Path existingAncestor(final Path dir)
    {
        Path p = dir;
        while (p != null && !Files.exists(p))
        {
            p = p.getParent();
        }
        return p == null ? Path.of("/") : p;
    }
}
