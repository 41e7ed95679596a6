package io.tokenclock.peers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.results.record.FileErrors;

/**
 * A peer's file, read as a stream of top-level JSON values (one document, or one per line), each kept as a light tree,
 * and its fields read with their shape checked: a field that is not what the shape holds is a
 * {@link PeerFormatException} naming the file, the field's path and what was expected.
 * <p>
 * Memory is bounded by the requests, never by the file: a string is kept to its first {@value #MAX_TEXT} characters
 * (prompts, outputs and tracebacks are never needed whole), and a top-level array of arrays (vLLM's and SGLang's
 * {@code itls}, which is most of a 190 MB file) is never held: the light tree records only how many arrays it holds,
 * and {@link #eachArray} streams their numbers a second time, straight into the histograms. A file of 10,000 requests
 * of 500 tokens each holds 5,000,000 gaps; read as a tree they took gigabytes, streamed they take the histograms.
 * <p>
 * Python's {@code json} writes {@code Infinity} and {@code NaN} bare (SGLang's {@code request_rate: Infinity}); they
 * are read as numbers, and a time or a count must then be finite ({@link #time}, {@link #count}).
 */
final class PeerFile
{
    /** The longest string kept from a peer's file. */
    static final int MAX_TEXT = 200;
    /** The deepest nesting read; the peers' files are 6 deep at most. */
    static final int MAX_DEPTH = 64;
    /** The largest per-request time accepted, in ms: 10^9 ms, 11.6 days; beyond it a value is no measured time. */
    static final double MAX_MS = 1e9;
    /** By how much a recomputed mean may differ from the file's own before its units contradict its summary. */
    static final double UNIT_FACTOR = 10;
    /** The largest clock reading a start time may be, s (some 317 years: a perf_counter, or a Unix time). */
    static final double MAX_CLOCK_S = 1e10;

    private static final JsonFactory FACTORY = JsonFactory.builder()
        .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
        .build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    final Path file;

    PeerFile(final Path file)
    {
        this.file = file;
    }

    /**
     * One top-level JSON value of the file.
     *
     * @param tree     the value, light: strings cut, top-level arrays of arrays left out.
     * @param line     the line it starts on (1-based).
     * @param streamed each top-level array of arrays left out of {@code tree}, by field, with its size.
     */
    record Root(ObjectNode tree, long line, Map<String, Integer> streamed)
    {
        /** @return the size of array field {@code name}, streamed or in the tree, or -1 when it has none. */
        int size(final String name)
        {
            final Integer n = streamed.get(name);
            return n != null ? n : tree.path(name).isArray() ? tree.get(name).size() : -1;
        }
    }

    /** Called with each top-level value as it is read. */
    interface RootSink
    {
        /** @return false to stop reading. */
        boolean root(Root root) throws IOException;
    }

    /** Called with the numbers of each array of an array of arrays, in order. */
    interface ArraySink
    {
        void value(int array, int index, double v);

        void end(int array);
    }

    /** @return the file's top-level values; null when it does not start with a JSON object (no peer's file). */
    List<Root> roots() throws IOException
    {
        final List<Root> roots = new ArrayList<>();
        return eachRoot(r -> roots.add(r)) ? roots : null;
    }

    /**
     * Reads the top-level values one after another, each handed to {@code sink} and then dropped.
     *
     * @return false when the file does not start with a JSON object; a later value that is not one is an error.
     */
    boolean eachRoot(final RootSink sink) throws IOException
    {
        long count = 0;
        try (JsonParser p = FACTORY.createParser(file.toFile()))
        {
            while (true)
            {
                final JsonToken t = token(p, count);
                if (t == null)
                {
                    return count > 0;
                }
                final long line = p.currentTokenLocation().getLineNr();
                if (t != JsonToken.START_OBJECT)
                {
                    if (count == 0)
                    {
                        return false;
                    }
                    throw new PeerFormatException(file, "line " + line, "a JSON object, one per line");
                }
                final Map<String, Integer> streamed = new HashMap<>();
                final ObjectNode tree;
                try
                {
                    tree = object(p, 1, streamed);
                }
                catch (final JacksonException ex)
                {
                    throw notJson(ex);
                }
                count++;
                if (!sink.root(new Root(tree, line, streamed)))
                {
                    return true;
                }
            }
        }
    }

    /** @return the next token; a file that is no JSON from its first token is no peer's file (the caller says so). */
    private JsonToken token(final JsonParser p, final long count) throws IOException
    {
        try
        {
            return p.nextToken();
        }
        catch (final JacksonException ex)
        {
            if (count == 0)
            {
                return JsonToken.VALUE_NULL; // not JSON at all: the caller says it is in no peer's shape
            }
            throw notJson(ex);
        }
    }

