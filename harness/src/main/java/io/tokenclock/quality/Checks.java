package io.tokenclock.quality;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.tokenclock.json.Json;

/**
 * The built-in checks, and how a contract entry or a {@code --quality-check} flag names one. Every check that compares
 * with a reference fails a sample that has none, for the reason {@code no_reference}: a check never passes for want
 * of something to compare.
 */
public final class Checks
{
    /** The check types a contract's {@code quality.checks[].type} and {@code --quality-check} accept. */
    public static final List<String> TYPES = List.of("exact", "normalized", "contains", "regex", "numeric", "json",
        "json_schema", "finish_stop", "command");

    static final ObjectMapper JSON = Json.MAPPER;
    private static final String NO_REFERENCE = "no_reference";
    /** A decimal number as answers write it: sign, digits with optional thousands commas, fraction, exponent. */
    private static final Pattern NUMBER = Pattern.compile("[-+]?(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d+)?" +
        "(?:[eE][-+]?\\d+)?|[-+]?\\.\\d+");
    private static final Pattern PUNCTUATION = Pattern.compile("\\p{P}+");
    private static final Pattern SPACES = Pattern.compile("\\s+");

    private Checks()
    {
    }

    /**
     * @param spec    a contract's {@code quality.checks[k]} (shape already checked): {@code type} and its parameters.
     * @param baseDir where a relative {@code schema_file} is found, or null for the working directory.
     */
    public static Check fromSpec(final JsonNode spec, final Path baseDir)
    {
        final String type = spec.path("type").asText();
        return switch (type)
        {
            case "exact" -> new Exact();
            case "normalized" -> new Normalized();
            case "contains" -> new Contains();
            case "regex" -> new Regex(spec.hasNonNull("pattern") ? compile(spec.get("pattern").asText()) : null);
            case "numeric" -> new Numeric(spec.path("tolerance").asDouble(0), spec.path("relative").asDouble(0));
            case "json" -> new JsonParses();
            case "json_schema" -> JsonSchemaCheck.of(schema(spec, baseDir));
            case "finish_stop" -> new FinishStop();
            case "command" -> CommandCheck.of(strings(spec.path("argv")), spec.path("timeout_s").asDouble(
                CommandCheck.DEFAULT_TIMEOUT_S), strings(spec.path("pass_env")));
            default -> throw new IllegalArgumentException("quality check type must be one of " + TYPES + ": " + type);
        };
    }

