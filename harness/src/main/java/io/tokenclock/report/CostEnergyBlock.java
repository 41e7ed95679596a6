package io.tokenclock.report;

import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

import io.tokenclock.text.UntrustedText;

/** The COST and ENERGY sections of the record block ({@link RecordBlock}), rendered from a record. Cold path. */
final class CostEnergyBlock
{
    private CostEnergyBlock()
    {
    }

    /** Appends the COST and ENERGY sections of {@code record}, each only when the record has it. */
    static void render(final JsonNode record, final StringBuilder sb)
    {
        final JsonNode cost = record.path("report").path("cost");
        if (cost.isObject())
        {
            sb.append("\nCOST\n");
            line(sb, "prices", cost.path("prices").asText());
            line(sb, "run total", String.format(Locale.ROOT, "%s %.6g (%s)", cost.path("currency").asText(),
                cost.path("run_total").asDouble(), cost.path("arithmetic").asText()));
            line(sb, "per request", number(cost.path("per_request")));
            line(sb, "per output token", number(cost.path("per_output_token")));
            line(sb, "per successful task", number(cost.path("per_successful_task")) + " (" +
                cost.path("success_basis").asText() + ")");
            line(sb, "wasted", number(cost.path("wasted")) + " (" + cost.path("wasted_basis").asText() + ")");
            line(sb, "boundary", cost.path("boundary").asText());
        }
        final JsonNode energy = record.path("report").path("energy");
        if (energy.isObject())
        {
            sb.append("\nENERGY\n");
            line(sb, "boundary", record.path("measurement").path("power_boundary").asText("none measured"));
            if (energy.path("joules").isNumber())
            {
                line(sb, "energy", String.format(Locale.ROOT, "%.1f J +- %.1f J over %.2f s, %.1f W average",
                    energy.path("joules").asDouble(), energy.path("uncertainty_joules").asDouble(),
                    energy.path("window_s").asDouble(), energy.path("average_watts").asDouble()));
                line(sb, "per request", number(energy.path("per_request_j")) + " J");
                line(sb, "per output token", number(energy.path("per_output_token_j")) + " J");
                line(sb, "per successful task", number(energy.path("per_successful_task_j")) + " J (" +
                    energy.path("success_basis").asText() + ")");
                line(sb, "tokens per joule", number(energy.path("tokens_per_joule")));
            }
            for (final JsonNode u : energy.path("unavailable"))
            {
                line(sb, "unavailable", u.asText());
            }
        }
    }

    private static String number(final JsonNode n)
    {
        return n.isNumber() ? String.format(Locale.ROOT, "%.4g", n.asDouble()) : "-";
    }

    /** As {@link RecordBlock}'s lines: the value escaped, never raw on a terminal. */
    private static void line(final StringBuilder sb, final String key, final String value)
    {
        sb.append("  ").append(String.format(Locale.ROOT, "%-21s", key))
            .append(UntrustedText.escaped(value, Integer.MAX_VALUE)).append('\n');
    }
}
