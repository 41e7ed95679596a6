package io.tokenclock.report;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.results.record.FileErrors;

/**
 * {@code requests.jsonl} read back one line at a time (by {@code report} and {@code merge}), each line one JSON object
 * of finite numbers. A line that is not (cut short, not UTF-8, {@code NaN}, a number past the double's range, nested
 * past Jackson's limit) is one line naming the file and the line, exit 2: never the parser's text, never a figure
 * computed from it. Not thread-safe.
 */
public final class RequestLines implements Closeable
{
    private static final ObjectMapper JSON = Json.MAPPER;

    private final Path file;
    private final InputStream in;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private byte[] buffer = new byte[1 << 16];
    private int start;
    private int end;
    private long line;

    private RequestLines(final Path file) throws IOException
    {
        this.file = file;
        this.in = Files.newInputStream(file);
    }

    /** @return the lines of {@code file}, from its first. */
    public static RequestLines open(final Path file) throws IOException
    {
        return new RequestLines(file);
    }

    /** Hands {@code each} every line of {@code file}, in order. */
    public static void each(final Path file, final Consumer<ObjectNode> each) throws IOException
    {
        try (RequestLines lines = open(file))
        {
            ObjectNode n;
            while ((n = lines.next()) != null)
            {
                each.accept(n);
            }
        }
    }

    /** @return the next non-blank line's object, or null at the end of the file. */
    public ObjectNode next() throws IOException
    {
        byte[] text;
        do
        {
            text = readLine();
            if (text == null)
            {
                return null;
            }
            line++;
        }
        while (blank(text));
        try
        {
            utf8.reset().decode(ByteBuffer.wrap(text));
        }
        catch (final CharacterCodingException ex)
        {
            throw new IllegalArgumentException(file + ": line " + line + ": expected UTF-8 text, got bytes that are " +
                "not");
        }
        return parse(text);
    }

    /** @return the next line's bytes, without its newline, or null at the end of the file. */
    private byte[] readLine() throws IOException
    {
        while (true)
        {
            for (int i = start; i < end; i++)
            {
                if (buffer[i] == '\n')
                {
                    final byte[] text = java.util.Arrays.copyOfRange(buffer, start, i);
                    start = i + 1;
                    return text;
                }
            }
            if (start > 0)
            {
                System.arraycopy(buffer, start, buffer, 0, end - start);
                end -= start;
                start = 0;
            }
            if (end == buffer.length)
            {
                buffer = java.util.Arrays.copyOf(buffer, buffer.length * 2); // a line longer than the buffer
            }
            final int n = in.read(buffer, end, buffer.length - end);
            if (n < 0)
            {
                if (end == start)
                {
                    return null;
                }
                final byte[] text = java.util.Arrays.copyOfRange(buffer, start, end);
                start = end;
                return text;
            }
            end += n;
        }
    }

    private static boolean blank(final byte[] text)
    {
        for (final byte b : text)
        {
            if (b != ' ' && b != '\t' && b != '\r')
            {
                return false;
            }
        }
        return true;
    }

    private ObjectNode parse(final byte[] text)
    {
        int last = text.length - 1;
        while (last > 0 && (text[last] == ' ' || text[last] == '\t' || text[last] == '\r'))
        {
            last--;
        }
        if (text[last] != '}')
        {
            throw new IllegalArgumentException(file + ": line " + line + ": expected one JSON object per line, got " +
                "one cut short (no closing brace)");
        }
        final JsonNode n;
        try
        {
            n = JSON.readTree(text);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(file + ": line " + line + ": " + (ex instanceof JacksonException j ?
                FileErrors.describe("a request", j).replaceFirst("^line \\d+: ", "") : "expected JSON"), ex);
        }
        if (!(n instanceof ObjectNode o))
        {
            throw new IllegalArgumentException(file + ": line " + line + ": expected one JSON object per line, got " +
                (n == null ? "nothing" : n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)));
        }
        finite(o, "");
        return o;
    }

    /** Refuses a number past the double's range ({@code 1e400} reads as Infinity): no figure may come of it. */
    private void finite(final JsonNode n, final String at)
    {
        if (n.isDouble() && !Double.isFinite(n.asDouble()))
        {
            throw new IllegalArgumentException(file + ": line " + line + ": field " + at + ": expected a finite " +
                "number, got " + n.asDouble());
        }
        if (n.isObject())
        {
            for (final Map.Entry<String, JsonNode> e : n.properties())
            {
                finite(e.getValue(), at.isEmpty() ? e.getKey() : at + "." + e.getKey());
            }
        }
        else if (n.isArray())
        {
            for (int i = 0; i < n.size(); i++)
            {
                finite(n.get(i), at + "[" + i + "]");
            }
        }
    }

    /** @return the number of the line {@link #next()} returned last, from 1, blank lines counted (for errors). */
    public long line()
    {
        return line;
    }

    @Override
    public void close() throws IOException
    {
        in.close();
    }
}
