package io.tokenclock.results.record;

import java.io.IOException;
import java.nio.file.Path;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.tokenclock.util.WholeFile;

/**
 * Reads and writes the typed results ({@link RunRecord}, and any other record of this package) as JSON: indented,
 * in declaration order; on reading, keys this build does not know are skipped (a newer record still reads) and a
 * key an older format lacks is null. Thread-safe.
 */
public final class RecordJson
{
    /** The mapper every result file is written and read with. */
    public static final ObjectMapper JSON = JsonMapper.builder()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .build();

    private RecordJson()
    {
    }

    /** @return the bytes of {@code value}, indented. */
    public static byte[] bytes(final Object value) throws IOException
    {
        return JSON.writeValueAsBytes(value);
    }

    /** @return {@code value} as a JSON tree. */
    public static JsonNode tree(final Object value)
    {
        return JSON.valueToTree(value);
    }

    /**
     * @return the record in {@code file}; one that is not a record (not JSON, {@code null}, a field of the wrong type,
     * a format or formulas version newer than this build's) is an IllegalArgumentException of one line naming it.
     */
    public static RunRecord read(final Path file) throws IOException
    {
        final JsonNode tree;
        try
        {
            tree = JSON.readTree(file.toFile());
        }
        catch (final com.fasterxml.jackson.core.JacksonException ex)
        {
            throw FileErrors.of(file, "a record", ex);
        }
        return of(file, tree);
    }

    /** @return the record of a tree (as read from a file, whose checks it skips: for tests and trees of ours). */
    public static RunRecord of(final JsonNode tree) throws IOException
    {
        return JSON.treeToValue(tree, RunRecord.class);
    }

    /** @return the record of a tree read from {@code file}; one that is not a record is one line naming it. */
    public static RunRecord of(final Path file, final JsonNode tree)
    {
        check(file, tree);
        final RunRecord r;
        try
        {
            r = JSON.treeToValue(tree, RunRecord.class);
        }
        catch (final com.fasterxml.jackson.core.JacksonException ex)
        {
            throw FileErrors.of(file, "a record", ex);
        }
        if (r.hardware() != null)
        {
            try
            {
                r.hardware().machine(); // read when printed: checked now, so that the printing never fails
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException(file + ": " + (ex.getCause() instanceof
                    com.fasterxml.jackson.core.JacksonException j ? FileErrors.describe("a record", j)
                    .replaceFirst("^field ", "field hardware.client.") : "field hardware.client: expected the " +
                    "machine's figures"), ex);
            }
        }
        return r;
    }

    /**
     * Refuses a record this build cannot read truly: no JSON object, no {@code tokenclock} header, or a
     * {@code record_format} or formulas version newer than this build's ({@link RunRecord#FORMAT},
     * {@link RunRecord#FORMULAS}). A newer record has keys this build would skip and figures whose definitions it does
     * not know: read as its own, it would print them as if measured under this build's rules.
     */
    public static void check(final Path file, final JsonNode tree)
    {
        if (tree == null || !tree.isObject())
        {
            throw new IllegalArgumentException(file + ": expected a record (a JSON object), got " +
                (tree == null || tree.isMissingNode() ? "an empty file" : tree.getNodeType().toString()
                    .toLowerCase(java.util.Locale.ROOT)));
        }
        finite(file, tree, "");
        final JsonNode h = tree.path("tokenclock");
        final JsonNode format = h.path("record_format");
        if (!format.canConvertToInt() || !format.isIntegralNumber() || format.asInt() < 1)
        {
            throw new IllegalArgumentException(file + ": field tokenclock.record_format: expected a format " +
                "version from 1 to " + RunRecord.FORMAT + ", got " + shown(format));
        }
        if (format.asInt() > RunRecord.FORMAT)
        {
            throw new IllegalArgumentException(file + ": field tokenclock.record_format: expected at most " +
                RunRecord.FORMAT + " (what this build reads), got " + format.asInt() + ": written by a newer " +
                "tokenclock; read it with that version");
        }
        final JsonNode formulas = h.path("formulas_version");
        final String prefix = RunRecord.FORMULAS.substring(0, RunRecord.FORMULAS.indexOf('/') + 1);
        if (formulas.isTextual() && formulas.asText().startsWith(prefix) && version(formulas.asText(), prefix) >
            version(RunRecord.FORMULAS, prefix))
        {
            throw new IllegalArgumentException(file + ": field tokenclock.formulas_version: expected at most " +
                RunRecord.FORMULAS + " (the formulas this build knows), got " + shown(formulas) + ": written by " +
                "a newer tokenclock; read it with that version");
        }
    }

    /** Refuses a bare NaN, Infinity or a number past the double's range anywhere: no figure may come of it. */
    private static void finite(final Path file, final JsonNode n, final String at)
    {
        if (n.isNumber() && !Double.isFinite(n.asDouble()))
        {
            throw new IllegalArgumentException(file + ": field " + at + ": expected a finite number, got " +
                n.asDouble());
        }
        if (n.isObject())
        {
            n.properties().forEach(e -> finite(file, e.getValue(), at.isEmpty() ? e.getKey() : at + "." + e.getKey()));
        }
        else if (n.isArray())
        {
            for (int i = 0; i < n.size(); i++)
            {
                finite(file, n.get(i), at + "[" + i + "]");
            }
        }
    }

    private static int version(final String formulas, final String prefix)
    {
        try
        {
            return Integer.parseInt(formulas.substring(prefix.length()));
        }
        catch (final NumberFormatException ex)
        {
            return Integer.MAX_VALUE; // not a version this build writes: newer than it, for all it knows
        }
    }

    private static String shown(final JsonNode v)
    {
        if (v.isMissingNode())
        {
            return "nothing";
        }
        final String s = v.toString();
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }

    /**
     * Writes {@code value} to {@code file} whole or not at all ({@link WholeFile}): a reader (or a run killed at any
     * moment) finds the previous version or the new one, never a torn file.
     */
    public static void write(final Object value, final Path file) throws IOException
    {
        WholeFile.write(file, bytes(value));
    }
}
