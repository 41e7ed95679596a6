package io.tokenclock.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * A peer's file, parsed, and its fields read with their shape checked: a field that is not what the shape holds is a
 * {@link PeerFormatException} naming the file, the field's path and what was expected. Python's {@code json} writes
 * {@code Infinity} and {@code NaN} bare (SGLang's {@code request_rate: Infinity}); they are read as numbers.
 */
final class PeerFile
{
    static final ObjectMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    final Path file;

    PeerFile(final Path file)
    {
        this.file = file;
    }

    /** @return the file as one JSON document, or null when it is not one. */
    JsonNode document() throws IOException
    {
        try
        {
            return JSON.readTree(file.toFile());
        }
        catch (final JacksonException ex)
        {
            return null;
        }
    }

    /** @return the file's non-blank lines, each a JSON object, or null when one is not. */
    List<JsonNode> lines() throws IOException
    {
        final List<JsonNode> lines = new ArrayList<>();
        for (final String line : Files.readAllLines(file))
        {
            if (line.isBlank())
            {
                continue;
            }
            try
            {
                final JsonNode n = JSON.readTree(line);
                if (!n.isObject())
                {
                    return null;
                }
                lines.add(n);
            }
            catch (final JacksonException ex)
            {
                return null;
            }
        }
        return lines.isEmpty() ? null : lines;
    }

    PeerFormatException error(final String field, final String expected, final JsonNode got)
    {
        return new PeerFormatException(file, field, expected + ", got " + (got == null || got.isMissingNode() ?
            "nothing" : shown(got)));
    }

    private static String shown(final JsonNode got)
    {
        final String s = got.toString();
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }

    /** @return the number at {@code field} of {@code n} ({@code path} names it); absent or not a number: an error. */
    double number(final JsonNode n, final String field, final String path)
    {
        final JsonNode v = n.path(field);
        if (!v.isNumber())
        {
            throw error(path, "a number", v);
        }
        return v.asDouble();
    }

    /** @return the number at {@code field}, or null when absent or null; another type is an error. */
    Double optional(final JsonNode n, final String field, final String path)
    {
        final JsonNode v = n.path(field);
        if (v.isMissingNode() || v.isNull())
        {
            return null;
        }
        if (!v.isNumber())
        {
            throw error(path, "a number", v);
        }
        return v.asDouble();
    }

    /** @return the numbers of array {@code field} times {@code scale}, or null when absent; else an error. */
    double[] numbers(final JsonNode n, final String field, final String path, final double scale)
    {
        final JsonNode v = n.path(field);
        if (v.isMissingNode() || v.isNull())
        {
            return null;
        }
        return array(v, path, scale);
    }

    /** @return the numbers of the array at {@code index} of {@code array}, times {@code scale}; else an error. */
    double[] numbersAt(final JsonNode array, final int index, final String path, final double scale)
    {
        return array(array.path(index), path, scale);
    }

    /** @return the numbers of the array {@code v}, times {@code scale}; else an error naming {@code path}. */
    private double[] array(final JsonNode v, final String path, final double scale)
    {
        if (!v.isArray())
        {
            throw error(path, "an array of numbers", v);
        }
        final double[] out = new double[v.size()];
        for (int i = 0; i < out.length; i++)
        {
            if (!v.get(i).isNumber())
            {
                throw error(path + "[" + i + "]", "a number", v.get(i));
            }
            out[i] = v.get(i).asDouble() * scale;
        }
        return out;
    }

    /** @return the text at {@code field}, or null. */
    static String text(final JsonNode n, final String field)
    {
        return n.path(field).isValueNode() && !n.path(field).isNull() ? n.get(field).asText() : null;
    }
}
