package io.tokenclock.compare;

import java.util.Objects;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.results.record.RecordJson;
import io.tokenclock.results.record.RunRecord;

/**
 * One fact of a result's contract, as {@code compare} diffs it: its protocol group (W, A, M, R, S, H, N, E, Q), its
 * key in {@code record.json}, whether it is declared (a variable a user sets) or follows from others (a hash, a
 * served id), the refusal rule it belongs to, if any, and how it is read from a record.
 *
 * @param group    the protocol group's letter.
 * @param key      the record key, e.g. {@code load.rate_per_s}.
 * @param declared false when it follows from declared facts (not counted as a changed variable).
 * @param rule     the refusal rule it belongs to ({@code timing endpoints}, ...), or null.
 * @param read     its value in a record, as text; null when the record does not say.
 */
record Fact(String group, String key, boolean declared, String rule, Function<RunRecord, Object> read)
{
    /** @return this fact's value in {@code r} as text, or null when {@code r} does not say. */
    String value(final RunRecord r)
    {
        final Object v;
        try
        {
            v = read.apply(r);
        }
        catch (final NullPointerException ex)
        {
            return null; // a section the record lacks (an older format, or an imported peer file)
        }
        if (v == null || (v instanceof JsonNode n && (n.isNull() || n.isMissingNode())))
        {
            return null;
        }
        return v instanceof String s ? s : v instanceof JsonNode n ? n.toString() :
            v instanceof Number || v instanceof Boolean ? v.toString() : RecordJson.tree(v).toString();
    }

    /** @return whether {@code a} and {@code b} hold the same value of this fact. */
    boolean same(final RunRecord a, final RunRecord b)
    {
        return Objects.equals(value(a), value(b));
    }
}