    /**
     * Streams the numbers of top-level array of arrays {@code field} of the {@code index}-th top-level value: each
     * number to {@code sink}, scaled, and each array's end.
     */
    void eachArray(final int index, final String field, final String path, final ArraySink sink) throws IOException
    {
        try (JsonParser p = FACTORY.createParser(file.toFile()))
        {
            for (int i = 0; i < index; i++)
            {
                p.nextToken();
                p.skipChildren();
            }
            if (p.nextToken() != JsonToken.START_OBJECT)
            {
                throw new PeerFormatException(file, path, "an array of arrays of numbers");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME)
            {
                final String name = p.currentName();
                p.nextToken();
                if (name.equals(field))
                {
                    arrays(p, path, sink);
                    return;
                }
                p.skipChildren();
            }
        }
        catch (final JacksonException ex)
        {
            throw notJson(ex);
        }
    }

    private void arrays(final JsonParser p, final String path, final ArraySink sink) throws IOException
    {
        int array = 0;
        while (p.nextToken() == JsonToken.START_ARRAY)
        {
            int i = 0;
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY)
            {
                if (!t.isNumeric())
                {
                    throw new PeerFormatException(file, path + "[" + array + "][" + i + "]", "a number, got " +
                        (t.isScalarValue() ? shown(p.getText()) : "a " + t.asString()));
                }
                sink.value(array, i++, p.getDoubleValue());
            }
            sink.end(array++);
        }
        if (p.currentToken() != JsonToken.END_ARRAY)
        {
            throw new PeerFormatException(file, path + "[" + array + "]", "an array of numbers");
        }
    }

    private ObjectNode object(final JsonParser p, final int depth, final Map<String, Integer> streamed)
        throws IOException
    {
        final ObjectNode o = NODES.objectNode();
        while (p.nextToken() == JsonToken.FIELD_NAME)
        {
            final String name = p.currentName();
            if (p.nextToken() == JsonToken.START_ARRAY && depth == 1)
            {
                final JsonNode a = topArray(p, name, streamed);
                if (a != null)
                {
                    o.set(name, a);
                }
            }
            else
            {
                o.set(name, value(p, depth));
            }
        }
        return o;
    }

    /** @return a top-level array, or null when it is an array of arrays (counted in {@code streamed}, not held). */
    private JsonNode topArray(final JsonParser p, final String name, final Map<String, Integer> streamed)
        throws IOException
    {
        final JsonToken first = p.nextToken();
        if (first != JsonToken.START_ARRAY)
        {
            return rest(p, first, 2);
        }
        int n = 0;
        JsonToken t = first;
        while (t != JsonToken.END_ARRAY)
        {
            p.skipChildren();
            n++;
            t = p.nextToken();
        }
        streamed.put(name, n);
        return null;
    }

    private JsonNode value(final JsonParser p, final int depth) throws IOException
    {
        return switch (p.currentToken())
        {
            case START_OBJECT -> object(p, depth + 1, null);
            case START_ARRAY -> rest(p, p.nextToken(), depth + 1);
            case VALUE_STRING -> NODES.textNode(cut(p.getText()));
            case VALUE_NUMBER_INT -> switch (p.getNumberType())
            {
                case INT -> NODES.numberNode(p.getIntValue());
                case LONG -> NODES.numberNode(p.getLongValue());
                default -> NODES.numberNode(p.getDoubleValue());
            };
            case VALUE_NUMBER_FLOAT -> NODES.numberNode(p.getDoubleValue());
            case VALUE_TRUE -> NODES.booleanNode(true);
            case VALUE_FALSE -> NODES.booleanNode(false);
            default -> NODES.nullNode();
        };
    }

    /** @return an array whose first token, {@code first}, is already read. */
    private ArrayNode rest(final JsonParser p, final JsonToken first, final int depth) throws IOException
    {
        final ArrayNode a = NODES.arrayNode();
        JsonToken t = first;
        while (t != JsonToken.END_ARRAY)
        {
            a.add(value(p, depth));
            t = p.nextToken();
        }
        return a;
    }

    private static String cut(final String s)
    {
        return s.length() <= MAX_TEXT ? s : s.substring(0, MAX_TEXT);
    }

    /** @return one line for a file that stops being JSON: where, and in words of ours, never the parser's text. */
    private PeerFormatException notJson(final JacksonException ex)
    {
        final long line = ex.getLocation() == null ? 0 : ex.getLocation().getLineNr();
        return new PeerFormatException(file, "line " + line, FileErrors.syntax("a peer's result", ex));
    }

    PeerFormatException error(final String field, final String expected, final JsonNode got)
    {
        return new PeerFormatException(file, field, expected + ", got " + (got == null || got.isMissingNode() ?
            "nothing" : got.isNumber() ? shownNumber(got.asDouble()) : shown(got.isTextual() ? "\"" + got.asText() +
            "\"" : got.toString())));
    }

    private static String shown(final String s)
    {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }

    /** @return the finite number at {@code field} of {@code n} ({@code path} names it); anything else: an error. */
    double number(final JsonNode n, final String field, final String path)
    {
        final JsonNode v = n.path(field);
        if (!v.isNumber())
        {
            throw error(path, "a number", v);
        }
        if (!Double.isFinite(v.asDouble()))
        {
            throw error(path, "a finite number", v);
        }
        return v.asDouble();
    }

    /** @return the finite number at {@code field}, or null when absent or null; another value is an error. */
    Double optional(final JsonNode n, final String field, final String path)
    {
        final JsonNode v = n.path(field);
        return v.isMissingNode() || v.isNull() ? null : number(n, field, path);
    }

    /** @return a count at {@code field}: a whole number from 0; anything else is an error. */
    long count(final JsonNode n, final String field, final String path)
    {
        final double v = n.path(field).isNumber() ? n.get(field).asDouble() : Double.NaN;
        if (!(v >= 0) || v != Math.rint(v) || v > 1e15)
        {
            throw error(path, "a count (a whole number from 0)", n.path(field));
        }
        return (long)v;
    }

    /**
     * @return {@code v} times {@code scale}, in ms: a measured time, finite, from 0 to {@value #MAX_MS} ms; anything
     * else (NaN, Infinity, 1e308, a negative time) is an error naming {@code path}.
     */
    double time(final double v, final double scale, final String path)
    {
        final double ms = v * scale;
        if (!(ms >= 0 && ms <= MAX_MS))
        {
            throw new PeerFormatException(file, path, "a time from 0 to 11.6 days (1e9 ms), got " + shownNumber(v));
        }
        return ms;
    }

    /** @return the times of array {@code field}, in ms, or null when absent; else an error naming the element. */
    double[] times(final JsonNode n, final String field, final String path, final double scale)
    {
        final double[] v = numbers(n, field, path);
        if (v != null)
        {
            for (int i = 0; i < v.length; i++)
            {
                v[i] = time(v[i], scale, path + "[" + i + "]");
            }
        }
        return v;
    }

    /** @return the counts of array {@code field} (whole numbers from 0), or null when absent; else an error. */
    double[] counts(final JsonNode n, final String field, final String path)
    {
        final double[] v = numbers(n, field, path);
        if (v != null)
        {
            for (int i = 0; i < v.length; i++)
            {
                if (!(v[i] >= 0) || v[i] != Math.rint(v[i]) || v[i] > 1e15)
                {
                    throw new PeerFormatException(file, path + "[" + i + "]", "a count (a whole number from 0), " +
                        "got " + shownNumber(v[i]));
                }
            }
        }
        return v;
    }

    /**
     * @return the clock readings of array {@code field}, s (a perf_counter: any origin, finite, within
     * {@value #MAX_CLOCK_S} s of 0), or null when absent; else an error naming the element.
     */
    double[] clock(final JsonNode n, final String field, final String path)
    {
        final double[] v = numbers(n, field, path);
        if (v != null)
        {
            for (int i = 0; i < v.length; i++)
            {
                if (!(Math.abs(v[i]) <= MAX_CLOCK_S))
                {
                    throw new PeerFormatException(file, path + "[" + i + "]", "a clock reading in s (within " +
                        "1e10 s of 0), got " + shownNumber(v[i]));
                }
            }
        }
        return v;
    }

    /** @return the numbers of array {@code field}, or null when absent or null; else an error. */
    private double[] numbers(final JsonNode n, final String field, final String path)
    {
        final JsonNode v = n.path(field);
        if (v.isMissingNode() || v.isNull())
        {
            return null;
        }
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
            out[i] = v.get(i).asDouble();
        }
        return out;
    }

    /**
     * Refuses per-request values whose unit contradicts the file's own summary: their mean, recomputed, differs from
     * the summary's by more than {@value #UNIT_FACTOR} times (ms written where seconds are meant gives 1000 times).
     */
    void agrees(final String path, final String unit, final String summaryKey, final Double summaryMs,
        final Double recomputedMs)
    {
        if (summaryMs == null || recomputedMs == null || summaryMs <= 0 || recomputedMs <= 0)
        {
            return;
        }
        final double ratio = recomputedMs / summaryMs;
        if (ratio > UNIT_FACTOR || ratio < 1 / UNIT_FACTOR)
        {
            throw new PeerFormatException(file, path, String.format(Locale.ROOT, "values in %s, as its %s says " +
                "(a mean of %.3f ms), got values whose mean is %.3f ms", unit, summaryKey, summaryMs, recomputedMs));
        }
    }

    private static String shownNumber(final double v)
    {
        return Double.isNaN(v) ? "NaN" : Double.isInfinite(v) ? (v > 0 ? "Infinity" : "-Infinity") :
            shown(Double.toString(v));
    }

    /** @return the text at {@code field}, or null. */
    static String text(final JsonNode n, final String field)
    {
        return n.path(field).isValueNode() && !n.path(field).isNull() ? n.get(field).asText() : null;
    }
}
