package io.tokenclock.workload.dataset;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * A JSONL trace read line by line, each line's place in the file kept so that it can be read again alone: the first
 * pass indexes a trace of any size in a few bytes a line, and a session's lines are read back only when the session
 * opens. A gzipped trace ({@code .gz}, as TraceLab publishes its corpus) is unpacked once into a temporary file
 * (deleted on close), since a compressed stream cannot be read at an offset. Lines must be UTF-8.
 * <p>
 * Not thread-safe: one reader at a time.
 */
final class TraceFile implements AutoCloseable
{
    /** Called for every line of the file, blank ones included, in order. */
    @FunctionalInterface
    interface LineVisitor
    {
        /**
         * @param lineNo 1-based.
         * @param offset the line's first byte in the (unpacked) file.
         * @param length its bytes, the newline (and a CR before it) excluded.
         * @param text   the line.
         */
        void line(int lineNo, long offset, int length, String text);
    }

    private final Path source;
    private final Path plain;
    private final boolean temporary;
    private FileChannel channel;

    private TraceFile(final Path source, final Path plain, final boolean temporary)
    {
        this.source = source;
        this.plain = plain;
        this.temporary = temporary;
    }

    /** @return the trace in {@code file}, unpacked first when its name ends in {@code .gz}. */
    static TraceFile open(final Path file)
    {
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException(file + ": no such file");
        }
        if (!file.getFileName().toString().endsWith(".gz"))
        {
            return new TraceFile(file, file, false);
        }
        try
        {
            final Path unpacked = Files.createTempFile("tokenclock-trace-", ".jsonl");
            try (InputStream in = new GZIPInputStream(Files.newInputStream(file), 1 << 16))
            {
                Files.copy(in, unpacked, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            catch (final ZipException ex)
            {
                Files.deleteIfExists(unpacked);
                throw new IllegalArgumentException(file + ": not a gzip file (" + ex.getMessage() + ")");
            }
            return new TraceFile(file, unpacked, true);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(file + ": cannot unpack", ex);
        }
    }

    /** @return the file as the user named it. */
    Path source()
    {
        return source;
    }

    /** Reads every line once, in order. */
    void forEachLine(final LineVisitor visitor)
    {
        try (InputStream in = Files.newInputStream(plain))
        {
            final byte[] chunk = new byte[1 << 16];
            byte[] line = new byte[1 << 12];
            int length = 0;
            long offset = 0;
            long lineStart = 0;
            int lineNo = 0;
            int n;
            while ((n = in.read(chunk)) > 0)
            {
                for (int i = 0; i < n; i++)
                {
                    final byte b = chunk[i];
                    offset++;
                    if (b == '\n')
                    {
                        visit(visitor, ++lineNo, lineStart, line, length);
                        length = 0;
                        lineStart = offset;
                        continue;
                    }
                    if (length == line.length)
                    {
                        line = Arrays.copyOf(line, length << 1);
                    }
                    line[length++] = b;
                }
            }
            if (length > 0)
            {
                visit(visitor, lineNo + 1, lineStart, line, length);
            }
        }
        catch (final NoSuchFileException ex)
        {
            throw new IllegalArgumentException(source + ": no such file");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(source + ": cannot read", ex);
        }
    }

    private void visit(final LineVisitor visitor, final int lineNo, final long start, final byte[] bytes,
        final int length)
    {
        final int n = length > 0 && bytes[length - 1] == '\r' ? length - 1 : length;
        visitor.line(lineNo, start, n, decode(bytes, n, lineNo));
    }

    private String decode(final byte[] bytes, final int length, final int lineNo)
    {
        try
        {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, 0, length)).toString();
        }
        catch (final CharacterCodingException ex)
        {
            throw new IllegalArgumentException(source + ":" + lineNo + ": not UTF-8 text (trace files are UTF-8)");
        }
    }

    /** @return the line of {@code length} bytes at {@code offset}, read again from the file. */
    String line(final long offset, final int length)
    {
        try
        {
            if (channel == null)
            {
                channel = FileChannel.open(plain, StandardOpenOption.READ);
            }
            final ByteBuffer buffer = ByteBuffer.allocate(length);
            long at = offset;
            while (buffer.hasRemaining())
            {
                final int n = channel.read(buffer, at);
                if (n < 0)
                {
                    throw new IllegalStateException(source + ": the file got shorter while it was replayed");
                }
                at += n;
            }
            return new String(buffer.array(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(source + ": cannot read", ex);
        }
    }

    @Override
    public void close()
    {
        try
        {
            if (channel != null)
            {
                channel.close();
            }
            if (temporary)
            {
                Files.deleteIfExists(plain);
            }
        }
        catch (final IOException ex)
        {
            // a temporary file left behind is harmless; the run's results are not affected
        }
    }
}
