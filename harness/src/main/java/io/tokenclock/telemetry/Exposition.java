package io.tokenclock.telemetry;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tokenclock.text.UntrustedText;

/**
 * A parser of the Prometheus text exposition format, version 0.0.4, that also reads OpenMetrics text gracefully
 * ({@code # EOF}, {@code # UNIT}, {@code _created} samples, exemplars after {@code #}, float timestamps).
 * <p>
 * The input is a server's answer, so it is untrusted: every line is parsed on its own, and a line that breaks the
 * format is skipped and counted with its number and a one-line reason ({@link Scrape#errors()}); the rest of the
 * exposition is still read. Nothing but such a counted error comes of malformed input: {@link #parse} never throws,
 * and its work is linear in the input's length.
 * <p>
 * What a line may be (whitespace is blanks and tabs; lines end with LF, a CR before it is dropped; leading and
 * trailing whitespace is ignored; empty lines are skipped):
 * <ul>
 * <li>{@code # HELP name docstring}: {@code \\} and {@code \n} unescaped, other backslashes kept; one per name.</li>
 * <li>{@code # TYPE name type}: counter, gauge, histogram, summary, untyped (and OpenMetrics' unknown, info,
 * stateset, gaugehistogram); one per name.</li>
 * <li>{@code # EOF}: OpenMetrics' end; any line after it is an error. Other comments are ignored.</li>
 * <li>{@code name[{label="value",...}] value [timestamp] [# exemplar]}: names {@code [a-zA-Z_:][a-zA-Z0-9_:]*},
 * label names {@code [a-zA-Z_][a-zA-Z0-9_]*} (each once per line; a trailing comma is allowed), label values quoted
 * with {@code \\}, {@code \"} and {@code \n} escapes; values as Go's {@code ParseFloat} reads them, {@code NaN},
 * {@code +Inf} and {@code -Inf} included; a finite timestamp.</li>
 * </ul>
 * Thread-safe: stateless.
 */
public final class Exposition
{
    /** How many parse errors a scrape keeps with their line numbers (all are counted). */
    public static final int MAX_ERRORS_KEPT = 20;

    private Exposition()
    {
    }

    /** @return the exposition in {@code utf8[offset, offset + length)}, decoded as UTF-8, parsed. */
    public static Scrape parse(final byte[] utf8, final int offset, final int length)
    {
        return parse(new String(utf8, offset, length, StandardCharsets.UTF_8));
    }

    /** @return {@code text} parsed; malformed lines skipped and counted. Never throws. */
    public static Scrape parse(final String text)
    {
        final Builder b = new Builder();
        int lineStart = text.startsWith("\uFEFF") ? 1 : 0;
        int number = 0;
        while (lineStart <= text.length())
        {
            final int newline = text.indexOf('\n', lineStart);
            final int lineEnd = newline < 0 ? text.length() : newline;
            number++;
            b.line(text, lineStart, lineEnd, number);
            lineStart = lineEnd + 1;
        }
        return new Scrape(b.samples, b.types, b.help, b.errorCount, b.errors, b.eof);
    }

    /** The state of one parse. */
    private static final class Builder
    {
        final List<Sample> samples = new ArrayList<>();
        final Map<String, MetricType> types = new LinkedHashMap<>();
        final Map<String, String> help = new LinkedHashMap<>();
        final List<Scrape.ParseError> errors = new ArrayList<>();
        int errorCount;
        boolean eof;

        void line(final String text, final int from, final int to, final int number)
        {
            int start = from;
            int end = to;
            while (start < end && blank(text.charAt(start)))
            {
                start++;
            }
            while (end > start && (blank(text.charAt(end - 1)) || text.charAt(end - 1) == '\r'))
            {
                end--;
            }
            if (start == end)
            {
                return;
            }
            try
            {
                if (eof)
                {
                    throw new Malformed("content after # EOF");
                }
                final Cursor c = new Cursor(text, start, end);
                if (text.charAt(start) == '#')
                {
                    comment(c);
                }
                else
                {
                    samples.add(c.sample());
                }
            }
            catch (final Malformed ex)
            {
                errorCount++;
                if (errors.size() < MAX_ERRORS_KEPT)
                {
                    errors.add(new Scrape.ParseError(number, ex.getMessage()));
                }
            }
        }

