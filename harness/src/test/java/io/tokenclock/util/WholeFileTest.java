package io.tokenclock.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** {@link WholeFile}: a file appears whole or not at all, and nothing planted at a name is followed. */
final class WholeFileTest
{
    @TempDir
    Path dir;

    @Test
    void shouldReplaceAFileWholeAndLeaveNothingElseBeside() throws IOException
    {
        final Path file = dir.resolve("record.json");
        Files.writeString(file, "old");
        WholeFile.writeString(file, "new");
        assertEquals("new", Files.readString(file));
        assertEquals(List.of("record.json"), names());
    }

    @Test
    void shouldLeaveTheOldFileAndNoTemporaryFileWhenTheContentFails() throws IOException
    {
        final Path file = dir.resolve("requests.jsonl");
        Files.writeString(file, "{\"id\":1}\n");
        final IOException ex = assertThrows(IOException.class, () -> WholeFile.write(file, out ->
        {
            out.write("{\"id\":2}\n{\"id\":".getBytes(StandardCharsets.UTF_8));
            throw new IOException("cut mid-line");
        }));
        assertEquals("cut mid-line", ex.getMessage());
        assertEquals("{\"id\":1}\n", Files.readString(file), "the old file, whole");
        assertEquals(List.of("requests.jsonl"), names(), "no half-file left under any name");
    }

    @Test
    void shouldNeverFollowALinkPlantedAtThePredictableTemporaryName() throws IOException
    {
        final Path victim = Files.writeString(dir.resolve("victim"), "precious");
        Files.createSymbolicLink(dir.resolve("report.html.tmp"), victim);
        final Path file = dir.resolve("report.html");
        WholeFile.writeString(file, "<html>");
        assertEquals("precious", Files.readString(victim), "the link's target is untouched");
        assertTrue(Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS), "report.html is a file, never a link");
        assertEquals("<html>", Files.readString(file));
    }

    @Test
    void shouldReplaceALinkAtTheTargetNameWithAFileAndLeaveItsTargetAlone() throws IOException
    {
        final Path victim = Files.writeString(dir.resolve("victim"), "precious");
        final Path file = Files.createSymbolicLink(dir.resolve("record.json"), victim);
        WholeFile.writeString(file, "{}");
        assertEquals("precious", Files.readString(victim));
        assertTrue(Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void shouldOpenAStreamedFileWithoutFollowingALinkAtItsName() throws IOException
    {
        final Path victim = Files.writeString(dir.resolve("victim"), "precious");
        final Path file = Files.createSymbolicLink(dir.resolve("requests.jsonl"), victim);
        try (OutputStream out = WholeFile.replace(file))
        {
            out.write('x');
        }
        assertEquals("precious", Files.readString(victim));
        assertTrue(Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS));
        assertArrayEquals(new byte[] {'x'}, Files.readAllBytes(file));
    }

    @Test
    void shouldRefuseADirectoryOrAMissingDirectoryWithOneLineAndCreateNothing() throws IOException
    {
        final Path sub = Files.createDirectory(dir.resolve("out"));
        final IllegalArgumentException onto = assertThrows(IllegalArgumentException.class,
            () -> WholeFile.writeString(sub, "x"));
        assertTrue(onto.getMessage().contains("is a directory"), onto.getMessage());
        final IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> WholeFile.writeString(dir.resolve("nowhere").resolve("report.html"), "x"));
        assertTrue(missing.getMessage().contains("no such directory"), missing.getMessage());
        assertFalse(missing.getMessage().contains("\n"));
        assertEquals(List.of("out"), names());
        try (Stream<Path> s = Files.list(sub))
        {
            assertEquals(0, s.count());
        }
    }

    @Test
    void shouldRefuseAPipeAtTheNameWithOneLineAndLeaveItAPipe() throws Exception
    {
        final Path fifo = dir.resolve("requests.jsonl");
        final Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor(), "mkfifo " + fifo);
        for (final Executable write : List.<Executable>of(() -> WholeFile.writeString(fifo, "x"),
            () -> WholeFile.replace(fifo).close()))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, write);
            assertTrue(ex.getMessage().startsWith(fifo + ": not a regular file"), ex.getMessage());
            assertFalse(ex.getMessage().contains("\n"));
        }
        assertTrue(Files.readAttributes(fifo, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther(),
            "still the pipe, neither removed nor renamed over");
        assertEquals(List.of("requests.jsonl"), names());
    }

    /** Only the check, which changes nothing: a regression here must never cost the machine its null device. */
    @Test
    void shouldRefuseTheNullDeviceAsATarget()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> WholeFile.checkTarget(Path.of("/dev/null")));
        assertEquals("/dev/null: not a regular file (a device, a pipe or a socket, or a link to one), which writing " +
            "here would remove: give a file's name", ex.getMessage());
    }

    @Test
    void shouldRefuseALinkToADeviceAndLeaveTheLink() throws IOException
    {
        final Path link = Files.createSymbolicLink(dir.resolve("report.html"), Path.of("/dev/null"));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> WholeFile.writeString(link, "<html>"));
        assertTrue(ex.getMessage().contains("not a regular file"), ex.getMessage());
        assertTrue(Files.isSymbolicLink(link), "the link is still there, not replaced");
        assertEquals(List.of("report.html"), names());
        Files.delete(link); // the link itself: @TempDir's cleanup warns about a link that leaves the directory
    }

    @Test
    void shouldNameItsTemporaryFilesSoThatTheyAreKnownAsSuch()
    {
        assertTrue(WholeFile.isTemporary("record.json.0123456789abcdef.tmp"));
        assertFalse(WholeFile.isTemporary("record.json.tmp"));
        assertFalse(WholeFile.isTemporary("record.json"));
    }

    private List<String> names() throws IOException
    {
        try (Stream<Path> s = Files.list(dir))
        {
            return s.map(p -> p.getFileName().toString()).filter(n -> !n.equals("victim")).sorted().toList();
        }
    }
}
