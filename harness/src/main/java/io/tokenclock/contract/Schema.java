package io.tokenclock.contract;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A small structural schema for the contract file: which keys exist at each path, and what each value may be. It
 * exists so that every mistake in a contract gets one line naming the key path ({@code load.rate: must be > 0, got
 * -2}), the way a careful reviewer would point at it, instead of a parser's stack trace or a silently ignored typo.
 * <p>
 * Immutable and thread-safe once built.
 */
public abstract class Schema
{
    /**
     * Checks {@code node} at {@code path}; appends one line per problem to {@code errors}.
     */
    public abstract void check(String path, JsonNode node, List<String> errors);

    /** @return a short description of the expected value, for messages. */
    public abstract String expected();

    /**
     * @return the keys a map here may hold, each with its schema (a list's: its elements'); empty for a plain value.
     * For the docs test, which holds docs/CONTRACT.md to the schema.
     */
    public Map<String, Schema> keys()
    {
        return Map.of();
    }

    /** @return the words a {@link #oneOf} value may be; empty for any other schema. */
    public List<String> words()
    {
        return List.of();
    }

    public static ObjectSchema object()
    {
        return new ObjectSchema();
    }

    public static Schema string()
    {
        return new Leaf("a string", JsonNode::isTextual);
    }

    public static Schema bool()
    {
        return new Leaf("true or false", JsonNode::isBoolean);
    }

    public static Schema anyValue()
    {
        return new Leaf("any value", n -> true);
    }

    /** @return a schema for an object whose values are all strings (headers, labels), any keys allowed. */
    public static Schema stringMap()
    {
        return new Leaf("a map of names to strings", n ->
        {
            if (!n.isObject())
            {
                return false;
            }
            for (final Iterator<JsonNode> it = n.elements(); it.hasNext(); )
            {
                if (!it.next().isValueNode())
                {
                    return false;
                }
            }
            return true;
        });
    }

    public static Schema jsonObject()
    {
        return new Leaf("a map", JsonNode::isObject);
    }

    /** A number in [min, max]; {@code exclusiveMin} makes the lower bound strict. */
    public static Schema number(final double min, final boolean exclusiveMin, final double max)
    {
        return new NumberSchema(min, exclusiveMin, max, false);
    }

    /** An integer from {@code min} (exclusive: above it) to {@code max}. */
    public static Schema integer(final double min, final boolean exclusiveMin, final double max)
    {
        return new NumberSchema(min, exclusiveMin, max, true);
    }

    /** An integer in [min, max]. */
    public static Schema integer(final long min, final long max)
    {
        return new NumberSchema(min, false, max, true);
    }

    /** One of the given lower-case words (an enum's, or a list its code declares). */
    public static Schema oneOf(final List<String> words)
    {
        return new OneOf(List.copyOf(words));
    }

    /** One of the given lower-case words. */
    public static Schema oneOf(final String... words)
    {
        return new OneOf(List.of(words));
    }

    /** A list whose elements all match {@code element}; at least {@code minSize} of them. */
    public static Schema listOf(final Schema element, final int minSize)
    {
        return new ListSchema(element, minSize);
    }

    static String describe(final JsonNode n)
    {
        if (n.isTextual())
        {
            return "\"" + n.asText() + "\"";
        }
        if (n.isContainerNode())
        {
            return n.isArray() ? "a list" : "a map";
        }
        return n.toString();
    }

    /** A map with named keys; unknown keys are errors. */
    public static final class ObjectSchema extends Schema
    {
        private final Map<String, Schema> fields = new LinkedHashMap<>();
        private final List<String> required = new ArrayList<>();

        /** Adds an optional key {@code name} whose value must match {@code schema}; returns this, for chaining. */
        public ObjectSchema field(final String name, final Schema schema)
        {
            fields.put(name, schema);
            return this;
        }

        /**
         * Says that key {@code name}, whose schema comes from {@code config.RunOption}'s table
         * ({@link ContractSchema#of}), must be present; returns this, for chaining.
         */
        public ObjectSchema requires(final String name)
        {
            required.add(name);
            return this;
        }

        /**
         * @return the map declared at key {@code name}, added empty when there is none (a table's key may open a
         * section of its own); null when {@code name} holds another kind of value.
         */
        ObjectSchema section(final String name)
        {
            final Schema child = fields.computeIfAbsent(name, n -> new ObjectSchema());
            return child instanceof ObjectSchema map ? map : null;
        }

        /** @return whether key {@code name} has a schema here. */
        boolean declares(final String name)
        {
            return fields.containsKey(name);
        }

