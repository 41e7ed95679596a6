package io.tokenclock.record;

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

    /** @return the record in {@code file}; one that is not a record is an IllegalArgumentException naming it. */
    public static RunRecord read(final Path file) throws IOException
    {
        try
        {
            return JSON.readValue(file.toFile(), RunRecord.class);
        }
        catch (final com.fasterxml.jackson.core.JacksonException ex)
        {
            throw new IllegalArgumentException(file + ": not a record.json: " + ex.getOriginalMessage(), ex);
        }
    }

    /** @return the record of a tree (as read from a file). */
    public static RunRecord of(final JsonNode tree) throws IOException
    {
        return JSON.treeToValue(tree, RunRecord.class);
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
