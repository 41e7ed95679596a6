package io.tokenclock.results.record;

import java.io.IOException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import io.tokenclock.metrics.Counter;

/**
 * How the record's counter sections ({@code report.counts}, {@code report.harness}) are written and read: each
 * {@link Counter} of the section under its own key, in the enum's order, so that the key is declared once, in the
 * enum, for the writer and every reader. A key an older record lacks reads as 0.
 */
final class CounterJson
{
    private CounterJson()
    {
    }

    /** @return {@code values} restricted to {@code section}'s counters, each present (0 when not given). */
    static Map<Counter, Long> section(final Map<Counter, Long> values, final Counter.Section section)
    {
        final Map<Counter, Long> m = new EnumMap<>(Counter.class);
        for (final Counter c : Counter.values())
        {
            if (c.section() == section)
            {
                m.put(c, values == null ? 0L : values.getOrDefault(c, 0L));
            }
        }
        return Collections.unmodifiableMap(m);
    }

    static void write(final Map<Counter, Long> values, final JsonGenerator g) throws IOException
    {
        for (final Map.Entry<Counter, Long> e : values.entrySet())
        {
            g.writeNumberField(e.getKey().key(), e.getValue());
        }
    }

    /** @return the section's counters in {@code n}; a section or a counter of the wrong type is a mismatch. */
    static Map<Counter, Long> read(final JsonParser parser, final JsonNode n, final Counter.Section section)
        throws MismatchedInputException
    {
        if (!n.isObject())
        {
            throw MismatchedInputException.from(parser, Map.class, "a section of counters");
        }
        final Map<Counter, Long> m = new EnumMap<>(Counter.class);
        for (final Counter c : Counter.values())
        {
            if (c.section() == section)
            {
                m.put(c, count(parser, n, c.key()));
            }
        }
        return m;
    }

    /** @return the count at {@code key}, 0 when absent; anything but a whole number from 0 is a mismatch. */
    private static long count(final JsonParser parser, final JsonNode n, final String key)
        throws MismatchedInputException
    {
        final JsonNode v = n.path(key);
        if (v.isMissingNode() || v.isNull())
        {
            return 0;
        }
        if (!v.isIntegralNumber() || v.asLong() < 0)
        {
            final MismatchedInputException ex = MismatchedInputException.from(parser, Long.class, "a count");
            ex.prependPath(n, key);
            throw ex;
        }
        return v.asLong();
    }

    /** Writes {@code report.counts}: {@code measured}, each counter, then {@code http_429_per_s}. */
    static final class CountsWriter extends StdSerializer<ReportSection.Counts>
    {
        private static final long serialVersionUID = 1L;

        CountsWriter()
        {
            super(ReportSection.Counts.class);
        }

        @Override
        public void serialize(final ReportSection.Counts v, final JsonGenerator g, final SerializerProvider p)
            throws IOException
        {
            g.writeStartObject();
            g.writeNumberField(ReportSection.Counts.MEASURED, v.measured());
            write(v.values(), g);
            g.writeNumberField(ReportSection.Counts.HTTP_429_PER_S, v.http429PerS());
            g.writeEndObject();
        }
    }

    /** Reads {@code report.counts} of any record format. */
    static final class CountsReader extends StdDeserializer<ReportSection.Counts>
    {
        private static final long serialVersionUID = 1L;

        CountsReader()
        {
            super(ReportSection.Counts.class);
        }

        @Override
        public ReportSection.Counts deserialize(final JsonParser parser, final DeserializationContext ctx)
            throws IOException
        {
            final JsonNode n = parser.readValueAsTree();
            final Map<Counter, Long> counts = read(parser, n, Counter.Section.COUNTS);
            final JsonNode rate = n.path(ReportSection.Counts.HTTP_429_PER_S);
            if (!rate.isMissingNode() && !rate.isNull() && !(rate.isNumber() && Double.isFinite(rate.asDouble())))
            {
                final MismatchedInputException ex = MismatchedInputException.from(parser, Double.class, "a rate");
                ex.prependPath(n, ReportSection.Counts.HTTP_429_PER_S);
                throw ex;
            }
            return new ReportSection.Counts(count(parser, n, ReportSection.Counts.MEASURED), counts, rate.asDouble(0));
        }
    }

    /** Writes {@code report.harness}: each of its counters. */
    static final class HarnessWriter extends StdSerializer<ReportSection.Harness>
    {
        private static final long serialVersionUID = 1L;

        HarnessWriter()
        {
            super(ReportSection.Harness.class);
        }

        @Override
        public void serialize(final ReportSection.Harness v, final JsonGenerator g, final SerializerProvider p)
            throws IOException
        {
            g.writeStartObject();
            write(v.values(), g);
            g.writeEndObject();
        }
    }

    /** Reads {@code report.harness}. */
    static final class HarnessReader extends StdDeserializer<ReportSection.Harness>
    {
        private static final long serialVersionUID = 1L;

        HarnessReader()
        {
            super(ReportSection.Harness.class);
        }

        @Override
        public ReportSection.Harness deserialize(final JsonParser parser, final DeserializationContext ctx)
            throws IOException
        {
            return new ReportSection.Harness(read(parser, parser.readValueAsTree(), Counter.Section.HARNESS));
        }
    }
}