        private void comment(final Cursor c)
        {
            c.pos++;
            c.skipBlanks();
            final String keyword = c.word();
            switch (keyword)
            {
                case "HELP" ->
                {
                    final String name = c.requireBlankThenName("HELP");
                    c.skipBlanks();
                    if (help.putIfAbsent(name, c.helpText()) != null)
                    {
                        throw new Malformed("second HELP line for " + name);
                    }
                }
                case "TYPE" -> type(c);
                case "EOF" ->
                {
                    if (!c.atEnd())
                    {
                        throw new Malformed("nothing may follow # EOF");
                    }
                    eof = true;
                }
                default ->
                {
                    // Any other comment, OpenMetrics' # UNIT included, carries nothing this parser keeps.
                }
            }
        }

        private void type(final Cursor c)
        {
            final String name = c.requireBlankThenName("TYPE");
            if (!c.skipBlanks())
            {
                throw new Malformed("TYPE line without a type");
            }
            final String word = c.word();
            final MetricType type = MetricType.of(word);
            if (type == null || !c.atEnd())
            {
                throw new Malformed("unknown metric type: " + Cursor.shown(word));
            }
            if (types.putIfAbsent(name, type) != null)
            {
                throw new Malformed("second TYPE line for " + name);
            }
        }
    }

    /** A position in one line (trimmed), with the readers of its tokens; each throws {@link Malformed}. */
    private static final class Cursor
    {
        private static final int SHOWN_CHARS = 40;

        final String text;
        final int end;
        int pos;

        Cursor(final String text, final int start, final int end)
        {
            this.text = text;
            this.pos = start;
            this.end = end;
        }

        boolean atEnd()
        {
            return pos >= end;
        }

        /** @return whether any whitespace was skipped. */
        boolean skipBlanks()
        {
            final int start = pos;
            while (pos < end && blank(text.charAt(pos)))
            {
                pos++;
            }
            return pos > start;
        }

        /** @return the characters up to the next whitespace or the end. */
        String word()
        {
            final int start = pos;
            while (pos < end && !blank(text.charAt(pos)))
            {
                pos++;
            }
            return text.substring(start, pos);
        }

        String requireBlankThenName(final String keyword)
        {
            if (!skipBlanks() || atEnd())
            {
                throw new Malformed(keyword + " line without a metric name");
            }
            final String name = metricName();
            if (!atEnd() && !blank(text.charAt(pos)))
            {
                throw new Malformed("invalid metric name in " + keyword + " line");
            }
            return name;
        }

        String helpText()
        {
            final StringBuilder sb = new StringBuilder(end - pos);
            while (pos < end)
            {
                final char ch = text.charAt(pos++);
                if (ch == '\\' && pos < end && (text.charAt(pos) == '\\' || text.charAt(pos) == 'n'))
                {
                    sb.append(text.charAt(pos++) == 'n' ? '\n' : '\\');
                }
                else
                {
                    sb.append(ch);
                }
            }
            return sb.toString();
        }

        Sample sample()
        {
            final String name = metricName();
            boolean separated = skipBlanks();
            Map<String, String> labels = Map.of();
            if (pos < end && text.charAt(pos) == '{')
            {
                labels = labels();
                separated = skipBlanks();
            }
            if (!separated || atEnd())
            {
                throw new Malformed("sample of " + name + " without a value");
            }
            final double value = number(word(), true);
            double timestamp = Double.NaN;
            if (skipBlanks() && !atEnd() && text.charAt(pos) != '#')
            {
                timestamp = number(word(), false);
                skipBlanks();
            }
            if (!atEnd() && text.charAt(pos) != '#')
            {
                throw new Malformed("unexpected text after the value of " + name + ": " + shown(word()));
            }
            return new Sample(name, labels, value, timestamp);
        }

        private String metricName()
        {
            final int start = pos;
            if (pos < end && nameStart(text.charAt(pos)))
            {
                pos++;
                while (pos < end && (nameStart(text.charAt(pos)) || digit(text.charAt(pos))))
                {
                    pos++;
                }
            }
            if (pos == start)
            {
                throw new Malformed("invalid metric name at " + shown(text.substring(start, end)));
            }
            return text.substring(start, pos);
        }

