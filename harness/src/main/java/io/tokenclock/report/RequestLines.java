package io.tokenclock.report;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;
import io.tokenclock.record.FileErrors;

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
    private final BufferedReader in;
    private long line;

    private RequestLines(final Path file) throws IOException
    {
        this.file = file;
        this.in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
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
        String text;
        do
        {
            try
            {
                text = in.readLine();
            }
            catch (final CharacterCodingException ex)
            {
                throw new IllegalArgumentException(file + ": line " + (line + 1) + ": expected UTF-8 text, got " +
                    "bytes that are not");
            }
            if (text == null)
            {
                return null;
            }
            line++;
        }
        while (text.isBlank());
        return parse(text);
    }

    private ObjectNode parse(final String text)
    {
        final JsonNode n;
        try
        {
            n = JSON.readTree(text);
        }
        catch (final JacksonException ex)
        {
            throw new IllegalArgumentException(file + ": line " + line + ": " + FileErrors.describe("a request",
                ex).replaceFirst("^line \\d+: ", ""), ex);
        }
        if (!(n instanceof ObjectNode o))
        {
            throw new IllegalArgumentException(file + ": line " + line + ": expected one JSON object per line, got " +
                n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
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
            final Iterator<Map.Entry<String, JsonNode>> it = n.fields();
            while (it.hasNext())
            {
                final Map.Entry<String, JsonNode> e = it.next();
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

    @Override
    public void close() throws IOException
    {
        in.close();
    }
}
