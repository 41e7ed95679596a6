package io.tokenclock.telemetry;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonGenerator;

/**
 * One line of {@code server_metrics.jsonl}: when the scrape ran on the run's clock, whether it succeeded, what it
 * cost, the common fields, and every series as scraped. JSON has no NaN or infinities: such values are written as the
 * strings {@code "NaN"}, {@code "+Inf"} and {@code "-Inf"}, as the exposition writes them. Format: docs/RESULTS.md.
 * Public for the JMH suite, which measures what a scrape costs. Thread-safe: stateless.
 */
public final class ScrapeLine
{
    private ScrapeLine()
    {
    }

    /** Writes the line's object (without the newline) for a scrape that ended with {@code fields}, or failed. */
    public static void write(final JsonGenerator g, final long startNs, final long endNs,
        final MetricsFetcher.Response response, final String error, final Scrape scrape, final CommonFields fields,
        final long cpuNs) throws IOException
    {
        g.writeStartObject();
        g.writeNumberField("start_ns", startNs);
        g.writeNumberField("end_ns", endNs);
        g.writeBooleanField("ok", fields != null);
        if (response == null)
        {
            g.writeNullField("http_status");
        }
        else
        {
            g.writeNumberField("http_status", response.status());
        }
        g.writeNumberField("bytes", response == null ? 0 : response.body().length);
        g.writeNumberField("cpu_ns", cpuNs);
        g.writeStringField("error", error);
        if (fields != null)
        {
            g.writeNumberField("parse_errors", scrape.errorCount());
            g.writeStringField("first_parse_error", scrape.errors().isEmpty() ? null :
                "line " + scrape.errors().get(0).line() + ": " + scrape.errors().get(0).message());
            g.writeStringField("engine", fields.engine());
            g.writeObjectFieldStart("common");
            for (final EngineNames.Field f : EngineNames.Field.values())
            {
                value(g, f.key(), fields.value(f), true);
            }
            g.writeEndObject();
            g.writeObjectFieldStart("series");
            for (final Sample s : scrape.samples())
            {
                value(g, s.series(), s.value(), false);
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void value(final JsonGenerator g, final String key, final double v, final boolean nanIsNull)
        throws IOException
    {
        g.writeFieldName(key);
        if (Double.isFinite(v))
        {
            g.writeNumber(v);
        }
        else if (Double.isNaN(v))
        {
            if (nanIsNull)
            {
                g.writeNull();
            }
            else
            {
                g.writeString("NaN");
            }
        }
        else
        {
            g.writeString(v > 0 ? "+Inf" : "-Inf");
        }
    }
}
