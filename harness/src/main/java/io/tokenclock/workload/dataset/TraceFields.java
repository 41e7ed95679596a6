package io.tokenclock.workload.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.json.Json;

/**
 * Reads and checks the fields of one trace row (or one request of a Weka trace), each problem one
 * {@link IllegalArgumentException} line naming the file, the line and the field. Stateless.
 */
final class TraceFields
{
    private final String where;
    private final JsonNode node;

    private TraceFields(final String where, final JsonNode node)
    {
        this.where = where;
        this.node = node;
    }

    /** @return the fields of {@code node}, found at {@code where} ({@code file:line}, or more). */
    static TraceFields of(final String where, final JsonNode node)
    {
        if (node == null || !node.isObject())
        {
            throw new IllegalArgumentException(where + ": must be a JSON object");
        }
        return new TraceFields(where, node);
    }

    /** @return the JSON object on {@code line}, found at {@code where}. */
    static TraceFields parse(final String where, final String line)
    {
        try
        {
            return of(where, Json.MAPPER.readTree(line));
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException(where + ": not valid JSON: " + ex.getOriginalMessage());
        }
    }

    JsonNode node()
    {
        return node;
    }

    String where()
    {
        return where;
    }

    /** @return the one line of a problem with {@code field}. */
    IllegalArgumentException bad(final String field, final String problem)
    {
        return new IllegalArgumentException(where + ": \"" + field + "\" " + problem);
    }

    boolean has(final String field)
    {
        return node.hasNonNull(field);
    }

    /** @return a non-empty string field, or null when absent. */
    String text(final String field)
    {
        if (!node.hasNonNull(field))
        {
            return null;
        }
        final JsonNode v = node.get(field);
        if (!v.isTextual() || v.asText().isEmpty())
        {
            throw bad(field, "must be a non-empty string");
        }
        return v.asText();
    }

    /** @return an integer field of at least {@code min}; {@code absent} when it is missing or null. */
    int integer(final String field, final int min, final int absent)
    {
        if (!node.hasNonNull(field))
        {
            return absent;
        }
        final JsonNode v = node.get(field);
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < min)
        {
            throw bad(field, "must be an integer >= " + min + ", was " + v);
        }
        return v.asInt();
    }

    /** @return a required integer field of at least {@code min}. */
    int required(final String field, final int min)
    {
        if (!node.hasNonNull(field))
        {
            throw bad(field, "is missing");
        }
        return integer(field, min, 0);
    }

    /** @return a non-negative number field in {@code unit}, converted to µs by {@code usPerUnit}; -1 when absent. */
    long micros(final String field, final double usPerUnit, final String unit)
    {
        if (!node.hasNonNull(field))
        {
            return -1;
        }
        final JsonNode v = node.get(field);
        if (!v.isNumber() || !(v.asDouble() >= 0) || Double.isInfinite(v.asDouble()))
        {
            throw bad(field, "must be a number of " + unit + " >= 0, was " + v);
        }
        return Math.round(v.asDouble() * usPerUnit);
    }

    /** @return an array of integer ids, or an empty array when the field is absent. */
    long[] ids(final String field)
    {
        if (!node.hasNonNull(field))
        {
            return new long[0];
        }
        final JsonNode v = node.get(field);
        if (!v.isArray())
        {
            throw bad(field, "must be an array of integers");
        }
        final long[] ids = new long[v.size()];
        for (int k = 0; k < ids.length; k++)
        {
            if (!v.get(k).isIntegralNumber() || !v.get(k).canConvertToLong())
            {
                throw bad(field, "must be an array of integers, [" + k + "] was " + v.get(k));
            }
            ids[k] = v.get(k).asLong();
        }
        return ids;
    }

    /**
     * Checks that {@code hashIds} cover a prompt of {@code inputLength} tokens under {@code layout}: one id a block of
     * {@code blockSize} tokens, the last block partial or left out as the layout says.
     */
    void blocks(final long[] hashIds, final int inputLength, final TraceSession.BlockLayout layout,
        final String inputField)
    {
        final int expected = layout.blocks(inputLength);
        if (hashIds.length > 0 && hashIds.length != expected)
        {
            throw bad("hash_ids", "has " + hashIds.length + " blocks, but \"" + inputField + "\" " + inputLength +
                " needs " + expected + " of " + layout.blockSize() + " tokens (" + (layout.fullOnly() ?
                "only full blocks are hashed)" : "the last may be partial)"));
        }
    }
}
