package io.tokenclock.record;

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

    static Map<Counter, Long> read(final JsonNode n, final Counter.Section section)
    {
        final Map<Counter, Long> m = new EnumMap<>(Counter.class);
        for (final Counter c : Counter.values())
        {
            if (c.section() == section)
            {
                m.put(c, n.path(c.key()).asLong(0));
            }
        }
        return m;
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
            return new ReportSection.Counts(n.path(ReportSection.Counts.MEASURED).asLong(0),
                read(n, Counter.Section.COUNTS), n.path(ReportSection.Counts.HTTP_429_PER_S).asDouble(0));
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
            return new ReportSection.Harness(read(parser.readValueAsTree(), Counter.Section.HARNESS));
        }
    }
}
