package io.tokenclock.results.record;

import java.io.CharConversionException;
import java.nio.file.Path;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

/**
 * The one line a file that is not what it claims gets: the file, the line or the field, and what was expected, in
 * words of ours, never the parser's text (which quotes the file's bytes and names Java types). Thread-safe.
 */
public final class FileErrors
{
    private FileErrors()
    {
    }

    /** @return {@code FILE: line L: expected ...} or {@code FILE: field a.b[2]: expected ...} for {@code ex}. */
    public static IllegalArgumentException of(final Path file, final String what, final JacksonException ex)
    {
        return new IllegalArgumentException(file + ": " + describe(what, ex), ex);
    }

    /** @return {@code line L: expected ...}, or {@code field F: expected ...}, for {@code ex} in a {@code what}. */
    public static String describe(final String what, final JacksonException ex)
    {
        if (ex instanceof DatabindException && !(ex instanceof StreamConstraintsException) &&
            !((JsonMappingException)ex).getPath().isEmpty())
        {
            return "field " + path((JsonMappingException)ex) + ": expected " + expected(ex);
        }
        final long line = ex.getLocation() == null ? 0 : ex.getLocation().getLineNr();
        return (line > 0 ? "line " + line + ": " : "") + "expected " + syntax(what, ex);
    }

    /** @return what a file that stopped being JSON should have been, and what it was, in words of ours. */
    public static String syntax(final String what, final JacksonException ex)
    {
        final String message = String.valueOf(ex.getOriginalMessage());
        if (ex instanceof JsonEOFException || message.contains("end-of-input"))
        {
            return "JSON, got the end of the file inside a value (cut short?)";
        }
        if (ex instanceof StreamConstraintsException)
        {
            return "JSON within its limits of nesting and size, got more";
        }
        if (ex.getCause() instanceof CharConversionException || message.contains("UTF-8") ||
            message.contains("UTF8"))
        {
            return "UTF-8 text, got bytes that are not";
        }
        if (message.contains("Non-standard token") || message.contains("NaN") || message.contains("Infinity"))
        {
            return "JSON of finite numbers, got NaN or Infinity";
        }
        return "JSON (" + what + "), got something else (cut short, or not JSON?)";
    }

    /** @return the JSON path of a binding error: {@code report.counts[2].total}. */
    private static String path(final JsonMappingException ex)
    {
        final StringBuilder sb = new StringBuilder();
        for (final JsonMappingException.Reference r : ex.getPath())
        {
            if (r.getFieldName() != null)
            {
                sb.append(sb.isEmpty() ? "" : ".").append(r.getFieldName());
            }
            else if (r.getIndex() >= 0)
            {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    private static String expected(final JacksonException ex)
    {
        if (ex instanceof MismatchedInputException m && m.getTargetType() != null)
        {
            final Class<?> t = m.getTargetType();
            if (t.isPrimitive() && t != boolean.class || Number.class.isAssignableFrom(t))
            {
                return "a number";
            }
            if (t == boolean.class || t == Boolean.class)
            {
                return "true or false";
            }
            if (t == String.class)
            {
                return "a string";
            }
            if (java.util.Collection.class.isAssignableFrom(t) || t.isArray())
            {
                return "an array";
            }
            return "an object";
        }
        return "a value of the record's shape";
    }
}
