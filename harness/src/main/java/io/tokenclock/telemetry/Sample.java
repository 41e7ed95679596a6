package io.tokenclock.telemetry;

import java.util.Map;

/**
 * One sample line of an exposition: {@code name{labels} value [timestamp]}.
 *
 * @param name      the sample's name as written, suffix included (e.g. {@code vllm:ttft_seconds_bucket}).
 * @param labels    the labels in the order written, unescaped; unmodifiable.
 * @param value     the value; NaN and the infinities as written.
 * @param timestamp the timestamp as written (milliseconds in the text format 0.0.4, seconds in OpenMetrics), or NaN
 *                  when the line has none.
 */
public record Sample(String name, Map<String, String> labels, double value, double timestamp)
{
    /** @return the series as the text format writes it, e.g. {@code a{b="c"}}, values escaped again. */
    public String series()
    {
        if (labels.isEmpty())
        {
            return name;
        }
        final StringBuilder sb = new StringBuilder(name.length() + 16 * labels.size()).append(name).append('{');
        boolean first = true;
        for (final Map.Entry<String, String> e : labels.entrySet())
        {
            if (!first)
            {
                sb.append(',');
            }
            first = false;
            sb.append(e.getKey()).append("=\"");
            escape(sb, e.getValue());
            sb.append('"');
        }
        return sb.append('}').toString();
    }

    private static void escape(final StringBuilder sb, final String value)
    {
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            switch (c)
            {
                case '\\' -> sb.append("\\\\");
                case '"' -> sb.append("\\\"");
                case '\n' -> sb.append("\\n");
                default -> sb.append(c);
            }
        }
    }
}