        /** Adds a key {@code name} that must be present and match {@code schema}; returns this, for chaining. */
        public ObjectSchema requiredField(final String name, final Schema schema)
        {
            required.add(name);
            return field(name, schema);
        }

        @Override
        public void check(final String path, final JsonNode node, final List<String> errors)
        {
            if (!node.isObject())
            {
                errors.add(path + ": must be a map, got " + describe(node));
                return;
            }
            for (final Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); )
            {
                final Map.Entry<String, JsonNode> e = it.next();
                final String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                final Schema schema = fields.get(e.getKey());
                if (schema == null)
                {
                    errors.add(child + ": unknown key (expected one of: " + String.join(", ", fields.keySet()) + ")");
                }
                else if (!e.getValue().isNull())
                {
                    schema.check(child, e.getValue(), errors);
                }
            }
            for (final String name : required)
            {
                if (!node.hasNonNull(name))
                {
                    errors.add((path.isEmpty() ? name : path + "." + name) + ": required");
                }
            }
        }

        @Override
        public String expected()
        {
            return "a map";
        }

        @Override
        public Map<String, Schema> keys()
        {
            return Collections.unmodifiableMap(fields);
        }
    }

    private static final class Leaf extends Schema
    {
        private final String expected;
        private final Predicate<JsonNode> accepts;

        Leaf(final String expected, final Predicate<JsonNode> accepts)
        {
            this.expected = expected;
            this.accepts = accepts;
        }

        @Override
        public void check(final String path, final JsonNode node, final List<String> errors)
        {
            if (!accepts.test(node))
            {
                errors.add(path + ": must be " + expected + ", got " + describe(node));
            }
        }

        @Override
        public String expected()
        {
            return expected;
        }
    }

    private static final class NumberSchema extends Schema
    {
        private final double min;
        private final boolean exclusiveMin;
        private final double max;
        private final boolean integral;

        NumberSchema(final double min, final boolean exclusiveMin, final double max, final boolean integral)
        {
            this.min = min;
            this.exclusiveMin = exclusiveMin;
            this.max = max;
            this.integral = integral;
        }

        @Override
        public void check(final String path, final JsonNode node, final List<String> errors)
        {
            if (!node.isNumber() || (integral && !node.canConvertToLong()) ||
                (integral && node.isFloatingPointNumber() && node.asDouble() != Math.rint(node.asDouble())))
            {
                errors.add(path + ": must be " + expected() + ", got " + describe(node));
                return;
            }
            final double v = node.asDouble();
            if (Double.isNaN(v) || (exclusiveMin ? v <= min : v < min))
            {
                errors.add(path + ": must be " + (exclusiveMin ? "> " : ">= ") + fmt(min) + ", got " + node);
            }
            else if (v > max)
            {
                errors.add(path + ": must be <= " + fmt(max) + ", got " + node);
            }
        }

        private static String fmt(final double v)
        {
            return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long)v) : String.valueOf(v);
        }

        @Override
        public String expected()
        {
            return integral ? "an integer" : "a number";
        }
    }

    private static final class OneOf extends Schema
    {
        private final List<String> words;

        OneOf(final List<String> words)
        {
            this.words = words;
        }

        @Override
        public void check(final String path, final JsonNode node, final List<String> errors)
        {
            if (!node.isTextual() || !words.contains(node.asText().toLowerCase(Locale.ROOT)))
            {
                errors.add(path + ": must be " + expected() + ", got " + describe(node));
            }
        }

        @Override
        public String expected()
        {
            return "one of " + String.join(", ", words);
        }

        @Override
        public List<String> words()
        {
            return words;
        }
    }

    private static final class ListSchema extends Schema
    {
        private final Schema element;
        private final int minSize;

        ListSchema(final Schema element, final int minSize)
        {
            this.element = element;
            this.minSize = minSize;
        }

        @Override
        public void check(final String path, final JsonNode node, final List<String> errors)
        {
            if (!node.isArray())
            {
                errors.add(path + ": must be a list, got " + describe(node));
                return;
            }
            if (node.size() < minSize)
            {
                errors.add(path + ": must have at least " + minSize + " entries, got " + node.size());
            }
            for (int i = 0; i < node.size(); i++)
            {
                element.check(path + "[" + i + "]", node.get(i), errors);
            }
        }

        @Override
        public String expected()
        {
            return "a list of " + element.expected();
        }

        @Override
        public Map<String, Schema> keys()
        {
            return element.keys();
        }
    }
}