    /**
     * @param flag {@code TYPE} or {@code TYPE=ARG}: {@code regex=PATTERN}, {@code numeric=TOLERANCE},
     *             {@code json_schema=FILE}, {@code command=PROGRAM} (no arguments; give those in a contract).
     */
    public static Check fromFlag(final String flag)
    {
        final int eq = flag.indexOf('=');
        final String type = (eq < 0 ? flag : flag.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
        final String arg = eq < 0 ? null : flag.substring(eq + 1);
        if (!TYPES.contains(type))
        {
            throw new IllegalArgumentException("--quality-check must be one of " + TYPES + ": " + flag);
        }
        final ObjectNode spec = JSON.createObjectNode().put("type", type);
        if (arg != null)
        {
            switch (type)
            {
                case "regex" -> spec.put("pattern", arg);
                case "numeric" -> spec.put("tolerance", number(arg, flag));
                case "json_schema" -> spec.put("schema_file", arg);
                case "command" -> spec.putArray("argv").add(arg);
                default -> throw new IllegalArgumentException("--quality-check " + type + " takes no argument: " +
                    flag);
            }
        }
        if ((type.equals("json_schema") || type.equals("command")) && arg == null)
        {
            throw new IllegalArgumentException("--quality-check " + type + " needs an argument: " + type + "=" +
                (type.equals("command") ? "PROGRAM" : "FILE"));
        }
        return fromSpec(spec, null);
    }

    private static double number(final String text, final String flag)
    {
        try
        {
            final double v = Double.parseDouble(text);
            if (!(v >= 0) || Double.isInfinite(v))
            {
                throw new NumberFormatException();
            }
            return v;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("--quality-check numeric's tolerance must be a number >= 0: " + flag);
        }
    }

    private static Pattern compile(final String pattern)
    {
        try
        {
            return Pattern.compile(pattern);
        }
        catch (final PatternSyntaxException ex)
        {
            throw new IllegalArgumentException("quality check regex: not a valid pattern: " + ex.getDescription() +
                ": " + pattern);
        }
    }

    private static List<String> strings(final JsonNode array)
    {
        final List<String> out = new ArrayList<>();
        array.forEach(e -> out.add(e.asText()));
        return out;
    }

    private static JsonNode schema(final JsonNode spec, final Path baseDir)
    {
        if (spec.has("schema"))
        {
            return spec.get("schema");
        }
        if (!spec.hasNonNull("schema_file"))
        {
            throw new IllegalArgumentException("quality check json_schema needs schema (an object) or schema_file");
        }
        final Path given = Path.of(spec.get("schema_file").asText());
        final Path file = baseDir == null || given.isAbsolute() ? given : baseDir.resolve(given);
        try
        {
            return JSON.readTree(Files.readString(file));
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException(file + ": not a JSON Schema (invalid JSON): " + ex.getOriginalMessage());
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(file + ": cannot read the JSON Schema: " + ex.getMessage());
        }
    }

    /**
     * @return the text lower-cased, punctuation removed, whitespace runs made one space, trimmed: what the
     * {@code normalized} check compares.
     */
    public static String normalize(final String text)
    {
        final String noPunctuation = PUNCTUATION.matcher(text.toLowerCase(Locale.ROOT)).replaceAll(" ");
        return SPACES.matcher(noPunctuation).replaceAll(" ").strip();
    }

    /** @return the last number written in {@code text} (thousands commas dropped), or null when there is none. */
    public static BigDecimal lastNumber(final String text)
    {
        final Matcher m = NUMBER.matcher(text);
        String last = null;
        while (m.find())
        {
            last = m.group();
        }
        return last == null ? null : new BigDecimal(last.replace(",", "").replace("+", ""));
    }

    private static ObjectNode named(final String name)
    {
        return JSON.createObjectNode().put("type", name);
    }

    /** The output equals the reference, character for character. */
    record Exact() implements Check
    {
        @Override
        public boolean needsReference()
        {
            return true;
        }

        @Override
        public String name()
        {
            return "exact";
        }

        @Override
        public Outcome check(final Sample s)
        {
            if (s.reference() == null)
            {
                return Outcome.fail(NO_REFERENCE, "exact: the request has no reference");
            }
            return Outcome.of(s.output().equals(s.reference()), name(), "expected \"" + s.reference() + "\"");
        }

        @Override
        public ObjectNode describe()
        {
            return named(name());
        }
    }

    /** The output equals the reference once both are {@link #normalize normalized}. */
    record Normalized() implements Check
    {
        @Override
        public boolean needsReference()
        {
            return true;
        }

        @Override
        public String name()
        {
            return "normalized";
        }

        @Override
        public Outcome check(final Sample s)
        {
            if (s.reference() == null)
            {
                return Outcome.fail(NO_REFERENCE, "normalized: the request has no reference");
            }
            return Outcome.of(normalize(s.output()).equals(normalize(s.reference())), name(),
                "expected \"" + normalize(s.reference()) + "\"");
        }

        @Override
        public ObjectNode describe()
        {
            return named(name()).put("rule", "lower case, punctuation removed, whitespace collapsed, trimmed");
        }
    }

    /** The output contains the reference (case-sensitive substring). */
    record Contains() implements Check
    {
        @Override
        public boolean needsReference()
        {
            return true;
        }

        @Override
        public String name()
        {
            return "contains";
        }

        @Override
        public Outcome check(final Sample s)
        {
            if (s.reference() == null)
            {
                return Outcome.fail(NO_REFERENCE, "contains: the request has no reference");
            }
            return Outcome.of(s.output().contains(s.reference()), name(), "\"" + s.reference() + "\" not found");
        }

        @Override
        public ObjectNode describe()
        {
            return named(name());
        }
    }

    /** The pattern (or, without one, the reference read as a pattern) is found in the output. */
    record Regex(Pattern pattern) implements Check
    {
        @Override
        public boolean needsReference()
        {
            return pattern == null;
        }

        @Override
        public String name()
        {
            return "regex";
        }

        @Override
        public Outcome check(final Sample s)
        {
            final Pattern p;
            if (pattern != null)
            {
                p = pattern;
            }
            else if (s.reference() == null)
            {
                return Outcome.fail(NO_REFERENCE, "regex: no pattern and no reference");
            }
            else
            {
                try
                {
                    p = Pattern.compile(s.reference());
                }
                catch (final PatternSyntaxException ex)
                {
                    return Outcome.fail("regex_invalid", "the reference is not a pattern: " + ex.getDescription());
                }
            }
            return Outcome.of(p.matcher(s.output()).find(), name(), "/" + p.pattern() + "/ not found");
        }

        @Override
        public ObjectNode describe()
        {
            final ObjectNode n = named(name()).put("match", "found anywhere in the output (anchor with ^ and $)");
            return pattern == null ? n.put("pattern_from", "reference") : n.put("pattern", pattern.pattern());
        }
    }

    /**
     * The last number in the output is within tolerance of the reference's number: {@code |out - ref| <=
     * max(tolerance, relative * |ref|)}.
     */
    record Numeric(double tolerance, double relative) implements Check
    {
        @Override
        public boolean needsReference()
        {
            return true;
        }

        @Override
        public String name()
        {
            return "numeric";
        }

        @Override
        public Outcome check(final Sample s)
        {
            final BigDecimal ref = s.reference() == null ? null : lastNumber(s.reference());
            if (ref == null)
            {
                return Outcome.fail(NO_REFERENCE, "numeric: the request has no numeric reference");
            }
            final BigDecimal out = lastNumber(s.output());
            if (out == null)
            {
                return Outcome.fail(name(), "no number in the output; expected " + ref.toPlainString());
            }
            final double diff = out.subtract(ref).abs().doubleValue();
            final double allowed = Math.max(tolerance, relative * ref.abs().doubleValue());
            return Outcome.of(diff <= allowed, name(), "expected " + ref.toPlainString() + ", got " +
                out.toPlainString());
        }

        @Override
        public ObjectNode describe()
        {
            return named(name()).put("tolerance", tolerance).put("relative", relative)
                .put("rule", "the last number of the output; |output - reference| <= max(tolerance, relative * " +
                    "|reference|)");
        }
    }

    /** The output (trimmed) is one JSON value. */
    record JsonParses() implements Check
    {
        @Override
        public String name()
        {
            return "json";
        }

        @Override
        public Outcome check(final Sample s)
        {
            try
            {
                JSON.readTree(s.output().strip());
                return s.output().isBlank() ? Outcome.fail(name(), "empty output") : Outcome.passed();
            }
            catch (final JsonProcessingException ex)
            {
                return Outcome.fail(name(), ex.getOriginalMessage());
            }
        }

        @Override
        public ObjectNode describe()
        {
            return named(name());
        }
    }

    /** The stream ended with {@code finish_reason: stop}. */
    record FinishStop() implements Check
    {
        @Override
        public String name()
        {
            return "finish_stop";
        }

        @Override
        public boolean needsText()
        {
            return false;
        }

        @Override
        public Outcome check(final Sample s)
        {
            return Outcome.of("stop".equals(s.finishReason()), name(), "finish_reason " + s.finishReason());
        }

        @Override
        public ObjectNode describe()
        {
            return named(name());
        }
    }
}
