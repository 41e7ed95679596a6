package io.tokenclock.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SecretFileTest
{
    @TempDir
    Path tmp;

    @Test
    void shouldWriteAFileOnlyItsOwnerReadsInADirectoryOnlyItsOwnerEnters() throws Exception
    {
        final Path file = SecretFile.write("--secrets-file", tmp.resolve("new/dir/job.env"), "export K='v'\n");
        assertEquals("export K='v'\n", Files.readString(file));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        try (Stream<Path> files = Files.list(file.getParent()))
        {
            assertEquals(List.of(file), files.toList(), "no temporary file left beside it");
        }
    }

    @Test
    void shouldReplaceAPlantedLinkInsteadOfWritingThroughIt() throws Exception
    {
        final Path victim = Files.writeString(tmp.resolve("victim"), "keep me");
        final Path link = Files.createSymbolicLink(tmp.resolve("job.env"), victim);
        SecretFile.write("--secrets-file", link, "export K='v'\n");
        assertEquals("keep me", Files.readString(victim), "the link's target is untouched");
        assertFalse(Files.isSymbolicLink(link), "the link itself was replaced");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(link,
            LinkOption.NOFOLLOW_LINKS)));
    }

    @Test
    void shouldReplaceAnEarlierFileWholeAndRefuseADirectory() throws Exception
    {
        final Path file = tmp.resolve("job.env");
        Files.writeString(file, "old and longer than the new text");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        SecretFile.write("--secrets-file", file, "new\n");
        assertEquals("new\n", Files.readString(file));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
            "a new file, not the old one rewritten with its old mode");
        final IllegalArgumentException dir = assertThrows(IllegalArgumentException.class,
            () -> SecretFile.write("--secrets-file", tmp, "x"));
        assertTrue(dir.getMessage().startsWith("--secrets-file " + tmp + " is a directory"), dir.getMessage());
    }
}