        private Map<String, String> labels()
        {
            pos++; // '{'
            final Map<String, String> labels = new LinkedHashMap<>();
            while (true)
            {
                skipBlanks();
                if (atEnd())
                {
                    throw new Malformed("unterminated label set");
                }
                if (text.charAt(pos) == '}')
                {
                    pos++;
                    return labels.isEmpty() ? Map.of() : Collections.unmodifiableMap(labels);
                }
                final String label = labelName();
                skipBlanks();
                expect('=', "'=' after label " + label);
                skipBlanks();
                if (labels.put(label, labelValue(label)) != null)
                {
                    throw new Malformed("label " + label + " given twice");
                }
                skipBlanks();
                if (pos < end && text.charAt(pos) == ',')
                {
                    pos++;
                }
                else if (pos >= end || text.charAt(pos) != '}')
                {
                    throw new Malformed("expected ',' or '}' after label " + label);
                }
            }
        }

        private String labelName()
        {
            final int start = pos;
            if (pos < end && (letter(text.charAt(pos)) || text.charAt(pos) == '_'))
            {
                pos++;
                while (pos < end && (letter(text.charAt(pos)) || text.charAt(pos) == '_' || digit(text.charAt(pos))))
                {
                    pos++;
                }
            }
            if (pos == start)
            {
                throw new Malformed("invalid label name at " + shown(text.substring(start, end)));
            }
            return text.substring(start, pos);
        }

        private String labelValue(final String label)
        {
            expect('"', "'\"' to open the value of label " + label);
            final StringBuilder sb = new StringBuilder();
            while (pos < end)
            {
                final char ch = text.charAt(pos++);
                if (ch == '"')
                {
                    return sb.toString();
                }
                if (ch != '\\')
                {
                    sb.append(ch);
                    continue;
                }
                final char escaped = pos < end ? text.charAt(pos++) : ' ';
                switch (escaped)
                {
                    case '\\' -> sb.append('\\');
                    case '"' -> sb.append('"');
                    case 'n' -> sb.append('\n');
                    default -> throw new Malformed("invalid escape in the value of label " + label);
                }
            }
            throw new Malformed("unterminated value of label " + label);
        }

        private void expect(final char expected, final String what)
        {
            if (pos >= end || text.charAt(pos) != expected)
            {
                throw new Malformed("expected " + what);
            }
            pos++;
        }

        /** Reads a value (NaN and infinities allowed) or a timestamp (finite only), as Go's ParseFloat would. */
        static double number(final String token, final boolean value)
        {
            final double special = special(token);
            if (!Double.isNaN(special) || token.equalsIgnoreCase("nan"))
            {
                if (!value)
                {
                    throw new Malformed("timestamp is not a finite number: " + shown(token));
                }
                return special;
            }
            boolean digits = false;
            for (int i = 0; i < token.length(); i++)
            {
                final char ch = token.charAt(i);
                digits |= digit(ch);
                if (!digit(ch) && ch != '.' && ch != 'e' && ch != 'E' && ch != '+' && ch != '-')
                {
                    throw new Malformed("not a number: " + shown(token));
                }
            }
            try
            {
                if (digits)
                {
                    return Double.parseDouble(token);
                }
            }
            catch (final NumberFormatException ex)
            {
                // fall through: reported below, with the token
            }
            throw new Malformed("not a number: " + shown(token));
        }

        /** @return the value of NaN or an infinity spelled as Go accepts it (any case), else NaN. */
        private static double special(final String token)
        {
            final String t = token.startsWith("+") || token.startsWith("-") ? token.substring(1) : token;
            if (t.equalsIgnoreCase("inf") || t.equalsIgnoreCase("infinity"))
            {
                return token.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
            return Double.NaN;
        }

        static String shown(final String s)
        {
            // a server's bytes: every control character escaped, by the one escaper of server text
            return '"' + UntrustedText.escaped(s, SHOWN_CHARS) + '"';
        }
    }

    private static boolean blank(final char c)
    {
        return c == ' ' || c == '\t';
    }

    private static boolean digit(final char c)
    {
        return c >= '0' && c <= '9';
    }

    private static boolean letter(final char c)
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean nameStart(final char c)
    {
        return letter(c) || c == '_' || c == ':';
    }

    /** One malformed line: a control-flow signal with a message and no stack trace. */
    private static final class Malformed extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        Malformed(final String message)
        {
            super(message, null, false, false);
        }
    }
}
